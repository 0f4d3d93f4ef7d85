#pragma once
// rackscope-hwloc-reader: the helper process that reads hwloc XML for rackscope (helper_pool.h), so
// that a file that crashes or hangs libhwloc is an error message, not the end of the program.
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

// RACKSCOPE_HWLOC_READER, else beside the running program or in its ../lib/rackscope, else the
// build tree's; empty when there is none.
QString findHwlocReader();

// Reads the XML in a helper (one of a pool kept for the life of the program). Where no helper can
// be found it reads it here, and says so in the log.
ImportResult readInHwlocReader(const QByteArray& xml, const QString& location);

// The helper's loop: a request frame on `in` (the location and the XML), a reply frame on `out`
// (the result), until `in` ends. Returns the process's exit status.
int serveHwlocReader(int in, int out);

} // namespace rackscope
