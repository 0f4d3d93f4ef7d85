#include "main_window.h"

#include "import/agent_snapshot_importer.h"
#include "import/topology_loader.h"
#include "rackscope_version.h"
#include "fleet_prompts.h"
#include "runs_panel.h"
#include "runs/line_rate.h"
#include "runs/run_record.h"
#include "transport/hostlist.h"
#include "transport/local_agent.h"

#include <QDir>
#include <QDockWidget>
#include <QHeaderView>
#include <QTreeWidget>

#include <QApplication>
#include <QFileDialog>
#include <QFontDatabase>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>

namespace rackscope::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), report_(new QPlainTextEdit(this)), servers_(new QTreeWidget(this)), runs_(new RunsPanel(this)),
      runsDock_(new QDockWidget(tr("Load runs"), this)) {
    setWindowTitle(tr("rackscope %1").arg(QStringLiteral(RACKSCOPE_VERSION)));
    report_->setReadOnly(true);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    setCentralWidget(report_);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open topology…"), QKeySequence::Open, this, &MainWindow::chooseFile);
    file->addAction(tr("Show this &machine"), this, &MainWindow::showLocalMachine);
    file->addAction(tr("&Connect to servers…"), QKeySequence(Qt::CTRL | Qt::Key_K), this, &MainWindow::chooseServers);
    file->addAction(tr("&Refresh servers"), QKeySequence::Refresh, this, &MainWindow::refreshServers);
    file->addAction(tr("S&top connecting"), QKeySequence(Qt::Key_Escape), this, [this] {
        if (fleet_) fleet_->cancel();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&NCCL load run…"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::chooseRun);
    run->addAction(tr("&Stop the run"), this, [this] { runs_->stop(); });
    run->addAction(tr("&Open saved run…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open saved run"), defaultResultsDirectory(), tr("Runs (*.rsrun)"));
        if (!path.isEmpty()) runs_->openRecord(path);
    });
    servers_->setHeaderLabels({tr("Server"), tr("Status"), tr("Seconds")});
    servers_->setRootIsDecorated(false);
    servers_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    auto* dock = new QDockWidget(tr("Servers"), this);
    dock->setObjectName(QStringLiteral("serversDock"));
    dock->setWidget(servers_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    runsDock_->setObjectName(QStringLiteral("runsDock"));
    runsDock_->setWidget(runs_);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock_);
    connect(runs_, &RunsPanel::flaggedHosts, this, &MainWindow::markFlagged);
    resize(1200, 850);
}

void MainWindow::chooseServers() {
    ConnectDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) connectToHosts(dialog.request());
}

bool MainWindow::connectToHosts(const ConnectRequest& request) {
    const HostlistResult list = expandHostlist(request.hosts);
    QString error = list.error;
    connection_ = request;
    FleetOptions o;
    if (error.isEmpty()) o = fleetOptions(&error);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Cannot connect: %1").arg(error));
        return false;
    }
    fleet_ = std::make_unique<Fleet>(std::move(o));
    connect(fleet_.get(), &Fleet::hostStage, this, [this](const QString& host, SshStage stage) {
        serverItem(host)->setText(1, tr("%1…").arg(stageName(stage)));
    });
    connect(fleet_.get(), &Fleet::hostFinished, this, &MainWindow::onHostFinished);
    connect(fleet_.get(), &Fleet::finished, this, &MainWindow::serversDone);
    servers_->clear();
    hosts_.clear();
    serverNames_ = list.hosts;
    for (const QString& h : serverNames_) serverItem(h)->setText(1, tr("waiting"));
    showHosts();
    fleet_->request(serverNames_, QStringLiteral("collect"));
    return true;
}

