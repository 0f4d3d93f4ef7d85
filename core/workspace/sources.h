#pragma once
// Reads what a diagram is drawn from: each file is a server topology (hwloc
// XML, NCCL XML, nvidia-smi topo -m, an agent snapshot), a fabric source
// (ibnetdiscover, topology.conf, a fabric file; an agent snapshot is both)
// or a saved run (an .rsrun record, or an inference load run's results folder), or a job's NCCL_DEBUG=INFO
// log (what each rank used, laid over the servers shown), chosen by its content; a cluster file or a saved
// session stands for the sources it names or holds. Fabric sources are merged into one fabric. The bytes of
// every source are kept, so a session can be saved with them.
#include "diagram/diagram.h"
#include "import/import_result.h"
#include "raw_source.h"
#include "runs/nccl_transport.h"
#include "runs/run_record.h"
#include "runs/saved_load_run.h"

namespace rackscope {

// A real job's NCCL_DEBUG=INFO log: the NICs and transports its ranks used, and what that means on the
// servers shown (NET/Socket between nodes, no GPUDirect RDMA where the path allows it, another NIC than
// predicted).
struct NcclLog {
    QString location;
    NcclTransport transport;
    std::vector<Finding> findings; // judged again whenever the servers change
};

struct LoadedSources {
    DiagramInput
        input; // the hosts, the fabric merged from every fabric source, a session's flagged hosts and title
    std::vector<FailedInput> failed;
    std::vector<RawSource> raw;         // every source that was read; a host's under its final name
    std::vector<RunRecord> runs;        // saved nccl-tests runs (rackscope's .rsrun records)
    std::vector<SavedLoadRun> loadRuns; // inference load runs' results folders, judged
    std::vector<NcclLog> ncclLogs;
};

LoadedSources loadSources(const QStringList& paths);
// The same from bytes already in hand (a session, an agent's answer).
LoadedSources importSources(std::vector<RawSource> sources);

} // namespace rackscope
