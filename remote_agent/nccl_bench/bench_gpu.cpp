#include "bench_gpu.h"

#include "bench_data.h"
#include "bench_geometry.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace rackscope::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kChunkElements = std::size_t(1) << 22; // host staging for data and checks, 4M elements

ncclDataType_t ncclType(DataType t) {
    switch (t) {
    case DataType::Int8:
        return ncclInt8;
    case DataType::Uint8:
        return ncclUint8;
    case DataType::Int32:
        return ncclInt32;
    case DataType::Uint32:
        return ncclUint32;
    case DataType::Int64:
        return ncclInt64;
    case DataType::Uint64:
        return ncclUint64;
    case DataType::Half:
        return ncclFloat16;
    case DataType::Float:
        return ncclFloat32;
    case DataType::Double:
        return ncclFloat64;
    case DataType::Bfloat16:
        return ncclBfloat16;
    }
    return ncclFloat32;
}

ncclRedOp_t ncclOp(RedOp r) {
    switch (r) {
    case RedOp::Sum:
        return ncclSum;
    case RedOp::Prod:
        return ncclProd;
    case RedOp::Max:
        return ncclMax;
    case RedOp::Min:
        return ncclMin;
    case RedOp::Avg:
        return ncclAvg;
    }
    return ncclSum;
}

char* offset(void* base, std::size_t elements, std::size_t elementSize) {
    return static_cast<char*>(base) + elements * elementSize;
}

std::string hostName() {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    std::string host(name);
    return host.substr(0, host.find('.')); // as nccl-tests shows it
}

} // namespace

void fail(const std::string& what) {
    std::fprintf(stderr, "rackscope-nccl-bench: %s: %s\n", hostName().c_str(), what.c_str());
    std::fflush(stderr);
    abortWorld(1);
}

void cudaCheck(cudaError_t e, const char* what) {
    if (e == cudaSuccess)
        return;
    const bool noGpu = e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver;
    fail(std::string("CUDA failure in ") + what + ": " + cudaGetErrorString(e) +
         (noGpu ? " (no usable NVIDIA GPU or driver on this host)" : ""));
}

void ncclCheck(ncclResult_t r, const char* what) {
    if (r != ncclSuccess) {
        const std::string last = ncclGetLastError(nullptr);
        fail(std::string("NCCL failure in ") + what + ": " + ncclGetErrorString(r) +
             (last.empty() ? "" : " (" + last + ")"));
    }
}

GpuBench::GpuBench(Op op, const Options& options, const World& world, std::vector<Gpu>& gpus, int ranks)
    : op_(op), o_(options), world_(world), gpus_(gpus), ranks_(ranks) {}

void GpuBench::print(const std::string& text) const {
    if (world_.rank != 0)
        return;
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
}

void GpuBench::launch(const Case& c, std::size_t count, bool inPlace) {
    const Geometry g = geometry(op_, count, ranks_);
    const std::size_t ws = dataTypeSize(c.type);
    const ncclDataType_t type = ncclType(c.type);
    if (gpus_.size() > 1)
        ncclCheck(ncclGroupStart(), "ncclGroupStart");
    for (Gpu& gpu : gpus_) {
        const std::size_t rank = static_cast<std::size_t>(gpu.rank);
        void* send = inPlace ? offset(gpu.recv, g.sendInPlaceOffset * rank, ws) : gpu.send;
        void* recv = inPlace ? offset(gpu.recv, g.recvInPlaceOffset * rank, ws) : gpu.recv;
        switch (op_) {
        case Op::AllReduce:
            ncclCheck(ncclAllReduce(send, recv, g.paramCount, type, ncclOp(c.redOp), gpu.comm, gpu.stream),
                      "ncclAllReduce");
            break;
        case Op::AllGather:
            ncclCheck(ncclAllGather(send, recv, g.paramCount, type, gpu.comm, gpu.stream), "ncclAllGather");
            break;
        case Op::ReduceScatter:
            ncclCheck(
                ncclReduceScatter(send, recv, g.paramCount, type, ncclOp(c.redOp), gpu.comm, gpu.stream),
                "ncclReduceScatter");
            break;
        case Op::Broadcast:
            ncclCheck(ncclBroadcast(send, recv, g.paramCount, type, c.root, gpu.comm, gpu.stream),
                      "ncclBroadcast");
            break;
        case Op::Reduce:
            ncclCheck(
                ncclReduce(send, recv, g.paramCount, type, ncclOp(c.redOp), c.root, gpu.comm, gpu.stream),
                "ncclReduce");
            break;
        case Op::AllToAll:
            ncclCheck(ncclGroupStart(), "ncclGroupStart");
            for (int peer = 0; peer < ranks_; ++peer) {
                const std::size_t at = g.paramCount * static_cast<std::size_t>(peer);
                ncclCheck(ncclSend(offset(send, at, ws), g.paramCount, type, peer, gpu.comm, gpu.stream),
                          "ncclSend");
                ncclCheck(ncclRecv(offset(recv, at, ws), g.paramCount, type, peer, gpu.comm, gpu.stream),
                          "ncclRecv");
            }
            ncclCheck(ncclGroupEnd(), "ncclGroupEnd");
            break;
        case Op::SendRecv:
            ncclCheck(ncclGroupStart(), "ncclGroupStart");
            ncclCheck(ncclSend(send, g.paramCount, type, (gpu.rank + 1) % ranks_, gpu.comm, gpu.stream),
                      "ncclSend");
            ncclCheck(
                ncclRecv(recv, g.paramCount, type, (gpu.rank - 1 + ranks_) % ranks_, gpu.comm, gpu.stream),
                "ncclRecv");
            ncclCheck(ncclGroupEnd(), "ncclGroupEnd");
            break;
        }
    }
    if (gpus_.size() > 1)
        ncclCheck(ncclGroupEnd(), "ncclGroupEnd");
    if (o_.blocking) {
        complete();
        barrier();
    }
}

