#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli nccl-log FILE... [--topology HOST=FILE] [--json]
int runNcclLog(const QStringList& args);
} // namespace rackscope::cli
