#pragma once
// The collectives nccl-tests measures, by their binary names, and the bus
// bandwidth factor nccl-tests applies to turn algorithm bandwidth into bus
// bandwidth (doc/PERFORMANCE.md of nccl-tests): what makes runs on different
// rank counts comparable with each other and with the links' line rate.
#include <QString>
#include <optional>

namespace rackscope {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv };

std::optional<Collective>
collectiveFromName(const QString& name); // "all_reduce", "all_reduce_perf", "allreduce"
QString collectiveName(Collective c);    // "all_reduce"
QString collectiveBinary(Collective c);  // "all_reduce_perf"
// busbw = algbw x factor, for n ranks.
double busBandwidthFactor(Collective c, int ranks);

} // namespace rackscope
