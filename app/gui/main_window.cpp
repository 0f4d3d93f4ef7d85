#include "main_window.h"

#include "import/agent_snapshot_importer.h"
#include "import/topology_loader.h"
#include "rackscope_version.h"
#include "transport/local_agent.h"

#include <QApplication>
#include <QFileDialog>
#include <QFontDatabase>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>

namespace rackscope::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), report_(new QPlainTextEdit(this)) {
    setWindowTitle(tr("rackscope %1").arg(QStringLiteral(RACKSCOPE_VERSION)));
    report_->setReadOnly(true);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    setCentralWidget(report_);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open topology…"), QKeySequence::Open, this, &MainWindow::chooseFile);
    file->addAction(tr("Show this &machine"), this, &MainWindow::showLocalMachine);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    resize(1100, 750);
}

void MainWindow::showLocalMachine() {
    // The same path as `rackscope-cli inspect --local`: this machine's own agent.
    const AgentCollect c = collectWithLocalAgent(findLocalAgent());
    ImportResult r = c.snapshot ? importAgentSnapshot(*c.snapshot, tr("rackscope-agent on this machine"))
                                : ImportResult::fail(c.error);
    if (!r.host) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not read this machine: %1").arg(r.error));
        return;
    }
    HostAnalysis a = analyzeHost(*r.host);
    hosts_ = {{std::move(*r.host), std::move(a)}};
    showHosts();
}

bool MainWindow::openTopology(const QString& path) {
    ImportResult r = loadTopologyFile(path);
    if (!r.host) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not read %1:\n%2").arg(path, r.error));
        return false;
    }
    HostAnalysis a = analyzeHost(*r.host);
    hosts_ = {{std::move(*r.host), std::move(a)}};
    showHosts();
    return true;
}

void MainWindow::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open topology"), {},
                                                      tr("Topologies (*.xml *.txt);;All files (*)"));
    if (!path.isEmpty()) openTopology(path);
}

void MainWindow::showHosts() {
    report_->setPlainText(inspectToText(hosts_));
    if (!hosts_.empty()) statusBar()->showMessage(hosts_.front().host.source.location);
}

} // namespace rackscope::gui
