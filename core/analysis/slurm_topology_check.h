#pragma once
// A Slurm topology (topology.conf or topology.yaml) held against what was discovered: blocks against the
// NVLink domains the servers registered with, switches against the leaves the fabric puts servers under.
#include "analysis/fabric_analysis.h"
#include "model/nvlink_fabric.h"

namespace rackscope {

namespace codes {
inline constexpr char kSlurmBlockSpansDomains[] = "slurm-block-spans-domains";
inline constexpr char kSlurmServerWrongBlock[] = "slurm-server-wrong-block";
inline constexpr char kSlurmServerNoBlock[] = "slurm-server-in-no-block";
inline constexpr char kSlurmSwitchMembers[] = "slurm-switch-members-differ";
} // namespace codes

// `declared`: the scheduler's file as read; `discovered` (may be null): the fabric's analysis; `nvlink`
// (may be null): the NVLink domains.
std::vector<Finding> checkSlurmTopology(const Fabric& declared, const FabricAnalysis* discovered,
                                        const NvlinkFabric* nvlink);

} // namespace rackscope
