#pragma once
#include <QStringList>

namespace rackscope::cli {

// `rackscope-cli fabric SOURCE... [--json] [--export topology.conf|json]`:
// ibnetdiscover output or a Slurm topology.conf. Exit 2 when a source cannot be read.
int runFabric(const QStringList& args);

} // namespace rackscope::cli
