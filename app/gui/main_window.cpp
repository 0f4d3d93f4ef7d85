#include "main_window.h"

#include "findings_panel.h"
#include "inference_panel.h"
#include "inspector_panel.h"
#include "job_watch_panel.h"
#include "language.h"
#include "rack_check_panel.h"
#include "rackscope_version.h"
#include "render/diagram_export.h"
#include "runs/run_record.h"
#include "runs_panel.h"
#include "servers_panel.h"
#include "thread_priority.h"
#include "topology_canvas.h"
#include "transport/local_agent.h"

#include <QApplication>
#include <QDate>
#include <QDateTime>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QStatusBar>
#include <QTime>
#include <QTimer>

namespace rackscope::gui {

// The workspace's threads yield to this one (keepTheWindowFirst) from before they start.
MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), live_((keepTheWindowFirst(), new LiveWorkspace(this))),
      canvas_(new TopologyCanvas(this)), servers_(new ServersPanel(this)),
      inspector_(new InspectorPanel(this)), findings_(new FindingsPanel(this)),
      report_(new QPlainTextEdit(this)), console_(new QPlainTextEdit(this)), runs_(new RunsPanel(this)),
      inference_(new InferencePanel(this)), rackCheck_(new RackCheckPanel(this)),
      jobWatch_(new JobWatchPanel(this)), demoOffer_(new QPushButton(this)),
      agent_(std::async(
          std::launch::async, [] { // the agent to deploy: reading and hashing it takes a few hundred ms
              AgentLoad a;
              a.binary = loadAgentBinary(findLocalAgent(), QStringLiteral(RACKSCOPE_VERSION), &a.error);
              return a;
          })) {
    setCentralWidget(canvas_);
    buildDocks();
    buildMenus();
    connect(live_, &LiveWorkspace::changed, this, &MainWindow::showView);
    connect(live_, &LiveWorkspace::taken, this, &MainWindow::onTaken);
    connect(live_, &LiveWorkspace::idle, this, &MainWindow::checkServersDone);
    connect(canvas_, &TopologyCanvas::selectionChanged, this,
            [this](int item) { inspector_->showItem(*live_->view(), item); });
    connect(canvas_, &TopologyCanvas::expandToggled, this, &MainWindow::toggleExpanded);
    connect(canvas_, &TopologyCanvas::zoomOpens, this, &MainWindow::openByZoom);
    connect(canvas_, &TopologyCanvas::zoomedOut, this, &MainWindow::closeOpenedByZoom);
    connect(servers_, &ServersPanel::serverChosen, this,
            [this](const QString& host) { selectItem(QStringLiteral("host:") + host); });
    connect(findings_, &FindingsPanel::itemChosen, this, &MainWindow::selectItem);
    connect(runs_, &RunsPanel::flaggedHosts, this, &MainWindow::markFlagged);
    connect(runs_, &RunsPanel::runFinished, this, &MainWindow::keepRun);
    connect(runs_, &RunsPanel::recordChosen, this, [this](const QString& path) { openFiles({path}); });
    connect(inference_, &InferencePanel::log, this, &MainWindow::log);
    connect(rackCheck_, &RackCheckPanel::runRequested, this, &MainWindow::checkTheRack);
    connect(rackCheck_, &RackCheckPanel::itemChosen, this, &MainWindow::selectCheckSubject);
    connect(jobWatch_, &JobWatchPanel::stopRequested, this, &MainWindow::stopWatchingJob);
    connect(jobWatch_, &JobWatchPanel::itemChosen, this, &MainWindow::selectCheckSubject);
    connect(&ras_, &RasWatch::snapshot, this, &MainWindow::showJobSnapshot);
    // Offered while there is nothing but this machine to look at.
    demoOffer_->setFlat(true);
    statusBar()->addPermanentWidget(demoOffer_);
    connect(demoOffer_, &QPushButton::clicked, this, &MainWindow::openDemo);
    retranslate();
    resize(1400, 900);
}

MainWindow::~MainWindow() {
    ras_.stop();    // it may be using a fleet's connection
    fleet_.reset(); // before the panels its answers go to
}

