#pragma once
#include "acceptance/rack_check.h"
#include "connect_dialog.h"
#include "export_dialog.h"
#include "job/ras_watch.h"
#include "job_watch_dialog.h"
#include "nccl_run_dialog.h"
#include "runs/load_runner.h"
#include "runs/recorded_run.h"
#include "transport/fleet.h"
#include "workspace/live_workspace.h"

#include <QMainWindow>
#include <future>
#include <memory>

class QDockWidget;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace rackscope::gui {

class FindingsPanel;
class InferencePanel;
class InspectorPanel;
class JobWatchPanel;
class LoadChart;
class RackCheckPanel;
class RunsPanel;
class ServersPanel;
class TopologyCanvas;

// The main window: the topology canvas in the centre, and docks of one job
// each around it (Servers, Inspector, Report, Findings, Console, Load runs,
// Inference load). It only shows: the workspace (what is open, merged and
// analysed) lives in the core, on a worker thread, and every change comes
// back as a view, so the window never waits.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Each of these starts the work and returns at once; the view follows (busy() until it has).
    void showLocalMachine();
    bool openTopology(const QString& path);   // in place of what is shown; false when there is no path
    bool openFiles(const QStringList& paths); // added to what is shown
    void openDemo();                          // the demo rack that ships with rackscope
    // Reaches the servers and shows each as it arrives; false when the request cannot start (with a dialog).
    bool connectToHosts(const ConnectRequest& request);
    void refreshServers(); // asks the same servers again, over the connections already open
    bool busy() const;     // the workspace has not yet shown what was asked of it

    bool
    exportDiagram(const QString& path); // what is shown, in the format its name says; false with a dialog
    // Every source shown, byte for byte, with the flagged hosts and findings; false with a dialog.
    bool saveSession(const QString& path);
    // View → Language: remembers the choice and retranslates this window in place, keeping everything it
    // shows; false when a run is going (the choice then takes effect at the next start).
    bool switchLanguage(const QString& choice);

    const std::vector<InspectedHost>& hosts() const;
    LiveWorkspace* workspace() const { return live_; }
    QTreeWidget* serverList() const;
    QTreeWidget* findingList() const;
    QTreeWidget* inspector() const;
    Fleet* fleet() const { return fleet_.get(); }
    RunsPanel* runsPanel() const { return runs_; }
    TopologyCanvas* canvas() const { return canvas_; }
    QPlainTextEdit* console() const { return console_; }
    DiagramOptions& diagramOptions() { return diagramOptions_; }
    void redraw();                      // lays the diagram out again with diagramOptions()
    bool selectItem(const QString& id); // selects and centres it; false when the diagram has no such item
    // Hosts a straggler hunt found slow: red in the servers list and on the canvas.
    void markFlagged(const QStringList& hosts);
    // What NCCL did in a load run (a rank without GPUDirect RDMA, sockets, a farther NIC), drawn on its GPU
    // and NIC.
    void keepRun(const RunOutcome& outcome);
    // Starts what the run dialog chose, reaching hosts the way the last connection did.
    void startRun(const RunChoice& choice);
    // An inference load run: the Inference load dock charts it as it goes; saved under the load results
    // folder.
    void startLoadRun(LoadRequest request);
    LoadChart* loadChart() const;
    LoadRunner* loadRunner() const;
    bool openLoadResults(const QString& directory);
    // Run → Check the rack: every server shown, by every check (acceptance/rack_check.h), off the window's
    // thread; the Rack check dock shows it and the servers carry their worst verdict. False when nothing
    // is shown to check.
    bool checkTheRack();
    RackCheckPanel* rackCheckPanel() const { return rackCheck_; }
    // Run → Watch a running NCCL job: asks the node's RAS service every few seconds (through the servers'
    // SSH connection, or directly on this machine), marks the ranks it names on the picture and keeps a
    // timeline in the NCCL job dock. False with a dialog when it cannot start.
    bool watchNcclJob(const JobWatchRequest& request);
    void stopWatchingJob();
    JobWatchPanel* jobWatchPanel() const { return jobWatch_; }
    void clearLoadComparison();
    bool exportLoadCsv(const QString& path);
    bool exportLoadReport(const QString& path); // the last run finished or opened, as load --report writes it

signals:
    void serversDone();      // a connection or refresh has ended and every answer is shown
    void rackChecked();      // the Rack check dock shows a new check
    void jobSnapshotShown(); // the NCCL job dock shows a new answer of the watched job
    void viewShown();        // a new view of the workspace is on screen

protected:
    void changeEvent(QEvent* event) override;

private:
    TitleBlock titleBlock() const; // the title block of an export: the diagram's name, today, the source
    bool writeExport(ExportRequest request);
    void listOpenServers(); // the servers open by scale become a list, to which one can be added
    void openByZoom(const QStringList& hosts);
    void closeOpenedByZoom();
    void buildDocks();
    void buildMenus(); // main_window_menus.cpp
    void retranslate();
    void showView(const WorkspaceViewPtr& view);
    void onTaken(const TakeReport& report);
    void onHostFinished(const HostResult& r);
    void checkServersDone();
    void chooseFile();
    void chooseServers();
    void chooseRun();
    void chooseLoadRun();
    void chooseExport();
    void toggleExpanded(const QString& host);
    void showDock(QDockWidget* dock);
    FleetOptions fleetOptions(QString* error);
    void log(const QString& host, const QString& what);
    void showRackCheck(const RackCheck& rack); // main_window_check.cpp
    void selectCheckSubject(const QString& host, const QString& subject);
    void chooseJobWatch(); // main_window_job.cpp
    void showJobSnapshot(const RasSnapshot& s);

    LiveWorkspace* live_;
    TopologyCanvas* canvas_;
    ServersPanel* servers_;
    InspectorPanel* inspector_;
    FindingsPanel* findings_;
    QPlainTextEdit* report_;
    QPlainTextEdit* console_;
    RunsPanel* runs_;
    InferencePanel* inference_;
    RackCheckPanel* rackCheck_;
    QDockWidget* rackCheckDock_ = nullptr;
    JobWatchPanel* jobWatch_;
    QDockWidget* jobDock_ = nullptr;
    RasWatch ras_;
    QString jobNode_;                 // the node of the watched job asked
    std::unique_ptr<Fleet> jobFleet_; // for a node of the job that is not among the servers shown
    SshConfig jobConfig_;             // the job's nodes' addresses, to place the ranks RAS names
    QPushButton* demoOffer_;
    std::vector<std::pair<QDockWidget*, const char*>> docks_; // with their untranslated titles
    DiagramOptions diagramOptions_;
    QSet<QString> openedByZoom_; // servers the zoom opened, closed again when it zooms out
    QString source_;             // what the title block names
    QString connecting_; // the servers being connected to: they replace the view when the first answers, not
                         // before
    int connection_ = 0; // counts connections, so the first answer of each replaces the view
    bool fleetDone_ = false;
    ConnectRequest request_;
    struct AgentLoad {
        std::optional<AgentBinary> binary;
        QString error;
    };
    std::shared_future<AgentLoad> agent_;
    std::unique_ptr<Fleet> fleet_;
    QStringList serverNames_;
};

} // namespace rackscope::gui
