#pragma once
// Runs an importer in a short-lived child process and brings its result
// back over a pipe, so a crash or hang inside a third-party parser
// (libhwloc) becomes an error message instead of the end of rackscope.
#include "import_result.h"

#include <functional>

namespace rackscope {

ImportResult importIsolated(const std::function<ImportResult()>& importer, const QString& what,
                            int timeoutSeconds = 20);

} // namespace rackscope
