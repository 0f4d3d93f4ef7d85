#pragma once
// Slurm's topology.conf, tree form (SwitchName= Switches= Nodes=) and block
// form (BlockName= Nodes=, BlockSizes=), read into the fabric model and
// written back out, so a discovered fabric becomes a file for the scheduler.
#include "slurm_fabric_builder.h"

#include <QByteArray>

namespace rackscope {

bool looksLikeSlurmTopology(const QByteArray& text);
SlurmTopologyImport importSlurmTopology(const QByteArray& text, const QString& location);
// Tree form for switches (parents first, in the fabric's order), block form for blocks.
// A node's description is kept as the "# name=description" comment Topograph writes.

} // namespace rackscope
