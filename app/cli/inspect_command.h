#pragma once
#include <QStringList>

namespace rackscope::cli {

// `rackscope-cli inspect FILE... [--local] [--json]`. Returns the exit
// status: 0 all read, 2 when any input could not be read (the others are
// still reported).
int runInspect(const QStringList& args);

} // namespace rackscope::cli
