// rackscope-nccl-bench: nccl-tests' benchmarks for clusters that do not have
// them, with the same operations, flags, bandwidth formulas and table, started
// the same way (one process per GPU or per -g GPUs, under mpirun or srun).
// Installed once and linked as all_reduce_perf, all_gather_perf, ... it
// answers to each name; or named: rackscope-nccl-bench all_reduce -b 8 -e 1G.
#include "bench_geometry.h"
#include "bench_gpu.h"
#include "rackscope_version.h"

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace rackscope::bench;

namespace {

std::vector<Gpu> openGpus(const Options& o, const World& world, std::string& deviceLines) {
    int available = 0;
    cudaCheck(cudaGetDeviceCount(&available), "cudaGetDeviceCount");
    const int first = world.localRank * o.gpus;
    if (first + o.gpus > available)
        fail("process " + std::to_string(world.rank) + " needs GPUs " + std::to_string(first) + " to " +
             std::to_string(first + o.gpus - 1) + " (local rank " + std::to_string(world.localRank) +
             ", -g " + std::to_string(o.gpus) + "); this host has " + std::to_string(available));
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const std::string shortHost = std::string(host).substr(0, std::string(host).find('.'));
    std::vector<Gpu> gpus;
    for (int i = 0; i < o.gpus; ++i) {
        Gpu gpu;
        gpu.device = first + i;
        gpu.rank = world.rank * o.gpus + i;
        cudaDeviceProp prop{};
        cudaCheck(cudaGetDeviceProperties(&prop, gpu.device), "cudaGetDeviceProperties");
        deviceLines += deviceLine({gpu.rank, 0, static_cast<long>(getpid()), shortHost, gpu.device,
                                   prop.pciDomainID, prop.pciBusID, prop.pciDeviceID, prop.name});
        gpus.push_back(gpu);
    }
    return gpus;
}

void allocate(std::vector<Gpu>& gpus, const Options& o) {
    const std::size_t bytes = std::max<std::size_t>(o.maxBytes, 64);
    for (Gpu& gpu : gpus) {
        cudaCheck(cudaSetDevice(gpu.device), "cudaSetDevice");
        if (!o.streamNull)
            cudaCheck(cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking), "cudaStreamCreate");
        cudaCheck(cudaMalloc(&gpu.send, bytes), "cudaMalloc (send buffer)");
        cudaCheck(cudaMalloc(&gpu.recv, bytes), "cudaMalloc (receive buffer)");
    }
}

void release(std::vector<Gpu>& gpus) {
    for (Gpu& gpu : gpus) {
        cudaSetDevice(gpu.device);
        ncclCommDestroy(gpu.comm);
        cudaFree(gpu.send);
        cudaFree(gpu.recv);
        if (gpu.stream)
            cudaStreamDestroy(gpu.stream);
    }
}

} // namespace

int main(int argc, char** argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0); // every row as soon as it is measured
    std::vector<std::string> args(argv + 1, argv + argc);
    auto op = opFromName(argv[0]);
    if (!op && !args.empty() && (op = opFromName(args.front())))
        args.erase(args.begin());
    if (!op) {
        std::fprintf(
            stderr,
            "rackscope-nccl-bench: name the operation first, or run it as one of nccl-tests' names\n%s",
            usage("rackscope-nccl-bench").c_str());
        return 2;
    }
    const ParsedOptions parsed = parseOptions(args);
    if (parsed.help) {
        std::printf("%s", usage(opBinary(*op)).c_str());
        return 0;
    }
    std::string conflict;
    if (parsed.error.empty() && parsed.options.cudaGraphLaunches > 0 &&
        (parsed.options.blocking || parsed.options.streamNull))
        conflict = "-G (CUDA graph) cannot be combined with -z 1 or -y 1";
    if (!parsed.error.empty() || !conflict.empty()) {
        std::fprintf(stderr, "rackscope-nccl-bench: %s\n",
                     (parsed.error.empty() ? conflict : parsed.error).c_str());
        return 2;
    }
    const Options& o = parsed.options;

    const World world = startWorld(&argc, &argv);
    const int ranks = world.size * o.gpus;
    if (usesRoot(*op) && o.root >= ranks)
        fail("-r " + std::to_string(o.root) + ": there are only " + std::to_string(ranks) + " ranks");
    std::string deviceLines;
    std::vector<Gpu> gpus = openGpus(o, world, deviceLines);
    deviceLines = gatherText(deviceLines);
    if (world.rank == 0) {
        std::printf("# Collective test starting: %s (rackscope-nccl-bench %s)\n", opBinary(*op),
                    RACKSCOPE_VERSION);
        std::printf("%s%s", parameterLine(o).c_str(), devicesBlock(deviceLines).c_str());
    }

    ncclUniqueId id{};
    if (world.rank == 0)
        ncclCheck(ncclGetUniqueId(&id), "ncclGetUniqueId");
    broadcastBytes(&id, sizeof id);
    allocate(gpus, o);
    ncclCheck(ncclGroupStart(), "ncclGroupStart");
    for (Gpu& gpu : gpus) {
        cudaCheck(cudaSetDevice(gpu.device), "cudaSetDevice");
        ncclCheck(ncclCommInitRank(&gpu.comm, ranks, id, gpu.rank), "ncclCommInitRank");
    }
    ncclCheck(ncclGroupEnd(), "ncclGroupEnd");
    cudaCheck(cudaSetDevice(gpus.front().device), "cudaSetDevice");

    GpuBench bench(*op, o, world, gpus, ranks);
    const Totals totals = bench.run();
    release(gpus);
    if (world.rank == 0)
        std::printf("%s", footer(totals).c_str());
    stopWorld();
    return totals.failedResults ? 1 : 0;
}