void MainWindow::buildDocks() {
    auto dock = [this](const char* title, const char* name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(w);
        addDockWidget(area, d);
        docks_.emplace_back(d, title);
        return d;
    };
    QDockWidget* serversDock = dock(QT_TR_NOOP("Servers"), "serversDock", servers_, Qt::LeftDockWidgetArea);
    QDockWidget* inspectorDock =
        dock(QT_TR_NOOP("Inspector"), "inspectorDock", inspector_, Qt::RightDockWidgetArea);
    report_->setObjectName(QStringLiteral("report"));
    report_->setReadOnly(true);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    tabifyDockWidget(inspectorDock,
                     dock(QT_TR_NOOP("Report"), "reportDock", report_, Qt::RightDockWidgetArea));
    inspectorDock->raise();
    QDockWidget* findingsDock =
        dock(QT_TR_NOOP("Findings"), "findingsDock", findings_, Qt::BottomDockWidgetArea);
    console_->setReadOnly(true);
    console_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QDockWidget* consoleDock = dock(QT_TR_NOOP("Console"), "consoleDock", console_, Qt::BottomDockWidgetArea);
    runs_->setMinimumHeight(120); // its splitters would ask for more, and take it from the canvas
    QDockWidget* runsDock = dock(QT_TR_NOOP("Load runs"), "runsDock", runs_, Qt::BottomDockWidgetArea);
    QDockWidget* loadDock =
        dock(QT_TR_NOOP("Inference load"), "loadDock", inference_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(findingsDock, consoleDock);
    tabifyDockWidget(consoleDock, runsDock);
    tabifyDockWidget(runsDock, loadDock);
    rackCheckDock_ = dock(QT_TR_NOOP("Rack check"), "rackCheckDock", rackCheck_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(loadDock, rackCheckDock_);
    jobDock_ = dock(QT_TR_NOOP("NCCL job"), "jobDock", jobWatch_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(rackCheckDock_, jobDock_);
    findingsDock->raise();
    // The canvas gets most of the window.
    QTimer::singleShot(0, this, [=, this] { // once the window has its size
        resizeDocks({serversDock, inspectorDock}, {240, 340}, Qt::Horizontal);
        resizeDocks({findingsDock}, {height() / 4}, Qt::Vertical);
    });
}

void MainWindow::showDock(QDockWidget* dock) {
    dock->show();
    dock->raise();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

// Every fixed word of the window in the language now installed; the view's own words (the diagram, the
// findings) are made again by the workspace.
void MainWindow::retranslate() {
    setWindowTitle(tr("rackscope %1").arg(QStringLiteral(RACKSCOPE_VERSION)));
    for (const auto& [dock, title] : docks_)
        dock->setWindowTitle(tr(title));
    demoOffer_->setText(tr("Open the demo cluster"));
    demoOffer_->setToolTip(tr("Eight 8-GPU servers under rail leaves and spines, with a few planted faults: "
                              "every feature at once"));
    servers_->retranslate();
    inspector_->retranslate();
    findings_->retranslate();
    runs_->retranslate();
    inference_->retranslate();
    rackCheck_->retranslate();
    jobWatch_->retranslate();
    buildMenus();
}

bool MainWindow::switchLanguage(const QString& choice) {
    rememberLanguage(choice);
    if (runs_->isRunning() || inference_->runner()->isRunning()) {
        statusBar()->showMessage(tr("A run is going: choose the language again when it has ended, or it "
                                    "changes the next time rackscope starts."),
                                 8000);
        return false;
    }
    applyLanguage(choice); // QEvent::LanguageChange retranslates every widget
    live_->reanalyse();
    return true;
}

void MainWindow::log(const QString& host, const QString& what) {
    console_->appendPlainText(QStringLiteral("%1  %2  %3")
                                  .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss.zzz")),
                                       host.isEmpty() ? QStringLiteral("-") : host, what));
}

bool MainWindow::busy() const {
    return live_->busy();
}
const std::vector<InspectedHost>& MainWindow::hosts() const {
    return live_->view()->workspace.hosts();
}
QTreeWidget* MainWindow::serverList() const {
    return servers_;
}
QTreeWidget* MainWindow::findingList() const {
    return findings_;
}
QTreeWidget* MainWindow::inspector() const {
    return inspector_;
}
LoadChart* MainWindow::loadChart() const {
    return inference_->chart();
}
LoadRunner* MainWindow::loadRunner() const {
    return inference_->runner();
}

void MainWindow::showLocalMachine() {
    log(QStringLiteral("localhost"), tr("asking this machine's agent"));
    live_->collectLocal(findLocalAgent()); // the same path as `rackscope-cli inspect --local`
}

bool MainWindow::openTopology(const QString& path) {
    if (path.isEmpty())
        return false;
    live_->open({path}, Workspace::Mode::Replace);
    return true;
}

bool MainWindow::openFiles(const QStringList& paths) {
    if (paths.isEmpty())
        return false;
    live_->open(paths, Workspace::Mode::Add);
    return true;
}

void MainWindow::openDemo() {
    live_->open({QStringLiteral(":/demo/demo.cluster")}, Workspace::Mode::Replace);
}

// What became of an input: the Servers dock and the Console say it; a file that could not be read gets a
// dialog.
void MainWindow::onTaken(const TakeReport& r) {
    const bool server = serverNames_.contains(r.input);
    const bool thisMachine = r.input == kLocalAgentLocation;
    QStringList problems;
    for (const FailedInput& f : r.failed) {
        log(server ? r.input : QString(), tr("could not read %1: %2").arg(f.input, f.message));
        if (server)
            servers_->setFailed(r.input, tr("failed at import: %1").arg(f.message));
        else
            problems << QStringLiteral("%1: %2").arg(f.input, f.message);
    }
    if (!problems.isEmpty()) {
        auto* box = new QMessageBox(
            QMessageBox::Warning, tr("rackscope"),
            thisMachine ? tr("Could not read this machine: %1").arg(problems.join(QLatin1Char('\n')))
                        : tr("Could not read:\n%1").arg(problems.join(QLatin1Char('\n'))),
            QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("problem"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    if (!r.taken())
        return;
    if (r.replaced && server) { // the first answer: the servers replace what was shown
        source_ = connecting_;
        connecting_.clear();
    } else if (r.replaced) {
        servers_->clear();
        serverNames_.clear();
        QStringList names;
        for (const QString& path : r.paths)
            names << (path.startsWith(QLatin1Char(':')) ? tr("the rackscope demo cluster")
                                                        : QFileInfo(path).fileName());
        source_ = thisMachine ? tr("this machine") : names.join(QStringLiteral(", "));
    }
    if (thisMachine)
        log(QStringLiteral("localhost"), tr("collected through the local agent"));
    else if (!server)
        for (const QString& h : r.hosts)
            log(h, tr("opened %1").arg(r.input));
    if (!r.fabricSource.isEmpty() && !server)
        log({}, tr("fabric from %1").arg(r.fabricSource));
}

void MainWindow::showView(const WorkspaceViewPtr& view) {
    const Workspace& ws = view->workspace;
    diagramOptions_ = view->options;
    canvas_->setDiagram(view->diagram);
    inspector_->showItem(*view, canvas_->selected());
    findings_->showFindings(*view);
    for (const InspectedHost& h : ws.hosts())
        if (servers_->findItems(h.host.name, Qt::MatchExactly | Qt::MatchRecursive).isEmpty())
            servers_->setStatus(h.host.name, tr("from %1").arg(QFileInfo(h.host.source.location).fileName()));
    if (ws.fabric()) {
        for (const FabricHost& h : ws.fabricAnalysis()->hosts) // the servers the fabric alone knows
            if (servers_->findItems(h.name, Qt::MatchExactly | Qt::MatchRecursive).isEmpty())
                servers_->setStatus(
                    h.name, tr("on the fabric only (%1)").arg(QFileInfo(ws.fabric()->source).fileName()));
        servers_->group(view->diagram.groups);
    }
    servers_->markFlagged(ws.flagged());
    report_->setPlainText(view->report);
    runs_->setLineRate(view->lineRate);
    runs_->showSavedRuns(ws.runs());
    inference_->showSavedRuns(ws.loadRuns());
    const std::vector<RawSource>& sources = ws.sources();
    demoOffer_->setVisible(
        sources.empty() ||
        (sources.size() == 1 && sources.front().location == kLocalAgentLocation)); // only this machine
    if (!serverNames_.isEmpty())
        statusBar()->showMessage(
            tr("%1 of %2 servers answered").arg(ws.hosts().size()).arg(serverNames_.size()));
    else if (!ws.empty())
        statusBar()->showMessage(source_);
    emit viewShown();
}

void MainWindow::redraw() {
    live_->setDiagramOptions(diagramOptions_);
}

bool MainWindow::selectItem(const QString& id) {
    const int item = canvas_->diagram().find(id);
    if (item >= 0)
        canvas_->select(item, true);
    return item >= 0;
}

void MainWindow::listOpenServers() {
    DiagramOptions& o = diagramOptions_;
    if (o.open == ServersOpen::Listed)
        return;
    o.open = ServersOpen::Listed; // from here on, the servers opened are those drawn open
    o.expanded.clear();
    for (const DiagramItem& it : canvas_->diagram().items)
        if (it.kind == ItemKind::Host && !it.closed)
            o.expanded.insert(it.host);
}

void MainWindow::toggleExpanded(const QString& host) {
    listOpenServers();
    openedByZoom_.remove(host); // the person's choice, kept when zooming out
    if (!diagramOptions_.expanded.remove(host))
        diagramOptions_.expanded.insert(host);
    redraw();
}

void MainWindow::openByZoom(const QStringList& hosts) {
    listOpenServers();
    bool opened = false;
    for (const QString& h : hosts)
        if (!diagramOptions_.expanded.contains(h)) {
            diagramOptions_.expanded.insert(h);
            openedByZoom_.insert(h);
            opened = true;
        }
    if (opened)
        redraw();
}

void MainWindow::closeOpenedByZoom() {
    if (openedByZoom_.isEmpty())
        return;
    for (const QString& h : std::as_const(openedByZoom_))
        diagramOptions_.expanded.remove(h);
    openedByZoom_.clear();
    redraw();
}

void MainWindow::markFlagged(const QStringList& hosts) {
    for (const QString& h : hosts)
        log(h, tr("flagged slow by the load runs"));
    live_->setFlagged(hosts);
}

// A finished run joins the workspace: its record as a saved run (judged there, and kept in a session), or,
// when it was not saved, its findings.
void MainWindow::keepRun(const RunOutcome& o) {
    for (const Finding& f : o.findings)
        log(f.target.host, findingText(f));
    if (!o.record.isEmpty())
        openFiles({o.record});
    else if (!o.findings.empty())
        live_->addRunFindings(o.findings);
}

bool MainWindow::saveSession(const QString& path) {
    Session session = live_->view()->workspace.session();
    if (session.title.isEmpty())
        session.title = canvas_->diagram().title;
    session.saved = QDateTime::currentDateTime().toString(Qt::ISODate);
    session.version = QStringLiteral(RACKSCOPE_VERSION);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(sessionToJson(session)) < 0 || !file.commit()) {
        QMessageBox::warning(this, tr("rackscope"),
                             tr("Could not save the session to %1: %2").arg(path, file.errorString()));
        return false;
    }
    log({}, tr("saved the session (%1 sources) to %2").arg(session.sources.size()).arg(path));
    return true;
}

TitleBlock MainWindow::titleBlock() const {
    return {canvas_->diagram().title, QDate::currentDate().toString(Qt::ISODate),
            QStringLiteral(RACKSCOPE_VERSION), source_};
}

bool MainWindow::exportDiagram(const QString& path) {
    const auto format = exportFormatFromName(QFileInfo(path).suffix());
    if (!format) {
        QMessageBox::warning(this, tr("rackscope"), tr("Choose a name ending in .svg, .png, .pdf or .dot"));
        return false;
    }
    ExportRequest r{path, canvas_->diagram(), {}};
    r.options.format = *format;
    r.options.paint = canvas_->paintOptions();
    r.options.title = titleBlock();
    return writeExport(r);
}

bool MainWindow::writeExport(ExportRequest r) {
    r.options.paint.selected = r.options.paint.hovered = r.options.paint.hoveredLink = -1;
    r.options.paint.exposed = {};
    if (const QString error = rackscope::exportDiagram(r.diagram, r.path, r.options); !error.isEmpty()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not export: %1").arg(error));
        return false;
    }
    log({}, tr("exported the diagram to %1").arg(r.path));
    return true;
}

} // namespace rackscope::gui
