#pragma once
// The GPU side of rackscope-nccl-bench: one NCCL communicator, stream and
// pair of buffers per GPU of this process, and the timed loop nccl-tests runs
// for each size (warm-up, iterations, optional CUDA graph, then validation).
// Errors end the run with what failed, on which host and GPU.
#include "bench_options.h"
#include "bench_report.h"
#include "bench_world.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>
#include <vector>

namespace rackscope::bench {

struct Gpu {
    int device = 0;
    int rank = 0;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    void* send = nullptr;
    void* recv = nullptr;
};

[[noreturn]] void fail(const std::string& what);
void cudaCheck(cudaError_t e, const char* what);
void ncclCheck(ncclResult_t r, const char* what);

class GpuBench {
public:
    GpuBench(Op op, const Options& options, const World& world, std::vector<Gpu>& gpus, int ranks);
    // Prints the table to stdout on rank 0; returns the totals for the footer.
    Totals run();

private:
    struct Case {
        DataType type;
        RedOp redOp;
        int root;
    };
    void launch(const Case& c, std::size_t count, bool inPlace);
    void complete();
    void timeOne(const Case& c, std::size_t count, bool inPlace, Totals& totals);
    void initData(const Case& c, std::size_t count, bool inPlace, std::uint64_t seed);
    long long checkData(const Case& c, std::size_t count, bool inPlace, std::uint64_t seed);
    void print(const std::string& text) const;

    Op op_;
    Options o_;
    World world_;
    std::vector<Gpu>& gpus_;
    int ranks_;
    std::uint64_t pass_ = 0;
};

} // namespace rackscope::bench
