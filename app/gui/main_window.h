#pragma once
#include "report/inspect_report.h"

#include <QMainWindow>

class QPlainTextEdit;

namespace rackscope::gui {

// The main window. For now: one host's inspect report, from the local
// machine or an opened topology file.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void showLocalMachine();
    bool openTopology(const QString& path); // false, with a dialog, when it cannot be read
    const std::vector<InspectedHost>& hosts() const { return hosts_; }

private:
    void chooseFile();
    void showHosts();

    QPlainTextEdit* report_;
    std::vector<InspectedHost> hosts_;
};

} // namespace rackscope::gui
