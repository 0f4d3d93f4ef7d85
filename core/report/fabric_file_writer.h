#pragma once
// A fabric as rackscope's own fabric file ("rackscope-fabric 1"), which
// import/fabric_file.h reads back: switches with their tiers, hosts, links.
#include "model/fabric.h"

namespace rackscope {

QString writeFabricFile(const Fabric& fabric);

} // namespace rackscope
