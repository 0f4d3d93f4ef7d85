#pragma once
// `rackscope-cli fabric` output: switches per tier, links, hosts and the
// sources' diagnostics, as JSON or text.
#include "model/fabric.h"

#include <QJsonObject>

namespace rackscope {

QJsonObject fabricToJson(const Fabric& fabric);
QString fabricToText(const Fabric& fabric);

} // namespace rackscope
