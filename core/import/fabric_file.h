#pragma once
// rackscope's own fabric file: what cannot be discovered, written once for a
// rack design (switches, tiers, links, expected speeds) and written back out
// from a discovered fabric. Line based, so every error names its line:
//
//   rackscope-fabric 1
//   expect width=4x speed=NDR
//   switch spine-01 tier=spine ports=64
//   switch leaf-01 tier=leaf ports=64 guid=0x2c5eab0300b87b40
//   link leaf-01:33 spine-01:1
//   link node01/mlx5_0:1 leaf-01:1 speed=NDR mtu=4096
//   host node02
//
// An end is SWITCH:PORT, HOST/DEVICE[:PORT] or HOST; a switch must be declared
// before a link names it. The links' width and speed are what the design
// expects: merged with a discovered source they become its expectation.
#include "model/fabric.h"

#include <QByteArray>

namespace rackscope {

struct FabricFileImport {
    std::optional<Fabric> fabric;
    QString error;
};

bool looksLikeFabricFile(const QByteArray& text);
FabricFileImport importFabricFile(const QByteArray& text, const QString& location);

} // namespace rackscope
