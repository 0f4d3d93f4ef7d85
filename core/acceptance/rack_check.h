#pragma once
// Certifies a rack server by server: every check of the catalogue (check_result.h) on every server the
// workspace shows or could not reach, from its facts (rack_facts.h), its topology's findings, the fabric's,
// the rack's majority (drift), an expectation and a baseline. The CLI's `check` and the window's Rack check
// view show the same result.
#include "baseline.h"
#include "check_result.h"
#include "expectation.h"
#include "nccl_acceptance.h"
#include "rdma_pairs.h"
#include "runs/counter_watch.h"
#include "workspace/workspace.h"

#include <QDateTime>

namespace rackscope {

struct CheckOptions {
    std::optional<Expectation> expect;
    std::optional<Baseline> baseline;
    // Error counters sampled over a window (`--sample S`): their changes, and the servers that could not be
    // sampled with why. Without a window the error-counters check is not run.
    std::optional<double> sampleSeconds;
    std::vector<CounterChange> counterChanges;
    std::map<QString, QString> unsampled;
    // The active checks' measurements (`--active`); absent: not asked, and the check is not listed.
    std::optional<std::vector<RdmaPairResult>> rdmaPairs;
    std::optional<NcclAcceptance> nccl;
    double tolerance = 0.10; // a measured figure this far below its baseline's fails
};

struct ServerCheck {
    QString host;
    QString source; // what the facts were read from
    Verdict verdict = Verdict::Pass;
    std::vector<CheckResult> checks; // in the catalogue's order
    const CheckResult* check(const QString& id) const;
};

// A fact the rack's servers do not share: its values, the servers of each (the most common first), and the
// sentence that says it ("3 of 32 servers run NVIDIA driver 550.90.07; the other 29 run ... 570.86.15").
struct Drift {
    QString key, check;
    std::vector<std::pair<QString, QStringList>> groups; // value -> servers
    bool majority = false;                               // the first group holds more than half
    QStringList sentences;
};

struct RackCheck {
    QDateTime checkedAt;
    std::vector<ServerCheck> servers;
    std::vector<Drift> drift;
    std::vector<HostFacts> facts;                          // what a baseline saves
    std::map<QString, std::map<QString, double>> measured; // and the active checks' figures, by host
    QStringList notes;             // about the rack as a whole: the baseline's servers not checked
    QString expectation, baseline; // where they came from, when given
    Verdict verdict() const;
    // The exit status a command gives for it: 0 all pass, 1 a warn or an unknown, 2 a fail.
    int exitStatus() const;
};

RackCheck checkRack(const Workspace& ws, const CheckOptions& options);

} // namespace rackscope
