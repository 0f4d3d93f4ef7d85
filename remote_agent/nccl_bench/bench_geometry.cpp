#include "bench_geometry.h"

#include <algorithm>

namespace rackscope::bench {

Geometry geometry(Op op, std::size_t count, int ranks) {
    const std::size_t n = static_cast<std::size_t>(std::max(ranks, 1));
    const std::size_t perRank = count / n;
    Geometry g;
    switch (op) {
    case Op::AllReduce:
    case Op::Broadcast:
    case Op::Reduce:
    case Op::SendRecv:
        g.sendCount = g.recvCount = g.paramCount = count;
        break;
    case Op::AllGather:
        g.sendCount = g.paramCount = perRank;
        g.recvCount = perRank * n;
        g.sendInPlaceOffset = perRank;
        break;
    case Op::ReduceScatter:
        g.sendCount = perRank * n;
        g.recvCount = g.paramCount = perRank;
        g.recvInPlaceOffset = perRank;
        break;
    case Op::AllToAll:
        g.sendCount = g.recvCount = perRank * n;
        g.paramCount = perRank;
        break;
    }
    return g;
}

std::size_t reportedBytes(const Geometry& g, std::size_t elementSize) {
    return std::max(g.sendCount, g.recvCount) * elementSize;
}

double busFactor(Op op, int ranks) {
    if (ranks <= 0)
        return 0;
    const double n = ranks;
    switch (op) {
    case Op::AllReduce:
        return 2 * (n - 1) / n;
    case Op::AllGather:
    case Op::ReduceScatter:
    case Op::AllToAll:
        return (n - 1) / n;
    case Op::Broadcast:
    case Op::Reduce:
    case Op::SendRecv:
        return 1;
    }
    return 0;
}

Bandwidth bandwidth(Op op, std::size_t paramCount, std::size_t elementSize, double seconds, int ranks) {
    if (seconds <= 0)
        return {};
    double bytes = static_cast<double>(paramCount) * static_cast<double>(elementSize);
    // The gather-like collectives pass the per-rank count; their bandwidth counts every rank's part.
    if (op == Op::AllGather || op == Op::ReduceScatter || op == Op::AllToAll)
        bytes *= ranks;
    Bandwidth b;
    b.algbw = bytes / 1.0e9 / seconds;
    b.busbw = b.algbw * busFactor(op, ranks);
    return b;
}

bool usesRedOp(Op op) {
    return op == Op::AllReduce || op == Op::ReduceScatter || op == Op::Reduce || op == Op::SendRecv;
}
bool usesRoot(Op op) {
    return op == Op::Broadcast || op == Op::Reduce;
}
bool checksInPlace(Op op) {
    return op != Op::AllToAll && op != Op::SendRecv;
}

} // namespace rackscope::bench
