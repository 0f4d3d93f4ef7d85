#include "main_window.h"

#include "protocol/protocol.h"
#include "language.h"
#include "load_chart.h"
#include "load_run_dialog.h"
#include "runs/load_results.h"

#include "diagram/diagram_sources.h"
#include "diagram/session_file.h"
#include "import/agent_snapshot_importer.h"
#include "import/topology_loader.h"
#include "render/diagram_export.h"
#include "render/diagram_style.h"
#include "topology_canvas.h"
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
#include <QPushButton>
#include <QDate>
#include <QDateTime>
#include <QJsonDocument>
#include <QActionGroup>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QStatusBar>
#include <QTime>
#include <QTimer>
#include <QToolBar>

namespace rackscope::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), report_(new QPlainTextEdit(this)), canvas_(new TopologyCanvas(this)), servers_(new QTreeWidget(this)),
      inspector_(new QTreeWidget(this)), findings_(new QTreeWidget(this)), console_(new QPlainTextEdit(this)), runs_(new RunsPanel(this)),
      runsDock_(new QDockWidget(tr("Load runs"), this)), loadRunner_(new LoadRunner(this)), loadChart_(new LoadChart(this)), demoOffer_(new QPushButton(tr("Open the demo cluster"), this)) {
    setWindowTitle(tr("rackscope %1").arg(QStringLiteral(RACKSCOPE_VERSION)));
    setCentralWidget(canvas_);
    buildDocks();
    buildMenus();
    connect(canvas_, &TopologyCanvas::selectionChanged, this, &MainWindow::showInspector);
    connect(canvas_, &TopologyCanvas::expandToggled, this, &MainWindow::toggleExpanded);
    connect(runs_, &RunsPanel::flaggedHosts, this, &MainWindow::markFlagged);
    connect(runs_, &RunsPanel::runFinished, this, [this](const RunOutcome& o) { showRunFindings(o.findings); });
    // Offered while there is nothing but this machine to look at.
    demoOffer_->setToolTip(tr("Eight 8-GPU servers under rail leaves and spines, with a few planted faults: every feature at once"));
    demoOffer_->setFlat(true);
    statusBar()->addPermanentWidget(demoOffer_);
    connect(demoOffer_, &QPushButton::clicked, this, &MainWindow::openDemo);
    resize(1400, 900);
}

