#pragma once
// The NVLink fabric an agent snapshot states: each GPU's registration (NVML), its NVLinks, and the IMEX
// daemon's view (the text of `nvidia-imex-ctl -N`, read like a pasted one).
#include "model/nvlink_fabric.h"

#include <QJsonObject>

namespace rackscope {

// `host`: the server's name as the person gave it (the snapshot's own when empty).
NvlinkFabric nvlinkFromSnapshot(const QJsonObject& snapshot, const QString& host = {});

} // namespace rackscope
