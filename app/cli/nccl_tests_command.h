#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli parse-nccl-tests FILE [--json]
int runParseNcclTests(const QStringList& args);
} // namespace rackscope::cli
