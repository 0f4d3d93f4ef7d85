#pragma once
// Opens a fabric source of any supported kind, chosen by its content:
// ibnetdiscover output or a Slurm topology.conf.
#include "model/fabric.h"

namespace rackscope {

constexpr qint64 kMaxFabricBytes = 64 * 1024 * 1024;

struct FabricLoad {
    std::optional<Fabric> fabric;
    QString error;
};
FabricLoad loadFabricFile(const QString& path);

} // namespace rackscope