// Waits for every GPU's stream, watching for NCCL's asynchronous errors (a
// peer gone, a network failure) and for -T, rather than hanging forever.
void GpuBench::complete() {
    const auto start = Clock::now();
    std::vector<bool> done(gpus_.size(), false);
    std::size_t remaining = gpus_.size();
    while (remaining > 0) {
        bool progressed = false;
        for (std::size_t i = 0; i < gpus_.size(); ++i) {
            if (done[i])
                continue;
            const cudaError_t e = cudaStreamQuery(gpus_[i].stream);
            if (e == cudaSuccess) {
                done[i] = true;
                --remaining;
                progressed = true;
                continue;
            }
            if (e != cudaErrorNotReady)
                cudaCheck(e, "cudaStreamQuery");
            ncclResult_t async = ncclSuccess;
            ncclCheck(ncclCommGetAsyncError(gpus_[i].comm, &async), "ncclCommGetAsyncError");
            const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
            if (async != ncclSuccess || (o_.timeoutSec > 0 && elapsed > o_.timeoutSec)) {
                for (Gpu& g : gpus_)
                    ncclCommAbort(g.comm);
                if (async != ncclSuccess)
                    fail("NCCL reported an asynchronous error on rank " + std::to_string(gpus_[i].rank) +
                         ": " + ncclGetErrorString(async));
                fail("an operation took longer than -T " + std::to_string(o_.timeoutSec) + " s; aborted");
            }
        }
        if (!progressed)
            sched_yield();
    }
}

void GpuBench::initData(const Case& c, std::size_t count, bool inPlace, std::uint64_t seed) {
    const Geometry g = geometry(op_, count, ranks_);
    const std::size_t ws = dataTypeSize(c.type);
    const DataSpec spec{c.type, c.redOp, ranks_, seed};
    std::vector<unsigned char> host(std::min(g.sendCount, kChunkElements) * ws);
    for (Gpu& gpu : gpus_) {
        cudaCheck(cudaSetDevice(gpu.device), "cudaSetDevice");
        cudaCheck(cudaMemset(gpu.recv, 0, std::max(g.sendCount, g.recvCount) * ws), "cudaMemset");
        char* send = inPlace ? offset(gpu.recv, g.sendInPlaceOffset * static_cast<std::size_t>(gpu.rank), ws)
                             : static_cast<char*>(gpu.send);
        for (std::size_t first = 0; first < g.sendCount; first += kChunkElements) {
            const std::size_t n = std::min(kChunkElements, g.sendCount - first);
            fillInput(host.data(), first, n, gpu.rank, spec);
            cudaCheck(cudaMemcpy(send + first * ws, host.data(), n * ws, cudaMemcpyHostToDevice),
                      "cudaMemcpy to the GPU");
        }
    }
    cudaCheck(cudaSetDevice(gpus_.front().device), "cudaSetDevice");
}

long long GpuBench::checkData(const Case& c, std::size_t count, bool inPlace, std::uint64_t seed) {
    const Geometry g = geometry(op_, count, ranks_);
    const std::size_t ws = dataTypeSize(c.type);
    const DataSpec spec{c.type, c.redOp, ranks_, seed};
    const std::size_t chunk = std::min(g.recvCount, kChunkElements);
    std::vector<unsigned char> got(chunk * ws), expected(chunk * ws);
    long long wrong = 0;
    for (Gpu& gpu : gpus_) {
        if (!hasResult(op_, gpu.rank, c.root))
            continue;
        const char* recv =
            inPlace ? offset(gpu.recv, g.recvInPlaceOffset * static_cast<std::size_t>(gpu.rank), ws)
                    : static_cast<const char*>(gpu.recv);
        for (std::size_t first = 0; first < g.recvCount; first += kChunkElements) {
            const std::size_t n = std::min(kChunkElements, g.recvCount - first);
            cudaCheck(cudaMemcpy(got.data(), recv + first * ws, n * ws, cudaMemcpyDeviceToHost),
                      "cudaMemcpy from the GPU");
            fillExpected(op_, g, gpu.rank, c.root, expected.data(), first, n, spec);
            wrong += static_cast<long long>(countWrong(got.data(), expected.data(), n, spec));
        }
    }
    return sumAll(wrong);
}

