#pragma once
// Reads what a diagram is drawn from: each file is a server topology (hwloc
// XML, NCCL XML, nvidia-smi topo -m, an agent snapshot) or a fabric source
// (ibnetdiscover, topology.conf, a fabric file; an agent snapshot is both),
// chosen by its content; a cluster file or a saved session stands for the
// sources it names or holds. Fabric sources are merged into one fabric. The
// bytes of every source are kept, so a session can be saved with them.
#include "diagram.h"
#include "raw_source.h"

namespace rackscope {

struct DiagramSources {
    DiagramInput input;
    std::vector<FailedInput> failed;
    std::vector<RawSource> raw; // every source that was read; a host's under its final name
};

DiagramSources loadDiagramSources(const QStringList& paths);
// The same from bytes already in hand (a session, an agent's answer).
DiagramSources importSources(std::vector<RawSource> sources);
// Adds a fabric source to what is there already, merged.
void addFabric(DiagramInput& input, Fabric fabric);

} // namespace rackscope
