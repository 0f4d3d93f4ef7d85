#pragma once
// What launchers put before each line of a program's output, so that output
// read from a job log or pasted into a ticket reads like the program's own:
// mpirun --tag-output ("[1,0]<stdout>:"), Ray and SkyPilot ("(head, rank=0,
// pid=3808) "), srun -l ("0: ") and pdsh ("node17: "), in any combination.
#include <QString>

namespace rackscope {

// The line without its launcher prefixes; `source` (optional) gets who printed it, as the prefixes name
// it ("rank 0", "node17", "head, rank=0, pid=3808"), the innermost first; empty when there was none.
QString withoutLauncherPrefix(const QString& line, QString* source = nullptr);

} // namespace rackscope
