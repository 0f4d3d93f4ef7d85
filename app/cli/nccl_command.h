#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli nccl --hosts LIST --op all_reduce -b 8 -e 8G -f 2 -g 1 [--launcher mpirun|srun] [--env K=V]
// [--json]
int runNccl(const QStringList& args);
} // namespace rackscope::cli
