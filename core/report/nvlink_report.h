#pragma once
// The NVLink fabric as text and as JSON: each domain with its servers and GPUs, the GPUs in none, each
// GPU's links, each IMEX daemon's view, and the findings.
#include "analysis/finding.h"
#include "model/nvlink_fabric.h"

#include <QJsonObject>

namespace rackscope {

QString nvlinkToText(const NvlinkFabric& fabric, const std::vector<Finding>& findings);
// {"type": "rackscope-nvlink", "format": 1, "domains", "gpus", "links", "imex", "sources", "findings"}
QJsonObject nvlinkToJson(const NvlinkFabric& fabric, const std::vector<Finding>& findings);

} // namespace rackscope