void MainWindow::buildDocks() {
    auto dock = [this](const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    servers_->setHeaderLabels({tr("Server"), tr("Status"), tr("Seconds")});
    servers_->setRootIsDecorated(false);
    servers_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    connect(servers_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        if (item->data(0, Qt::UserRole).toString().isEmpty()) canvas_->select(canvas_->diagram().find(QStringLiteral("host:") + item->text(0)), true);
    });
    QDockWidget* serversDock = dock(tr("Servers"), "serversDock", servers_, Qt::LeftDockWidgetArea);
    inspector_->setHeaderLabels({tr("Fact"), tr("Value")});
    inspector_->setRootIsDecorated(false);
    inspector_->setWordWrap(true);
    inspector_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    QDockWidget* inspectorDock = dock(tr("Inspector"), "inspectorDock", inspector_, Qt::RightDockWidgetArea);
    report_->setObjectName(QStringLiteral("report"));
    report_->setReadOnly(true);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    tabifyDockWidget(inspectorDock, dock(tr("Report"), "reportDock", report_, Qt::RightDockWidgetArea));
    inspectorDock->raise();
    findings_->setHeaderLabels({tr("Severity"), tr("Code"), tr("Subject"), tr("Message")});
    findings_->setRootIsDecorated(false);
    findings_->header()->setSectionResizeMode(3, QHeaderView::Stretch);
    auto selectFinding = [this](QTreeWidgetItem* item) { canvas_->select(canvas_->diagram().find(item->data(0, Qt::UserRole).toString()), true); };
    connect(findings_, &QTreeWidget::itemActivated, this, selectFinding);
    connect(findings_, &QTreeWidget::itemClicked, this, selectFinding);
    QDockWidget* findingsDock = dock(tr("Findings"), "findingsDock", findings_, Qt::BottomDockWidgetArea);
    console_->setReadOnly(true);
    console_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QDockWidget* consoleDock = dock(tr("Console"), "consoleDock", console_, Qt::BottomDockWidgetArea);
    runsDock_->setObjectName(QStringLiteral("runsDock"));
    runs_->setMinimumHeight(120); // its splitters would ask for more, and take it from the canvas
    runsDock_->setWidget(runs_);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock_);
    tabifyDockWidget(findingsDock, consoleDock);
    tabifyDockWidget(consoleDock, runsDock_);
    loadDock_ = dock(tr("Inference load"), "loadDock", loadChart_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(runsDock_, loadDock_);
    findingsDock->raise();
    // The canvas gets most of the window.
    QTimer::singleShot(0, this, [=, this] { // once the window has its size
        resizeDocks({serversDock, inspectorDock}, {240, 340}, Qt::Horizontal);
        resizeDocks({findingsDock}, {height() / 4}, Qt::Vertical);
    });
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open topology or fabric…"), QKeySequence::Open, this, &MainWindow::chooseFile);
    file->addAction(tr("Show this &machine"), this, &MainWindow::showLocalMachine);
    file->addAction(tr("Open the &demo cluster"), this, &MainWindow::openDemo);
    file->addAction(tr("&Connect to servers…"), QKeySequence(Qt::CTRL | Qt::Key_K), this, &MainWindow::chooseServers);
    file->addAction(tr("&Refresh servers"), QKeySequence::Refresh, this, &MainWindow::refreshServers);
    file->addAction(tr("S&top connecting"), QKeySequence(Qt::Key_Escape), this, [this] {
        if (fleet_) fleet_->cancel();
    });
    file->addSeparator();
    file->addAction(tr("Open &session…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {}, tr("Sessions (*.rsession);;All files (*)"));
        if (!path.isEmpty()) load({path}, true);
    });
    file->addAction(tr("&Save session…"), QKeySequence::Save, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save session"), {}, tr("Sessions (*.rsession)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QLatin1String(".rsession"))) path += QStringLiteral(".rsession");
        saveSession(path);
    });
    file->addAction(tr("&Export diagram…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::chooseExport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), canvas_, &TopologyCanvas::fit);
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, [this] { canvas_->zoomBy(1.25, canvas_->rect().center()); });
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [this] { canvas_->zoomBy(0.8, canvas_->rect().center()); });
    view->addSeparator();
    view->addAction(tr("Open &all servers"), this, [this] {
        diagramOptions_.expandAll = true;
        redraw();
    });
    view->addAction(tr("&Close all servers"), this, [this] {
        diagramOptions_.expandAll = false;
        diagramOptions_.expanded.clear();
        redraw();
    });
    auto filter = [&](const QString& text, bool DiagramOptions::*field) {
        QAction* a = view->addAction(text);
        a->setCheckable(true);
        connect(a, &QAction::toggled, this, [this, field](bool on) {
            diagramOptions_.*field = on;
            redraw();
        });
    };
    filter(tr("Only &GPUs and NICs"), &DiagramOptions::onlyGpusAndNics);
    filter(tr("Hide &storage"), &DiagramOptions::hideStorage);
    QMenu* highlights = view->addMenu(tr("&Highlights"));
    for (int k = 0; k < kHighlightKinds; ++k) {
        QAction* a = highlights->addAction(highlightTitle(HighlightKind(k)));
        a->setCheckable(true);
        a->setChecked(true);
        QPixmap swatch(12, 12);
        swatch.fill(highlightColour(HighlightKind(k)));
        a->setIcon(QIcon(swatch));
        connect(a, &QAction::toggled, this, [this, k](bool on) { canvas_->setHighlightShown(HighlightKind(k), on); });
    }

    QToolBar* bar = addToolBar(tr("View"));
    bar->setObjectName(QStringLiteral("viewToolBar"));
    bar->addAction(tr("Fit"), canvas_, &TopologyCanvas::fit);
    auto* search = new QLineEdit(bar);
    search->setObjectName(QStringLiteral("search"));
    search->setPlaceholderText(tr("Find a host, device or PCI address"));
    search->setClearButtonEnabled(true);
    search->setMaximumWidth(320);
    bar->addWidget(search);
    // Enter steps through the matches, centring each.
    connect(search, &QLineEdit::returnPressed, this, [this, search] {
        const std::vector<int> found = canvas_->diagram().search(search->text());
        if (found.empty()) {
            statusBar()->showMessage(tr("nothing matches \"%1\"").arg(search->text()), 4000);
            return;
        }
        auto next = std::upper_bound(found.begin(), found.end(), canvas_->selected());
        const int item = next == found.end() ? found.front() : *next;
        canvas_->select(item, true);
        statusBar()->showMessage(tr("%1 of %2 matches").arg(std::find(found.begin(), found.end(), item) - found.begin() + 1).arg(found.size()), 4000);
    });
    QMenu* language = view->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(this);
    const QString chosen = chosenLanguage();
    for (const auto& [code, name] : {std::pair{QStringLiteral("system"), tr("As the system")}, std::pair{QStringLiteral("en"), QStringLiteral("English")},
                                     std::pair{QStringLiteral("zh_CN"), QStringLiteral("简体中文")}}) {
        QAction* a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == chosen);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [this, code = code] { switchLanguage(code); });
    }
    auto* find = new QAction(tr("&Find…"), this);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, search, [search] { search->setFocus(); search->selectAll(); });
    view->addAction(find);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&NCCL load run…"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::chooseRun);
    run->addAction(tr("&Inference load run…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this, &MainWindow::chooseLoadRun);
    run->addAction(tr("Stop the inference load run"), loadRunner_, &LoadRunner::cancel);
    run->addAction(tr("Open saved inference load run…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open saved inference load run"), defaultLoadResultsDirectory());
        if (!dir.isEmpty()) openLoadResults(dir);
    });
    run->addAction(tr("Export inference load requests as CSV…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export requests as CSV"), QString(), tr("CSV (*.csv)"));
        if (!path.isEmpty()) exportLoadCsv(path);
    });
    run->addAction(tr("Clear the inference load comparison"), this, &MainWindow::clearLoadComparison);
    run->addAction(tr("&Stop the run"), this, [this] { runs_->stop(); });
    run->addAction(tr("&Open saved run…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open saved run"), defaultResultsDirectory(), tr("Runs (*.rsrun)"));
        if (!path.isEmpty()) runs_->openRecord(path);
    });
}

