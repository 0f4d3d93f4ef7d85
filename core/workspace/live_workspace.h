#pragma once
// The workspace for a window that never waits. The Workspace lives on a
// worker thread; every import, collection, analysis and layout runs there
// (this machine's agent on a thread of its own), and each change comes back
// as a WorkspaceView, a plain value, through a queued signal. Commands run
// in the order they were given; a replacing command makes the results of
// older collections stale, and those are dropped ("latest job wins").
#include "diagram/diagram.h"
#include "runs/line_rate.h"
#include "workspace.h"

#include <QObject>
#include <QThread>
#include <QThreadPool>
#include <atomic>
#include <memory>

namespace rackscope {

// What the window shows, as one value: made on the worker thread, read on the GUI's.
struct WorkspaceView {
    quint64 generation = 0;
    Workspace workspace;
    std::vector<WorkspaceFinding> findings;
    Diagram diagram;
    QString report;         // the inspect report, as text
    LineRate lineRate;      // what an NCCL run over these servers can reach
    DiagramOptions options; // as the diagram was laid out (many servers start closed)
};
using WorkspaceViewPtr = std::shared_ptr<const WorkspaceView>;

// What one command did with its input: a file opened, an agent's answer taken or refused.
struct TakeReport {
    QString input;                   // the files, the host over SSH, or this machine
    QStringList paths;               // the files
    std::vector<FailedInput> failed; // what could not be read
    QStringList hosts;               // the servers it showed
    QString fabricSource;            // the fabric it added, if any
    bool replaced = false;           // it replaced what was shown
    QStringList runs;                // the saved runs it opened (NCCL records, load runs' folders)
    bool taken() const { return !hosts.isEmpty() || !fabricSource.isEmpty() || !runs.isEmpty(); }
};

class WorkspaceWorker;

class LiveWorkspace : public QObject {
    Q_OBJECT
public:
    explicit LiveWorkspace(QObject* parent = nullptr);
    ~LiveWorkspace() override; // stops this machine's collection and waits for the worker

    // Topology files, fabric sources, cluster files and sessions. Replace keeps what is shown when nothing
    // could be read.
    void open(const QStringList& paths, Workspace::Mode mode);
    // This machine through its own agent, in place of what is shown.
    void collectLocal(const QString& agentPath);
    // An answer from ssh://host while connecting. The first answer of a connection that can be taken replaces
    // what is shown; a failed connection leaves it.
    void takeAgentAnswer(int connection, const QString& host, const QJsonObject& snapshot);
    void setServerOrder(const QStringList& hosts);
    void setFlagged(const QStringList& hosts);
    void setCheckMarks(const std::vector<CheckMark>& marks);
    void setJobMarks(const std::vector<JobMark>& marks);
    void addRunFindings(const std::vector<Finding>& findings);
    void setDiagramOptions(const DiagramOptions& options);
    void reanalyse(); // the findings again, in the language now installed

    WorkspaceViewPtr view() const { return view_; }
    bool busy() const { return pending_ > 0; } // a command has not yet come back

signals:
    void changed(rackscope::WorkspaceViewPtr view);
    void taken(const rackscope::TakeReport& report);
    void idle();

private:
    void post(std::function<void(WorkspaceWorker&)> command);
    void done();

    QThread thread_;
    WorkspaceWorker* worker_;
    QThreadPool collectors_;
    std::atomic<bool> stopping_{false};
    std::atomic<quint64> replaceEpoch_{0}; // bumped by each replacing command; older collections are stale
    WorkspaceViewPtr view_;
    int pending_ = 0;
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::WorkspaceViewPtr)
Q_DECLARE_METATYPE(rackscope::TakeReport)