FleetOptions MainWindow::fleetOptions(QString* error) {
    FleetOptions o;
    o.config = SshConfig::fromFile(connection_.sshConfig.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh/config") : connection_.sshConfig);
    o.ssh.sshConfigPath = connection_.sshConfig;
    o.ssh.knownHostsFile = connection_.knownHosts;
    o.ssh.connectTimeoutMs = o.ssh.authTimeoutMs = o.requestTimeoutMs = o.deploy.timeoutMs = connection_.timeoutS * 1000;
    o.concurrency = connection_.concurrency;
    useDialogsFor(o.ssh, this);
    if (const auto agent = loadAgentBinary(findLocalAgent(), QStringLiteral(RACKSCOPE_VERSION), error)) o.agent = *agent;
    return o;
}

void MainWindow::chooseRun() {
    NcclRunDialog dialog(compressHostlist(serverNames_), this);
    if (dialog.exec() == QDialog::Accepted) startRun(dialog.choice());
}

void MainWindow::startRun(const RunChoice& choice) {
    RunRequest request;
    request.spec = choice.spec;
    request.resultsDirectory = defaultResultsDirectory();
    QString error;
    const FleetOptions reach = fleetOptions(&error);
    request.ssh = reach.ssh;
    if (!choice.launchHost.isEmpty()) request.launchHost = reach.config.resolve(choice.launchHost);
    if (choice.counters) {
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("rackscope"), tr("Cannot sample counters: %1").arg(error));
            return;
        }
        request.counters = reach;
    }
    runsDock_->show();
    runsDock_->raise();
    if (choice.findSlow) {
        HuntOptions h;
        h.request = request;
        h.schedule = choice.schedule;
        h.rule.lineRateGBs = runs_->chart()->data().lineRate().busbwGBs;
        runs_->startHunt(h);
    } else {
        runs_->startRun(request);
    }
}

void MainWindow::markFlagged(const QStringList& hosts) {
    for (const QString& h : hosts) {
        QTreeWidgetItem* item = serverItem(h);
        item->setForeground(0, QBrush(Qt::red));
        item->setText(1, tr("flagged slow by the load runs"));
    }
}

void MainWindow::refreshServers() {
    if (!fleet_ || serverNames_.isEmpty()) return;
    fleet_->request(serverNames_, QStringLiteral("collect"));
}

QTreeWidgetItem* MainWindow::serverItem(const QString& host) {
    const auto found = servers_->findItems(host, Qt::MatchExactly, 0);
    if (!found.isEmpty()) return found.first();
    return new QTreeWidgetItem(servers_, {host});
}

void MainWindow::onHostFinished(const HostResult& r) {
    QTreeWidgetItem* item = serverItem(r.host);
    item->setText(2, QString::number(r.seconds, 'f', 2));
    ImportResult imported = r.result ? importAgentSnapshot(*r.result, QStringLiteral("ssh://") + r.host) : ImportResult::fail({});
    if (!imported.host) {
        const QString why = r.error ? tr("failed at %1: %2").arg(stageName(r.error->stage), r.error->message) : imported.error;
        item->setText(1, why);
        item->setToolTip(1, why);
        item->setForeground(1, QBrush(Qt::red));
        return;
    }
    item->setText(1, r.reused ? tr("ok (connection reused)") : tr("ok (agent %1)").arg(r.deployed));
    item->setForeground(1, QBrush());
    HostAnalysis a = analyzeHost(*imported.host);
    std::erase_if(hosts_, [&](const InspectedHost& h) { return h.host.source.location == imported.host->source.location; });
    hosts_.push_back({std::move(*imported.host), std::move(a)});
    // In the order the servers were given, whatever order they answer in.
    std::sort(hosts_.begin(), hosts_.end(), [&](const InspectedHost& x, const InspectedHost& y) {
        return serverNames_.indexOf(x.host.source.location.mid(6)) < serverNames_.indexOf(y.host.source.location.mid(6));
    });
    showHosts();
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
    serverNames_.clear();
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
    serverNames_.clear();
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
    std::vector<HostTopology> topologies;
    for (const InspectedHost& h : hosts_) topologies.push_back(h.host);
    runs_->setLineRate(expectedBusbw(topologies));
    if (!serverNames_.isEmpty()) statusBar()->showMessage(tr("%1 of %2 servers answered").arg(hosts_.size()).arg(serverNames_.size()));
    else if (!hosts_.empty()) statusBar()->showMessage(hosts_.front().host.source.location);
}

} // namespace rackscope::gui