void MainWindow::log(const QString& host, const QString& what) {
    console_->appendPlainText(QStringLiteral("%1  %2  %3").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss.zzz")),
                                                                host.isEmpty() ? QStringLiteral("-") : host, what));
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
        log(host, stageName(stage));
    });
    connect(fleet_.get(), &Fleet::hostFinished, this, &MainWindow::onHostFinished);
    connect(fleet_.get(), &Fleet::finished, this, [this] {
        if (!connecting_.isEmpty()) { // no server answered: what was shown stays, and the Servers dock says why
            log({}, tr("no server of %1 answered; the view still shows %2").arg(connecting_, source_));
            statusBar()->showMessage(tr("No server answered (see the Servers list); still showing %1").arg(source_));
            connecting_.clear();
        }
        emit serversDone();
    });
    servers_->clear();
    serverNames_ = list.hosts;
    connecting_ = request.hosts;
    log({}, tr("connecting to %1 servers (%2)").arg(list.hosts.size()).arg(request.hosts));
    for (const QString& h : serverNames_) serverItem(h)->setText(1, tr("waiting"));
    fleet_->request(serverNames_, QString::fromLatin1(rsagent::protocol::method::kCollect));
    return true;
}

FleetOptions MainWindow::fleetOptions(QString* error) {
    FleetOptions o;
    o.config = SshConfig::fromFile(connection_.sshConfig.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh/config") : connection_.sshConfig);
    if (!connection_.jumpHost.isEmpty() && !o.config.addJumpForAll(connection_.jumpHost))
        *error = tr("the jump host is not [user@]host[:port]: %1").arg(connection_.jumpHost);
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

void MainWindow::chooseLoadRun() {
    LoadRunDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    QString problem;
    if (auto request = dialog.request(&problem)) startLoadRun(std::move(*request));
}

void MainWindow::startLoadRun(LoadRequest request) {
    if (loadRunner_->isRunning()) {
        QMessageBox::information(this, tr("rackscope"), tr("An inference load run is already running."));
        return;
    }
    if (!request.hosts.isEmpty()) {
        QString error;
        request.fleet = fleetOptions(&error);
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("rackscope"), tr("Cannot reach the servers: %1").arg(error));
            return;
        }
    }
    request.resultsDirectory = defaultLoadResultsDirectory() + QLatin1Char('/') + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                               QStringLiteral("-") + QString::fromStdString(request.spec.model).section(QLatin1Char('/'), -1);
    const QString model = QString::fromStdString(request.spec.model), url = QString::fromStdString(request.spec.url);
    loadChart_->timeline().clear();
    loadRunner_->disconnect(this);
    connect(loadRunner_, &LoadRunner::requestFinished, this, [this](const rsload::RequestRecord& r) { loadChart_->timeline().add(r); });
    connect(loadRunner_, &LoadRunner::progress, this, [this](const QString& client, double t, qint64 sent, qint64 done, qint64 failed, qint64 inFlight) {
        loadChart_->timeline().progress(client.toStdString(), t, inFlight);
        loadChart_->setStatus(tr("%1 s: %2 sent, %3 done, %4 failed, %5 in flight").arg(t, 0, 'f', 1).arg(sent).arg(done).arg(failed).arg(inFlight));
    });
    connect(loadRunner_, &LoadRunner::clientFailed, this, [this](const QString& client, const QString& error) { log(client, error); });
    connect(loadRunner_, &LoadRunner::stepFinished, this, [this](const LoadStepResult& r) {
        loadChart_->timeline().addStep(r.value, r.summary);
        const rsload::LoadSummary& s = r.summary;
        // No request measured: its latencies are unknown, not 0; a failure says what it was.
        const auto ms = [&](const char* metric) { return s.metrics.at(metric).count ? tr("%1 ms").arg(s.metrics.at(metric).median, 0, 'f', 2) : tr("unknown"); };
        QString status = tr("%1 ok, %2 failed, %3 req/s, TTFT p50 %4, TPOT p50 %5").arg(s.completed).arg(s.failed).arg(s.requestThroughput, 0, 'f', 2).arg(ms("ttft"), ms("tpot"));
        if (s.failed) status += tr("; failed: %1").arg(QString::fromStdString(rsload::failureSummary(s)));
        if (!r.directory.isEmpty()) status += tr("; saved in %1").arg(r.directory);
        loadChart_->setStatus(status);
        log({}, tr("inference load step %1 ended: %2 requests ok, %3 failed").arg(r.step).arg(s.completed).arg(s.failed));
        QString ignored;
        if (r.directory.isEmpty()) return;
        if (auto saved = rackscope::openLoadResults(r.directory, &ignored)) { // compared with what was opened before
            for (LoadResults& one : *saved) comparedLoadRuns_.push_back(std::move(one));
            loadChart_->setComparison(loadComparison(comparedLoadRuns_));
        }
    });
    connect(loadRunner_, &LoadRunner::finished, this, [this](bool ok, const QString& error) {
        log({}, ok ? tr("inference load run finished") : tr("inference load run ended: %1").arg(error));
    });
    log({}, tr("inference load run against %1 (%2) from %3").arg(url, model, request.hosts.isEmpty() ? tr("this machine") : request.hosts.join(QLatin1Char(','))));
    loadDock_->show();
    loadDock_->raise();
    loadRunner_->start(std::move(request));
}

