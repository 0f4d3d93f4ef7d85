#pragma once
// Reads what a diagram is drawn from: each file is a server topology (hwloc
// XML, NCCL XML, nvidia-smi topo -m, an agent snapshot) or a fabric source
// (ibnetdiscover, topology.conf, a fabric file; an agent snapshot is both),
// chosen by its content. Fabric sources are merged into one fabric.
#include "diagram.h"

namespace rackscope {

struct DiagramSources {
    DiagramInput input;
    std::vector<FailedInput> failed;
};

DiagramSources loadDiagramSources(const QStringList& paths);
// Adds a fabric source to what is there already, merged.
void addFabric(DiagramInput& input, Fabric fabric);

} // namespace rackscope
