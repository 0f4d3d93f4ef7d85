#pragma once
// Opens a fabric source of any supported kind, chosen by its content:
// ibnetdiscover output, a Slurm topology.conf or topology.yaml, a rackscope fabric file or a
// rackscope-agent snapshot (its LLDP neighbours and RDMA devices).
#include "model/fabric.h"

namespace rackscope {

constexpr qint64 kMaxFabricBytes = 64 * 1024 * 1024;

struct FabricLoad {
    std::optional<Fabric> fabric;
    QString error;
};
FabricLoad loadFabricFile(const QString& path);
FabricLoad importFabric(const QByteArray& content, const QString& location);

} // namespace rackscope