void GpuBench::timeOne(const Case& c, std::size_t count, bool inPlace, Totals& totals) {
    if (o_.check)
        initData(c, count, inPlace, ++pass_);
    launch(c, count, inPlace); // one untimed operation, as nccl-tests runs first
    complete();
    barrier();

    const int timed = o_.iters * o_.aggIters;
    std::vector<cudaGraphExec_t> graphs;
    if (o_.cudaGraphLaunches > 0)
        for (Gpu& gpu : gpus_)
            cudaCheck(cudaStreamBeginCapture(gpu.stream, cudaStreamCaptureModeThreadLocal),
                      "cudaStreamBeginCapture");
    auto start = Clock::now();
    for (int iter = 0; iter < o_.iters; ++iter) {
        if (o_.aggIters > 1)
            ncclCheck(ncclGroupStart(), "ncclGroupStart");
        for (int a = 0; a < o_.aggIters; ++a)
            launch(c, count, inPlace);
        if (o_.aggIters > 1)
            ncclCheck(ncclGroupEnd(), "ncclGroupEnd");
    }
    if (o_.cudaGraphLaunches > 0) {
        for (Gpu& gpu : gpus_) {
            cudaGraph_t graph = nullptr;
            cudaCheck(cudaStreamEndCapture(gpu.stream, &graph), "cudaStreamEndCapture");
            cudaGraphExec_t exec = nullptr;
            cudaCheck(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
            cudaCheck(cudaGraphDestroy(graph), "cudaGraphDestroy");
            graphs.push_back(exec);
        }
        barrier();
        start = Clock::now();
        for (int l = 0; l < o_.cudaGraphLaunches; ++l)
            for (std::size_t i = 0; i < gpus_.size(); ++i)
                cudaCheck(cudaGraphLaunch(graphs[i], gpus_[i].stream), "cudaGraphLaunch");
    }
    const double launchSeconds = std::chrono::duration<double>(Clock::now() - start).count() / timed;
    complete();
    double seconds = std::chrono::duration<double>(Clock::now() - start).count() / timed;
    if (o_.cudaGraphLaunches > 0) {
        seconds /= o_.cudaGraphLaunches;
        for (cudaGraphExec_t exec : graphs)
            cudaCheck(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
    }
    seconds = combineTime(seconds, o_.average);

    long long wrong = 0;
    for (int pass = 0; pass < o_.check;
         ++pass) { // validation runs apart from the timed iterations, as in nccl-tests
        const std::uint64_t seed = ++pass_;
        initData(c, count, inPlace, seed);
        launch(c, count, inPlace);
        complete();
        wrong = checkData(c, count, inPlace, seed);
        if (wrong)
            break;
    }
    const Geometry g = geometry(op_, count, ranks_);
    const Bandwidth bw = bandwidth(op_, g.paramCount, dataTypeSize(c.type), seconds, ranks_);
    const bool validated = o_.check > 0 && (!inPlace || checksInPlace(op_));
    const double shown = o_.reportCpuTime ? combineTime(launchSeconds, o_.average) : seconds;
    print(rowResult(shown, bw.algbw, bw.busbw, validated ? wrong : -1));
    totals.add(bw.busbw, validated ? wrong : 0);
}

Totals GpuBench::run() {
    Totals totals;
    print(tableHeader());
    std::vector<int> roots{usesRoot(op_) ? o_.root : -1};
    if (usesRoot(op_) && o_.root == -1) {
        roots.clear();
        for (int r = 0; r < ranks_; ++r)
            roots.push_back(r);
    }
    const std::vector<RedOp> redOps = usesRedOp(op_) ? o_.redOps : std::vector<RedOp>{RedOp::Sum};
    const std::vector<std::size_t> sizes = sweepSizes(o_);
    for (DataType type : o_.types) {
        const std::size_t ws = dataTypeSize(type);
        for (RedOp redOp : redOps) {
            for (int root : roots) {
                const Case c{type, redOp, root};
                barrier();
                for (std::size_t warmSize : {o_.maxBytes, o_.minBytes}) { // nccl-tests warms up at both ends
                    for (int i = 0; i < o_.warmupIters; ++i)
                        launch(c, warmSize / ws, false);
                    complete();
                }
                for (std::size_t size : sizes) {
                    const std::size_t count = size / ws;
                    const Geometry g = geometry(op_, count, ranks_);
                    print(rowStart(reportedBytes(g, ws), g.paramCount, dataTypeName(type),
                                   usesRedOp(op_) ? redOpName(redOp) : "none", root));
                    timeOne(c, count, false, totals);
                    timeOne(c, count, true, totals);
                    print("\n");
                }
            }
        }
    }
    return totals;
}

} // namespace rackscope::bench