bool MainWindow::openLoadResults(const QString& directory) {
    QString error;
    std::optional<std::vector<LoadResults>> runs = rackscope::openLoadResults(directory, &error);
    if (!runs) {
        QMessageBox::warning(this, tr("rackscope"), tr("Cannot open the inference load run: %1").arg(error));
        return false;
    }
    loadChart_->timeline().clear();
    for (const LoadResults& r : *runs) {
        for (const QString& p : r.problems) log({}, QStringLiteral("%1: %2").arg(r.directory, p));
        if (runs->size() == 1) loadChart_->timeline().replay(r.records);
        if (r.sweepValue) loadChart_->timeline().addStep(*r.sweepValue, rsload::summarize(r.records, {}, {50, 90, 95, 99}));
    }
    const rsload::Json& s = runs->back().summary;
    loadChart_->setStatus(tr("Saved run %1: %2 ok, %3 failed, %4 req/s").arg(QDir(directory).dirName())
                              .arg(s.value("completed", 0)).arg(s.value("failed", 0)).arg(s.value("request_throughput", 0.0), 0, 'f', 2));
    for (LoadResults& r : *runs) comparedLoadRuns_.push_back(std::move(r));
    loadChart_->setComparison(loadComparison(comparedLoadRuns_));
    log({}, tr("opened the inference load run %1").arg(directory));
    loadDock_->show();
    loadDock_->raise();
    return true;
}

