#pragma once
// A fabric as a Slurm topology.conf (SwitchName=... Switches=... Nodes=...,
// BlockName=... for topology/block), which import/slurm_topology_conf.h reads back.
#include "model/fabric.h"

namespace rackscope {

QString writeSlurmTopology(const Fabric& fabric);

} // namespace rackscope
