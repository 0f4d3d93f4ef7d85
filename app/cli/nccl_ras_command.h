#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli nccl-ras --host H [--port 28028] [--verbose] [--json] [--watch S] [FILE...] [--hosts LIST]
int runNcclRas(const QStringList& args);
} // namespace rackscope::cli