void MainWindow::clearLoadComparison() {
    comparedLoadRuns_.clear();
    loadChart_->setComparison({});
}

bool MainWindow::exportLoadCsv(const QString& path) {
    std::vector<rsload::RequestRecord> all;
    for (const LoadResults& r : comparedLoadRuns_) all.insert(all.end(), r.records.begin(), r.records.end());
    QFile f(path);
    const QByteArray csv = loadRecordsCsv(all).toUtf8();
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(csv) != csv.size()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not write %1: %2").arg(path, f.errorString()));
        return false;
    }
    log({}, tr("wrote %1 requests to %2").arg(all.size()).arg(path));
    return true;
}

void MainWindow::startRun(const RunChoice& choice) {
    RunRequest request;
    request.spec = choice.spec;
    request.resultsDirectory = defaultResultsDirectory();
    for (const InspectedHost& h : hosts_) request.topologies[h.host.name] = h.host;
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
    flagged_ = hosts;
    redraw();
    for (const QString& h : hosts) {
        log(h, tr("flagged slow by the load runs"));
        QTreeWidgetItem* item = serverItem(h);
        item->setForeground(0, QBrush(Qt::red));
        item->setText(1, tr("flagged slow by the load runs"));
    }
}

void MainWindow::showRunFindings(const std::vector<Finding>& findings) {
    for (const Finding& f : findings)
        if (f.code.startsWith(QLatin1String("nccl-"))) {
            runFindings_.push_back(f);
            log(f.subjects.value(0), f.message);
        }
    redraw();
}

void MainWindow::refreshServers() {
    if (!fleet_ || serverNames_.isEmpty()) return;
    fleet_->request(serverNames_, QString::fromLatin1(rsagent::protocol::method::kCollect));
}

QTreeWidgetItem* MainWindow::serverItem(const QString& host) {
    for (QTreeWidgetItem* found : servers_->findItems(host, Qt::MatchExactly | Qt::MatchRecursive, 0))
        if (found->childCount() == 0 && found->data(0, Qt::UserRole).toString().isEmpty()) return found;
    return new QTreeWidgetItem(servers_, {host});
}

// With a fabric, the servers list groups servers by the leaves they are cabled to (a pod, often a rack).
void MainWindow::groupServers(const FabricAnalysis& fabric) {
    std::vector<QTreeWidgetItem*> items;
    while (servers_->topLevelItemCount()) {
        QTreeWidgetItem* top = servers_->takeTopLevelItem(0);
        if (top->data(0, Qt::UserRole).toString().isEmpty()) items.push_back(top);
        else {
            for (QTreeWidgetItem* child : top->takeChildren()) items.push_back(child);
            delete top;
        }
    }
    std::map<QString, QTreeWidgetItem*> groups;
    for (QTreeWidgetItem* item : items) {
        const FabricHost* h = fabric.host(item->text(0));
        QStringList leaves;
        if (h)
            for (const QString& id : h->leaves) leaves << (fabric_->node(id) ? switchName(*fabric_->node(id)) : id);
        leaves.sort();
        const QString key = leaves.isEmpty() ? tr("not on the fabric") : leaves.size() == 1 ? leaves.front()
                                                                        : tr("%1 leaves: %2").arg(leaves.size()).arg(leaves.join(QStringLiteral(", ")));
        QTreeWidgetItem*& group = groups[key];
        if (!group) {
            group = new QTreeWidgetItem(servers_, {key});
            group->setData(0, Qt::UserRole, QStringLiteral("group"));
            group->setFirstColumnSpanned(true);
            group->setExpanded(true);
        }
        group->addChild(item);
    }
    servers_->setRootIsDecorated(true);
    servers_->expandAll();
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
        log(r.host, why);
        return;
    }
    if (!connecting_.isEmpty()) { // the first answer: the servers replace what was shown
        hosts_.clear();
        runFindings_.clear();
        raw_.clear();
        fabric_.reset();
        source_ = connecting_;
        connecting_.clear();
    }
    item->setText(1, r.reused ? tr("ok (connection reused)") : tr("ok (agent %1)").arg(r.deployed));
    log(r.host, tr("collected in %1 s").arg(r.seconds, 0, 'f', 2));
    item->setForeground(1, QBrush());
    HostAnalysis a = analyzeHost(*imported.host);
    const QString location = imported.host->source.location;
    std::erase_if(hosts_, [&](const InspectedHost& h) { return h.host.source.location == location; });
    std::erase_if(raw_, [&](const RawSource& s) { return s.location == location; });
    raw_.push_back({location, imported.host->name, QJsonDocument(*r.result).toJson(QJsonDocument::Compact)});
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
    raw_ = {{r.host->source.location, r.host->name, QJsonDocument(*c.snapshot).toJson(QJsonDocument::Compact)}};
    hosts_ = {{std::move(*r.host), std::move(a)}};
    fabric_.reset();
    serverNames_.clear();
    source_ = tr("this machine");
    log(QStringLiteral("localhost"), tr("collected through the local agent"));
    showHosts();
}

