#pragma once
// What a finished nccl-tests run says, judged the same whether it just ran or was opened from its
// record: the run itself (it failed, its record ends before it did, nccl-tests counted wrong
// results), the NIC counters that rose on each host, and NCCL's transport (its NCCL_DEBUG=INFO
// lines) laid over the hosts' topologies.
#include "counter_watch.h"
#include "model/host_topology.h"
#include "run_record.h"

#include <map>

namespace rackscope {

struct RunEnding {
    std::optional<int> exitStatus; // empty: it never ended (a record cut short)
    QString error;                 // why it failed, in the run's own words
};

// `label` names the run ("all_reduce on node01,node02"); `ending` is empty where there is no verdict on its
// end (a run its starter cancelled, a log that does not say).
std::vector<Finding> runFindings(const QString& label, const std::optional<RunEnding>& ending,
                                 const NcclTestsRun& run, const std::vector<CounterChange>& counterChanges,
                                 const std::map<QString, HostTopology>& topologies);

// nccl-tests' own check of the data: values out of bounds ("Out of bounds values : N FAILED") or a
// non-zero #wrong.
std::vector<Finding> resultFindings(const QString& label, const NcclTestsRun& run);

// The same for a saved record: its counters before and after, per host, give the changes.
std::vector<Finding> recordFindings(const RunRecord& record,
                                    const std::map<QString, HostTopology>& topologies);

// A saved run as a workspace holds it: the record, and what it says beside the servers it ran on.
struct JudgedRun {
    RunRecord record;
    std::vector<Finding> findings;
};

namespace codes {
inline constexpr char kRunFailed[] = "run-failed";
inline constexpr char kRunCutShort[] = "run-cut-short";
inline constexpr char kRunWrongResults[] = "run-wrong-results";
} // namespace codes

} // namespace rackscope
