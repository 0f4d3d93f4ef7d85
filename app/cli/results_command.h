#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli results [list [DIR] | show FILE [--json|--csv] | compare A B [--json]]
int runResults(const QStringList& args);
} // namespace rackscope::cli
