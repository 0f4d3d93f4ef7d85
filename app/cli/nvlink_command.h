#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli nvlink FILE... [--host NAME=FILE] [--racks FILE] [--json]
int runNvlink(const QStringList& args);
} // namespace rackscope::cli
