#pragma once
// Reads hwloc topologies through libhwloc itself: an `lstopo --of xml` file
// (hwloc 2.x), with every I/O object kept. The live machine is the agent's.
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

// Reads the XML in a helper process (hwloc_reader.h), so that a file that crashes libhwloc is an error.
ImportResult importHwlocXml(const QByteArray& xml, const QString& location);
// Reads it in this process: what the helper itself runs.
ImportResult readHwlocXmlHere(const QByteArray& xml, const QString& location);
// The hwloc API version of the library rackscope runs with (hwloc_get_api_version,
// e.g. "2.8.0" for the 2.9 releases: the API version lags the release number).
QString hwlocRuntimeVersion();

} // namespace rackscope
