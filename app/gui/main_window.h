#pragma once
#include "connect_dialog.h"
#include "nccl_run_dialog.h"
#include "report/inspect_report.h"
#include "transport/fleet.h"

#include <QMainWindow>
#include <memory>

class QPlainTextEdit;
class QDockWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace rackscope::gui {

class RunsPanel;

// The main window. For now: the inspect report of the local machine, an
// opened topology file, or servers reached over SSH, with a dock listing
// each server's connection progress, and the load runs' dock.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void showLocalMachine();
    bool openTopology(const QString& path); // false, with a dialog, when it cannot be read
    // Reaches the servers and shows each as it arrives; false when the request cannot start (with a dialog).
    bool connectToHosts(const ConnectRequest& request);
    void refreshServers(); // asks the same servers again, over the connections already open
    const std::vector<InspectedHost>& hosts() const { return hosts_; }
    QTreeWidget* serverList() const { return servers_; }
    Fleet* fleet() const { return fleet_.get(); }
    RunsPanel* runsPanel() const { return runs_; }
    // Starts what the run dialog chose, reaching hosts the way the last connection did.
    void startRun(const RunChoice& choice);

signals:
    void serversDone();

private:
    void chooseFile();
    void chooseServers();
    void showHosts();
    QTreeWidgetItem* serverItem(const QString& host);
    void onHostFinished(const HostResult& r);
    void chooseRun();
    void markFlagged(const QStringList& hosts);
    FleetOptions fleetOptions(QString* error);

    QPlainTextEdit* report_;
    QTreeWidget* servers_;
    std::vector<InspectedHost> hosts_;
    std::unique_ptr<Fleet> fleet_;
    QStringList serverNames_;
    ConnectRequest connection_;
    RunsPanel* runs_;
    QDockWidget* runsDock_;
};

} // namespace rackscope::gui
