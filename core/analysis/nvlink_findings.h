#pragma once
// Verdicts on a rack's multi-node NVLink fabric, each with the evidence that makes it: GPUs the fabric
// has not registered or calls unhealthy, servers or racks split across NVLink domains, IMEX peers that
// are not connected, NVLinks down or counting errors.
#include "analysis/finding.h"
#include "model/fabric.h"
#include "model/nvlink_fabric.h"

namespace rackscope {

namespace codes {
inline constexpr char kNvlinkFabricNotReady[] = "nvlink-fabric-not-ready";
inline constexpr char kNvlinkFabricUnhealthy[] = "nvlink-fabric-unhealthy";
inline constexpr char kNvlinkDomainSplit[] = "nvlink-domain-split";
inline constexpr char kImexPeerDown[] = "imex-peer-down";
inline constexpr char kNvlinkLinkInactive[] = "nvlink-link-inactive";
inline constexpr char kNvlinkErrorsRising[] = "nvlink-errors-rising";
} // namespace codes

// `racks`: the servers a design puts in one NVLink rack (a topology file's blocks); each block whose
// servers registered with different domains is split.
std::vector<Finding> nvlinkFindings(const NvlinkFabric& fabric, const std::vector<FabricBlock>& racks = {});

// NVLink error counters that grew from `before` to `after` (two readings of the same links).
std::vector<Finding> nvlinkErrorFindings(const NvlinkFabric& before, const NvlinkFabric& after);

} // namespace rackscope