bool MainWindow::openTopology(const QString& path) { return load({path}, true); }
bool MainWindow::openFiles(const QStringList& paths) { return load(paths, false); }

bool MainWindow::load(const QStringList& paths, bool replace) {
    DiagramSources loaded = loadDiagramSources(paths);
    QStringList problems;
    for (const FailedInput& f : loaded.failed) {
        problems << QStringLiteral("%1: %2").arg(f.input, f.message);
        log({}, tr("could not read %1: %2").arg(f.input, f.message));
    }
    if (!problems.isEmpty()) QMessageBox::warning(this, tr("rackscope"), tr("Could not read:\n%1").arg(problems.join(QLatin1Char('\n'))));
    if (loaded.input.hosts.empty() && !loaded.input.fabric) return false; // what was shown stays
    if (replace) {
        hosts_.clear();
        runFindings_.clear();
        raw_.clear();
        fabric_.reset();
        serverNames_.clear();
        flagged_.clear();
        servers_->clear();
    }
    for (RawSource& r : loaded.raw) {
        std::erase_if(raw_, [&](const RawSource& old) { return !r.host.isEmpty() && old.host == r.host; });
        raw_.push_back(std::move(r));
    }
    for (const QString& h : loaded.input.flaggedHosts)
        if (!flagged_.contains(h)) flagged_ << h;
    for (InspectedHost& h : loaded.input.hosts) {
        log(h.host.name, tr("opened %1").arg(h.host.source.location));
        serverItem(h.host.name)->setText(1, tr("from %1").arg(QFileInfo(h.host.source.location).fileName()));
        std::erase_if(hosts_, [&](const InspectedHost& old) { return old.host.name == h.host.name; });
        hosts_.push_back(std::move(h));
    }
    if (loaded.input.fabric) {
        log({}, tr("fabric from %1").arg(loaded.input.fabric->source));
        DiagramInput merged;
        merged.fabric = std::move(fabric_);
        addFabric(merged, std::move(*loaded.input.fabric));
        fabric_ = std::move(merged.fabric);
    }
    QStringList names;
    for (const QString& path : paths) names << QFileInfo(path).fileName();
    source_ = names.join(QStringLiteral(", "));
    showHosts();
    return true;
}

MainWindow* MainWindow::switchLanguage(const QString& choice) {
    rememberLanguage(choice);
    if (runs_->isRunning() || loadRunner_->isRunning()) {
        statusBar()->showMessage(tr("A run is going: choose the language again when it has ended, or it changes the next time rackscope starts."), 8000);
        return nullptr;
    }
    // What is shown travels as a session, the way a colleague would receive it.
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("window.rsession"));
    if (!hosts_.empty() && !saveSession(session)) return nullptr;
    const int selected = canvas_->selected();
    const QString selectedId = selected >= 0 ? canvas_->diagram().items[size_t(selected)].id : QString();
    applyLanguage(choice);
    auto* next = new MainWindow;
    next->setAttribute(Qt::WA_DeleteOnClose);
    next->restoreGeometry(saveGeometry());
    next->restoreState(saveState());
    if (!hosts_.empty()) next->openTopology(session);
    if (!selectedId.isEmpty()) next->selectItem(selectedId);
    if (isVisible()) next->show();
    close(); // deleted where it was made to be (rackscope's own window is)
    return next;
}

