#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli check [FILE...] [--local] [--hosts LIST] [--expect FILE] [--baseline FILE]
//   [--save-baseline FILE] [--sample S] [--report FILE.html|FILE.pdf] [--junit FILE] [--json]
int runCheck(const QStringList& args);
} // namespace rackscope::cli
