#pragma once
#include "host_analysis.h"

namespace rackscope {

// Finding codes are stable: scripts and the GUI's filters key on them.
namespace codes {
inline constexpr char kNearestNicCrossSocket[] = "gpu-nearest-nic-cross-socket";
inline constexpr char kNoGpuDirectNic[] = "gpu-no-gpudirect-nic";
inline constexpr char kGpuDirectUnknown[] = "gpu-gpudirect-unknown";
inline constexpr char kNicThroughPeer[] = "gpu-nic-through-peer";
inline constexpr char kNoRdmaNic[] = "host-no-rdma-nic";
inline constexpr char kNicSharedUnevenly[] = "nic-shared-unevenly";
inline constexpr char kPcieLinkDegraded[] = "pcie-link-degraded";
inline constexpr char kPcieLinkBelowPeers[] = "pcie-link-below-peers";
inline constexpr char kAcsEnabled[] = "pcie-acs-enabled";
inline constexpr char kSourceNote[] = "source-note";
// What a server lacks to be of use, and what its source cannot say.
inline constexpr char kGpuDriverMissing[] = "gpu-driver-missing";
inline constexpr char kRdmaDriverMissing[] = "rdma-driver-missing";
inline constexpr char kGpuDirectPrerequisiteMissing[] = "gpudirect-prerequisite-missing";
inline constexpr char kHostNoGpu[] = "host-no-gpu";
inline constexpr char kSourceLacksNvlink[] = "source-lacks-nvlink";
// The fabric above the servers.
inline constexpr char kFabricSourceLine[] = "fabric-source-line";
inline constexpr char kFabricSourceConflict[] = "fabric-source-conflict";
inline constexpr char kFabricTierDiffers[] = "fabric-tier-differs";
inline constexpr char kFabricRailBreak[] = "fabric-rail-break";
inline constexpr char kFabricLinkBelowExpected[] = "fabric-link-below-expected";
inline constexpr char kFabricLinkBelowPeers[] = "fabric-link-below-peers";
inline constexpr char kFabricLinkMissing[] = "fabric-link-missing";
inline constexpr char kFabricPortDown[] = "fabric-port-down";
inline constexpr char kFabricMtuMismatch[] = "fabric-mtu-mismatch";
inline constexpr char kFabricHostLeafCount[] = "fabric-host-leaf-count";
inline constexpr char kFabricOversubscribed[] = "fabric-leaf-oversubscribed";
} // namespace codes

std::vector<Finding> findingsFor(const HostTopology& host, const HostAnalysis& analysis);

} // namespace rackscope
