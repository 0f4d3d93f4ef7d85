#pragma once
// rackscope-nccl-bench's command line: nccl-tests' own flags, with its
// defaults, so a command written for all_reduce_perf runs unchanged here and
// the two compare one to one. Read without touching a GPU, so a mistyped flag
// is refused before anything starts.
#include "bench_types.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rackscope::bench {

struct Options {
    int threads = 1;                       // -t: one thread per process is all this benchmark drives
    int gpus = 1;                          // -g: GPUs per process
    std::size_t minBytes = 32u << 20;      // -b
    std::size_t maxBytes = 32u << 20;      // -e
    std::size_t stepBytes = 1u << 20;      // -i
    std::size_t stepFactor = 1;            // -f: when above 1, sizes grow by this factor rather than by -i
    int iters = 20;                        // -n
    int aggIters = 1;                      // -m: operations grouped into one NCCL group per iteration
    int warmupIters = 5;                   // -w
    int parallelInit = 0;                  // -p: accepted; one thread per process makes it moot
    int check = 1;                         // -c: validation passes per size (0: none)
    std::vector<RedOp> redOps{RedOp::Sum}; // -o: "all" for every one
    std::vector<DataType> types{DataType::Float}; // -d: "all" for every one
    int root = 0;                                 // -r: -1 for every root in turn
    int blocking = 0;                             // -z: wait for each operation before starting the next
    int streamNull = 0;                           // -y: use the default stream
    int timeoutSec = 0;                           // -T: abort an operation that takes longer (0: never)
    int cudaGraphLaunches = 0; // -G: capture the iterations in a CUDA graph, launch it this often
    int reportCpuTime = 0;     // -C: report the host-side launch time instead
    int average = 1;           // -a: time reported across processes: 0 rank 0, 1 mean, 2 min, 3 max
};

struct ParsedOptions {
    Options options;
    bool help = false;
    std::string error; // non-empty: what was wrong, in nccl-tests' words where it has them
};

ParsedOptions parseOptions(const std::vector<std::string>& args);
// The message sizes of the sweep, smallest first, as nccl-tests steps them.
std::vector<std::size_t> sweepSizes(const Options& options);
// "8", "64K", "1.5M", "8G" (powers of 1024, as nccl-tests reads -b and -e).
bool parseByteSize(std::string_view text, std::size_t& bytes);
std::string usage(std::string_view program);

} // namespace rackscope::bench
