#pragma once
// The workspace: every source rackscope is showing (topology files, cluster
// files, sessions, agents' answers over SSH or from this machine, fabric
// sources, saved runs), merged and analysed in one place, so the window and the CLI show
// the same hosts, fabric and findings for the same inputs. It is a plain
// value: the CLI uses it directly, the window through LiveWorkspace, which
// keeps it on a worker thread.
#include "analysis/fabric_analysis.h"
#include "report/inspect_report.h"
#include "runs/run_findings.h"
#include "session_file.h"
#include "sources.h"

#include <QJsonObject>
#include <map>

namespace rackscope {

// Where this machine's own agent answered from, as its sources name it.
inline const QString kLocalAgentLocation = QStringLiteral("rackscope-agent on this machine");
// The server an agent's answer came from over SSH ("ssh://node3" -> "node3"), as the console reached it;
// empty for any other source.
inline QString sshHostOf(const QString& location) {
    return location.startsWith(QLatin1String("ssh://")) ? location.mid(6) : QString();
}

// A finding with the server it was found on (empty: the fabric's).
struct WorkspaceFinding {
    QString host;
    Finding finding;
};

class Workspace {
public:
    enum class Mode { Replace, Add };

    // Opens topology files, fabric sources, cluster files, sessions and saved runs; what could not be read is
    // returned, and what was read stays.
    std::vector<FailedInput> open(const QStringList& paths, Mode mode);
    // What loadSources or importSources read (on any thread). A server already shown under the same name or
    // location is replaced, and so is the fabric that the source under `key` gave before.
    void take(LoadedSources loaded, Mode mode, const QString& key);
    // The same for files the person opened: each opening is a source of its own.
    void takeOpened(LoadedSources loaded, Mode mode) {
        take(std::move(loaded), mode, QStringLiteral("open#%1").arg(++opened_));
    }
    // One agent's answer (a collect snapshot) from `location` ("ssh://host", or this machine): its topology
    // and what its NICs see of the fabric (LLDP). Returns why it could not be taken, or nothing.
    QString takeAgentAnswer(const QString& location, const QJsonObject& snapshot, Mode mode);
    // A server that could not be inspected. What an earlier answer of it showed stays; it is listed
    // among the servers (servers()) until it answers again.
    void takeUnreachable(UnreachableServer server);
    // Hosts over SSH in the order the person gave them, whatever order they answer in.
    void setServerOrder(const QStringList& hosts) {
        order_ = hosts;
        sortHosts();
    }
    void setFlagged(const QStringList& hosts) { flagged_ = hosts; }
    // The rack check's worst verdict per server, drawn on the servers (the check itself lives above:
    // acceptance/).
    void setCheckMarks(std::vector<CheckMark> marks) { checkMarks_ = std::move(marks); }
    // A watched job's ranks that NCCL's RAS names (job/ras_verdict.h), drawn on their servers and GPUs.
    void setJobMarks(std::vector<JobMark> marks) { jobMarks_ = std::move(marks); }
    void addRunFindings(const std::vector<Finding>& findings);
    void setTitle(const QString& title) { title_ = title; }
    void clear();     // everything but the server order
    void reanalyse(); // the analysis again: its evidence phrases in the language now installed

    bool empty() const {
        return hosts_.empty() && !fabric_ && nvlink_.empty() && runs_.empty() && loadRuns_.empty() &&
               ncclLogs_.empty();
    }
    const std::vector<InspectedHost>& hosts() const { return hosts_; }
    const std::vector<UnreachableServer>& unreachable() const { return unreachable_; }
    // The servers shown and those that could not be inspected, in the servers' order.
    std::vector<ServerEntry> servers() const;
    const InspectedHost* host(const QString& name) const;
    const std::optional<Fabric>& fabric() const { return fabric_; }
    const std::optional<FabricAnalysis>& fabricAnalysis() const { return fabricAnalysis_; }
    // Multi-node NVLink as every source stated it, and its verdicts.
    const NvlinkFabric& nvlink() const { return nvlink_; }
    const QStringList& flagged() const { return flagged_; }
    const std::vector<Finding>& runFindings() const { return runFindings_; }
    // Saved runs opened, in the order opened, with their findings (judged beside the servers shown).
    const std::vector<JudgedRun>& runs() const { return runs_; }
    // Inference load runs' results folders opened, in the order opened, with their findings.
    const std::vector<SavedLoadRun>& loadRuns() const { return loadRuns_; }
    // Jobs' NCCL_DEBUG=INFO logs opened, with what they mean on the servers shown.
    const std::vector<NcclLog>& ncclLogs() const { return ncclLogs_; }
    const std::vector<RawSource>& sources() const { return raw_; }
    // The agent's collect answer a host was read from; empty for a topology file.
    QJsonObject agentSnapshot(const InspectedHost& host) const;
    const QString& title() const { return title_; }
    // Every finding: each server's, the fabric's, the saved runs' (NCCL and inference) and the load runs'.
    std::vector<WorkspaceFinding> findings() const;
    DiagramInput diagramInput() const;
    // Every source byte for byte, with the flagged hosts and the findings; `saved` and `version` are the
    // writer's.
    Session session() const;

private:
    void sortHosts();
    void mergeFabric();
    void mergeNvlink();
    void judgeRuns();

    qsizetype rank(const QString& location) const; // its place in the server order (last when not in it)

    std::vector<InspectedHost> hosts_;
    std::vector<UnreachableServer> unreachable_;
    std::vector<RawSource> raw_;
    std::map<QString, Fabric> fabricParts_; // by the key of the source that gave it
    std::optional<Fabric> fabric_;          // the parts merged
    std::optional<FabricAnalysis> fabricAnalysis_;
    std::map<QString, NvlinkFabric> nvlinkParts_; // by the key of the source that gave it
    NvlinkFabric nvlink_;                         // the parts together
    std::vector<Finding> nvlinkFindings_;
    QStringList flagged_;
    std::vector<CheckMark> checkMarks_;
    std::vector<JobMark> jobMarks_;
    std::vector<Finding> runFindings_;
    std::vector<JudgedRun> runs_;
    std::vector<SavedLoadRun> loadRuns_;
    std::vector<NcclLog> ncclLogs_;
    QStringList order_;
    QString title_;
    int opened_ = 0;
};

} // namespace rackscope
