#pragma once
// Reads hwloc topologies through libhwloc itself: an `lstopo --of xml` file
// (hwloc 2.x) or the live machine, with every I/O object kept.
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

ImportResult importHwlocXml(const QByteArray& xml, const QString& location);
ImportResult importHwlocLive();
// The hwloc library version rackscope runs with, e.g. "2.9.0".
QString hwlocRuntimeVersion();

} // namespace rackscope
