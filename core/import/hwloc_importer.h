#pragma once
// Reads hwloc topologies through libhwloc itself: an `lstopo --of xml` file
// (hwloc 2.x), with every I/O object kept. The live machine is the agent's.
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

ImportResult importHwlocXml(const QByteArray& xml, const QString& location);
// The hwloc library version rackscope runs with, e.g. "2.9.0".
QString hwlocRuntimeVersion();

} // namespace rackscope
