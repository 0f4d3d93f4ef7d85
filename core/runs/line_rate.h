#pragma once
// The reference a multi-node run's bus bandwidth is held against: the line
// rate of each host's RDMA NICs together, on the slowest host (NCCL's
// rings run one channel per NIC, so busbw approaches what a host's NICs
// carry; with two hosts its tree can go beyond). Unknown when any host does
// not say its NICs' speeds.
#include "model/host_topology.h"

#include <optional>
#include <vector>

namespace rackscope {

struct LineRate {
    std::optional<double> busbwGBs; // GB/s
    QString explanation;            // how it was reached, or why it is unknown
};

LineRate expectedBusbw(const std::vector<HostTopology>& hosts);

} // namespace rackscope
