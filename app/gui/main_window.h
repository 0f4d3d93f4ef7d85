#pragma once
#include "connect_dialog.h"
#include "diagram/diagram.h"
#include "diagram/raw_source.h"
#include "nccl_run_dialog.h"
#include "runs/load_results.h"
#include "runs/load_runner.h"
#include "report/inspect_report.h"
#include "transport/fleet.h"

#include <QMainWindow>
#include <memory>

class QPlainTextEdit;
class QPushButton;
class QDockWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace rackscope::gui {

class RunsPanel;
class LoadChart;
class TopologyCanvas;

// The main window: the topology canvas in the centre; docks for the servers
// (with their connection progress), the inspector (every fact of the
// selected item, with its source), the findings (a click selects and
// centres the item), the console (what was done on which host, when), the
// inspect report and the load runs.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void showLocalMachine();
    bool openTopology(const QString& path); // false, with a dialog, when it cannot be read
    // Topologies and fabric sources, added to what is shown; false when none could be read.
    bool openFiles(const QStringList& paths);
    bool exportDiagram(const QString& path); // in the format its name says; false with a dialog
    void openDemo(); // the demo rack that ships with rackscope
    // View → Language: remembers the choice and, unless a run is going, replaces this window with one built in
    // that language, showing the same sources, selection and docks; the new window, or null when this one stays.
    MainWindow* switchLanguage(const QString& choice);
    // Every source shown, byte for byte, with the flagged hosts and findings; false with a dialog.
    bool saveSession(const QString& path);
    // Reaches the servers and shows each as it arrives; false when the request cannot start (with a dialog).
    bool connectToHosts(const ConnectRequest& request);
    void refreshServers(); // asks the same servers again, over the connections already open
    const std::vector<InspectedHost>& hosts() const { return hosts_; }
    QTreeWidget* serverList() const { return servers_; }
    Fleet* fleet() const { return fleet_.get(); }
    RunsPanel* runsPanel() const { return runs_; }
    TopologyCanvas* canvas() const { return canvas_; }
    QTreeWidget* findingList() const { return findings_; }
    QTreeWidget* inspector() const { return inspector_; }
    QPlainTextEdit* console() const { return console_; }
    DiagramOptions& diagramOptions() { return diagramOptions_; }
    void redraw();
    bool selectItem(const QString& id); // selects and centres it; false when the diagram has no such item
    // Hosts a straggler hunt found slow: red in the servers list and on the canvas.
    void markFlagged(const QStringList& hosts);
    // What NCCL did in a load run (a rank without GPUDirect RDMA, sockets, a farther NIC), drawn on its GPU and NIC.
    void showRunFindings(const std::vector<Finding>& findings);
    // Starts what the run dialog chose, reaching hosts the way the last connection did.
    void startRun(const RunChoice& choice);
    // An inference load run: the Inference load dock charts it as it goes; saved under the load results folder.
    void startLoadRun(LoadRequest request);
    LoadChart* loadChart() const { return loadChart_; }
    LoadRunner* loadRunner() const { return loadRunner_; }
    // A saved inference load run (its folder, or a sweep's): drawn again in the dock and added to the
    // comparison; a folder that cannot be read is said in a dialog and changes nothing.
    bool openLoadResults(const QString& directory);
    void clearLoadComparison();
    // Every request of the runs opened or compared, as CSV.
    bool exportLoadCsv(const QString& path);

signals:
    void serversDone();

private:
    void chooseFile();
    void chooseServers();
    void showHosts();
    QTreeWidgetItem* serverItem(const QString& host);
    void onHostFinished(const HostResult& r);
    void chooseRun();
    void chooseLoadRun();
    FleetOptions fleetOptions(QString* error);
    void buildMenus();
    void buildDocks();
    void log(const QString& host, const QString& what);
    void showInspector(int item);
    void fillFindings(const FabricAnalysis* fabric);
    void toggleExpanded(const QString& host);
    void chooseExport();
    void groupServers(const FabricAnalysis& fabric);
    bool load(const QStringList& paths, bool replace);

    QPlainTextEdit* report_;
    TopologyCanvas* canvas_;
    QTreeWidget* servers_;
    QTreeWidget* inspector_;
    QTreeWidget* findings_;
    QPlainTextEdit* console_;
    std::optional<Fabric> fabric_;
    std::vector<RawSource> raw_; // the bytes of every source shown, for sessions
    QStringList flagged_;
    std::vector<Finding> runFindings_;
    DiagramOptions diagramOptions_;
    QString source_; // what the title block names
    QString connecting_; // the servers being connected to: they replace the view when the first answers, not before
    std::vector<InspectedHost> hosts_;
    std::unique_ptr<Fleet> fleet_;
    QStringList serverNames_;
    ConnectRequest connection_;
    RunsPanel* runs_;
    QDockWidget* runsDock_;
    LoadRunner* loadRunner_;
    LoadChart* loadChart_;
    QDockWidget* loadDock_ = nullptr;
    std::vector<LoadResults> comparedLoadRuns_;
    QPushButton* demoOffer_;
};

} // namespace rackscope::gui
