#include "host_topology.h"

namespace rackscope {

QString sourceFormatId(SourceFormat format) {
    switch (format) {
    case SourceFormat::HwlocXml:
        return QStringLiteral("hwloc-xml");
    case SourceFormat::NcclTopoXml:
        return QStringLiteral("nccl-topo-xml");
    case SourceFormat::NvidiaSmiTopo:
        return QStringLiteral("nvidia-smi-topo-m");
    case SourceFormat::AgentSnapshot:
        return QStringLiteral("agent-snapshot");
    }
    return {};
}

const Device* HostTopology::findDevice(const QString& id) const {
    for (const auto* list : {&gpus, &nics, &others})
        for (const Device& d : *list)
            if (d.id == id)
                return &d;
    return nullptr;
}

} // namespace rackscope
