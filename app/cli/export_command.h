#pragma once
#include <QStringList>

namespace rackscope::cli {

// `rackscope-cli export INPUT... -o FILE [--format svg|png|pdf|dot]`: the
// topology diagram the GUI draws, with a title block and the legend.
// 0 written; 2 when an input could not be read or the file not written.
int runExport(const QStringList& args);

} // namespace rackscope::cli
