#pragma once
// Reads what a diagram is drawn from: each file is a server topology (hwloc
// XML, NCCL XML, nvidia-smi topo -m, an agent snapshot), a fabric source
// (ibnetdiscover, topology.conf, a fabric file; an agent snapshot is both)
// or a saved run (an .rsrun record, or an inference load run's results folder), chosen by its content; a
// cluster file or a saved session stands for the sources it names or holds. Fabric sources are merged into
// one fabric. The bytes of every source are kept, so a session can be saved with them.
#include "diagram/diagram.h"
#include "import/import_result.h"
#include "raw_source.h"
#include "runs/run_record.h"
#include "runs/saved_load_run.h"

namespace rackscope {

struct LoadedSources {
    DiagramInput
        input; // the hosts, the fabric merged from every fabric source, a session's flagged hosts and title
    std::vector<FailedInput> failed;
    std::vector<RawSource> raw;         // every source that was read; a host's under its final name
    std::vector<RunRecord> runs;        // saved nccl-tests runs (rackscope's .rsrun records)
    std::vector<SavedLoadRun> loadRuns; // inference load runs' results folders, judged
};

LoadedSources loadSources(const QStringList& paths);
// The same from bytes already in hand (a session, an agent's answer).
LoadedSources importSources(std::vector<RawSource> sources);

} // namespace rackscope
