#pragma once
// One nccl-tests launch the way rackscope runs it: NIC counters sampled on
// every host before, the launch streamed (on this machine or a launch host
// over SSH), counters again after, and all of it saved to the results
// folder as it arrives. The GUI, the CLI and the straggler hunt share it.
#include "counter_watch.h"
#include "model/host_topology.h"
#include "nccl_run_spec.h"
#include "nccl_runner.h"
#include "run_record.h"

#include <QObject>
#include <map>
#include <memory>

namespace rackscope {

struct RunRequest {
    NcclRunSpec spec;
    QString label;                       // empty: "<collective> on <hosts>"
    std::optional<SshTarget> launchHost; // empty: launch from this machine
    SshOptions ssh;
    int timeoutMs = 600000;               // without output
    QString resultsDirectory;             // empty: not saved
    std::optional<FleetOptions> counters; // how to reach each host's agent; empty: no counters
    // The hosts' topologies by name, to judge where GPUDirect RDMA was possible for each rank.
    std::map<QString, HostTopology> topologies;
};

struct RunOutcome {
    int exitStatus = -1;
    QString error; // why it could not run or was cut short
    // Why the run gave no result: `error`, else a non-zero exit status; empty when it ran to its end.
    QString failure() const {
        return !error.isEmpty()  ? error
               : exitStatus != 0 ? QStringLiteral("exit status %1").arg(exitStatus)
                                 : QString();
    }
    QString record; // the saved run
    std::vector<CounterChange> counterChanges;
    QStringList counterErrors;     // hosts whose counters could not be read, and why
    std::vector<Finding> findings; // runFindings: the run's end, counters that rose, NCCL's transport
};

class RecordedRun : public QObject {
    Q_OBJECT
public:
    explicit RecordedRun(QObject* parent = nullptr);
    ~RecordedRun() override;
    void start(const RunRequest& request);
    void cancel();
    QString command() const { return command_; }
    const NcclTestsRun& run() const { return runner_.run(); }

signals:
    void stage(const QString& what); // "sampling counters before the run", "running", ...
    void row(const rackscope::NcclTestsRow& row);
    void outputLine(const QString& line);
    void finished(const rackscope::RunOutcome& outcome);

private:
    void launch();
    void done();
    void takeCounters(const QString& when, const std::vector<HostResult>& results);
    RunRequest request_;
    QStringList argv_;
    QString command_, label_;
    NcclRunner runner_;
    RunRecorder recorder_;
    std::unique_ptr<CounterWatch> watch_;
    std::map<QString, QJsonObject> before_;
    RunOutcome outcome_;
    bool cancelled_ = false;
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::RunOutcome)