bool MainWindow::saveSession(const QString& path) {
    Session session;
    session.title = canvas_->diagram().title;
    session.saved = QDateTime::currentDateTime().toString(Qt::ISODate);
    session.version = QStringLiteral(RACKSCOPE_VERSION);
    session.sources = raw_;
    session.flagged = flagged_;
    for (const InspectedHost& h : hosts_)
        for (const Finding& f : h.analysis.findings) session.findings.emplace_back(h.host.name, f);
    if (fabric_)
        for (const Finding& f : analyseFabric(*fabric_).findings) session.findings.emplace_back(QString(), f);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(sessionToJson(session)) < 0 || !file.commit()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not save the session to %1: %2").arg(path, file.errorString()));
        return false;
    }
    log({}, tr("saved the session (%1 sources) to %2").arg(raw_.size()).arg(path));
    return true;
}

void MainWindow::openDemo() {
    if (load({QStringLiteral(":/demo/demo.cluster")}, true)) source_ = tr("the rackscope demo cluster");
}

void MainWindow::chooseFile() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open topologies and fabric sources"), {},
        tr("Topologies and fabrics (*.xml *.txt *.json *.conf *.fabric);;All files (*)"));
    if (!paths.isEmpty()) openFiles(paths);
}

void MainWindow::redraw() {
    DiagramInput in;
    in.hosts = hosts_;
    in.fabric = fabric_;
    in.flaggedHosts = flagged_;
    in.runFindings = runFindings_;
    canvas_->setDiagram(buildDiagram(in, diagramOptions_));
    showInspector(canvas_->selected());
}

bool MainWindow::selectItem(const QString& id) {
    const int item = canvas_->diagram().find(id);
    if (item >= 0) canvas_->select(item, true);
    return item >= 0;
}

void MainWindow::toggleExpanded(const QString& host) {
    DiagramOptions& o = diagramOptions_;
    if (o.expandAll) {
        o.expandAll = false;
        o.expanded.clear();
        for (const InspectedHost& h : hosts_) o.expanded.insert(h.host.name);
    }
    if (!o.expanded.remove(host)) o.expanded.insert(host);
    redraw();
    canvas_->select(canvas_->diagram().find(QStringLiteral("host:") + host), false);
}

void MainWindow::showInspector(int item) {
    inspector_->clear();
    const Diagram& d = canvas_->diagram();
    if (item < 0 || item >= int(d.items.size())) return;
    const DiagramItem& it = d.items[item];
    auto row = [this](const QString& fact, const QString& value) {
        auto* r = new QTreeWidgetItem(inspector_, {fact, value});
        r->setToolTip(1, value);
        return r;
    };
    row(tr("item"), QStringLiteral("%1 (%2)").arg(it.label, itemKindTitle(it.kind)));
    if (!it.detail.isEmpty()) row(tr("summary"), it.detail);
    for (const auto& [fact, value] : it.facts) row(QCoreApplication::translate("rackscope", fact.toLatin1().constData()), value);
    for (const Highlight* h : d.highlightsOf(item)) {
        QTreeWidgetItem* r = row(highlightTitle(h->kind), (h->path.isEmpty() ? QString() : h->path + QStringLiteral(": ")) + h->why);
        r->setForeground(0, highlightColour(h->kind));
    }
    // The GPU's paths to every NIC (and the NIC's to every GPU), as the analysis found them.
    for (const InspectedHost& h : hosts_) {
        if (h.host.name != it.host || (it.kind != ItemKind::Gpu && it.kind != ItemKind::Nic)) continue;
        for (const GpuNicPair& p : h.analysis.gpuNic) {
            if (p.gpu != it.label && p.nic != it.label) continue;
            row(it.kind == ItemKind::Gpu ? tr("path to %1").arg(p.nic) : tr("path from %1").arg(p.gpu),
                tr("%1; GPUDirect RDMA %2%3").arg(p.path ? pathTypeName(*p.path) : tr("unknown"),
                                                   !p.gpudirect ? tr("unknown") : *p.gpudirect ? tr("yes") : tr("no"),
                                                   p.gpudirectReason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(p.gpudirectReason)));
        }
    }
}

