#pragma once
// A fabric as a Slurm topology.conf (SwitchName=... Switches=... Nodes=...,
// BlockName=... for topology/block), which import/slurm_topology_conf.h reads back.
#include "model/fabric.h"

namespace rackscope {

QString writeSlurmTopology(const Fabric& fabric);
// The same as Slurm 25.05's topology.yaml: a tree topology from the switches and a block topology (the
// cluster's default) from the blocks, each where the fabric has them.
QString writeSlurmTopologyYaml(const Fabric& fabric);

} // namespace rackscope
