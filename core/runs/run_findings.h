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
    QString label;                 // "all_reduce on node01,node02"
    std::optional<int> exitStatus; // empty: it never ended (a record cut short)
    QString error;                 // why it failed, in the run's own words
    bool cancelled = false;        // stopped by the person who started it: no verdict on its end
};

std::vector<Finding> runFindings(const RunEnding& ending, const NcclTestsRun& run,
                                 const std::vector<CounterChange>& counterChanges,
                                 const std::map<QString, HostTopology>& topologies);

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