// Which item a finding is about: a device of its host, else the host, else a switch by name.
static QString targetOf(const Diagram& d, const QString& host, const QStringList& subjects) {
    for (const QString& s : subjects)
        if (!host.isEmpty() && d.find(host + QLatin1Char('/') + s) >= 0) return host + QLatin1Char('/') + s;
    if (!host.isEmpty()) return QStringLiteral("host:") + host;
    for (const QString& s : subjects) {
        const QString first = s.section(QStringLiteral(" - "), 0, 0).section(QLatin1Char('['), 0, 0);
        if (d.find(QStringLiteral("host:") + first.section(QLatin1Char(' '), 0, 0)) >= 0) return QStringLiteral("host:") + first.section(QLatin1Char(' '), 0, 0);
        for (const DiagramItem& it : d.items)
            if (it.label == first) return it.id;
    }
    return {};
}

void MainWindow::fillFindings(const FabricAnalysis* fabric) {
    findings_->clear();
    const Diagram& d = canvas_->diagram();
    auto add = [&](const QString& host, const Finding& f) {
        auto* item = new QTreeWidgetItem(findings_, {severityName(f.severity), f.code, (host.isEmpty() ? QString() : host + QStringLiteral(": ")) + f.subjects.join(QStringLiteral(", ")), f.message});
        item->setToolTip(3, f.message);
        item->setData(0, Qt::UserRole, targetOf(d, host, f.subjects));
        if (f.severity == Severity::Error) item->setForeground(0, QBrush(Qt::red));
        else if (f.severity == Severity::Warning) item->setForeground(0, QBrush(QColor(0xc0, 0x60, 0x00)));
    };
    for (const InspectedHost& h : hosts_)
        for (const Finding& f : h.analysis.findings) add(h.host.name, f);
    if (fabric)
        for (const Finding& f : fabric->findings) add({}, f);
}

void MainWindow::chooseExport() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export diagram"), {},
                                                      tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz (*.dot)"));
    if (!path.isEmpty()) exportDiagram(path);
}

bool MainWindow::exportDiagram(const QString& path) {
    ExportOptions o;
    const auto format = exportFormatFromName(QFileInfo(path).suffix());
    if (!format) {
        QMessageBox::warning(this, tr("rackscope"), tr("Choose a name ending in .svg, .png, .pdf or .dot"));
        return false;
    }
    o.format = *format;
    o.paint = canvas_->paintOptions();
    o.paint.selected = o.paint.hovered = -1;
    o.title = {canvas_->diagram().title, QDate::currentDate().toString(Qt::ISODate), QStringLiteral(RACKSCOPE_VERSION), source_};
    if (const QString error = rackscope::exportDiagram(canvas_->diagram(), path, o); !error.isEmpty()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not export: %1").arg(error));
        return false;
    }
    log({}, tr("exported the diagram to %1").arg(path));
    return true;
}

void MainWindow::showHosts() {
    demoOffer_->setVisible(hosts_.size() <= 1 && serverNames_.isEmpty() && !fabric_);
    if (hosts_.size() > 8 && diagramOptions_.expandAll && diagramOptions_.expanded.isEmpty()) diagramOptions_.expandAll = false; // many servers: closed, opened on demand
    redraw();
    const std::optional<FabricAnalysis> fabric = fabric_ ? std::optional(analyseFabric(*fabric_)) : std::nullopt;
    fillFindings(fabric ? &*fabric : nullptr);
    if (fabric) groupServers(*fabric);
    report_->setPlainText(inspectToText(hosts_));
    std::vector<HostTopology> topologies;
    for (const InspectedHost& h : hosts_) topologies.push_back(h.host);
    runs_->setLineRate(expectedBusbw(topologies));
    if (!serverNames_.isEmpty()) statusBar()->showMessage(tr("%1 of %2 servers answered").arg(hosts_.size()).arg(serverNames_.size()));
    else if (!hosts_.empty() || fabric_) statusBar()->showMessage(source_);
}

} // namespace rackscope::gui
