// The window's menus and its View toolbar, made again in the language now installed.
#include "inference_panel.h"
#include "language.h"
#include "load_run_dialog.h"
#include "main_window.h"

#include "model/hostlist.h"
#include "render/diagram_style.h"
#include "runs/run_record.h"
#include "runs_panel.h"
#include "topology_canvas.h"

#include <QActionGroup>
#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

namespace rackscope::gui {

void MainWindow::buildMenus() {
    for (QMenu* old : menuBar()->findChildren<QMenu*>(Qt::FindDirectChildrenOnly))
        delete old;
    menuBar()->clear();
    for (QToolBar* old : findChildren<QToolBar*>(QStringLiteral("viewToolBar")))
        delete old;

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open topology or fabric…"), QKeySequence::Open, this, &MainWindow::chooseFile);
    file->addAction(tr("Show this &machine"), this, &MainWindow::showLocalMachine);
    file->addAction(tr("Open the &demo cluster"), this, &MainWindow::openDemo);
    file->addAction(tr("&Connect to servers…"), QKeySequence(Qt::CTRL | Qt::Key_K), this,
                    &MainWindow::chooseServers);
    file->addAction(tr("&Refresh servers"), QKeySequence::Refresh, this, &MainWindow::refreshServers);
    file->addAction(tr("S&top connecting"), QKeySequence(Qt::Key_Escape), this, [this] {
        if (fleet_)
            fleet_->cancel();
    });
    file->addSeparator();
    file->addAction(tr("Open &session…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {},
                                                          tr("Sessions (*.rsession);;All files (*)"));
        if (!path.isEmpty())
            openTopology(path);
    });
    file->addAction(tr("&Save session…"), QKeySequence::Save, this, [this] {
        QString path =
            QFileDialog::getSaveFileName(this, tr("Save session"), {}, tr("Sessions (*.rsession)"));
        if (path.isEmpty())
            return;
        if (!path.endsWith(QLatin1String(".rsession")))
            path += QStringLiteral(".rsession");
        saveSession(path);
    });
    file->addAction(tr("&Export diagram…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::chooseExport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), canvas_, &TopologyCanvas::fit);
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this,
                    [this] { canvas_->zoomBy(1.25, canvas_->rect().center()); });
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this,
                    [this] { canvas_->zoomBy(0.8, canvas_->rect().center()); });
    view->addSeparator();
    view->addAction(tr("Open &all servers"), this, [this] {
        diagramOptions_.open = ServersOpen::All;
        openedByZoom_.clear();
        redraw();
    });
    view->addAction(tr("&Close all servers"), this, [this] {
        diagramOptions_.open = ServersOpen::Listed;
        diagramOptions_.expanded.clear();
        openedByZoom_.clear();
        redraw();
    });
    auto filter = [&](const QString& text, bool DiagramOptions::*field) {
        QAction* a = view->addAction(text);
        a->setCheckable(true);
        a->setChecked(diagramOptions_.*field);
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
        a->setChecked(canvas_->paintOptions().show[std::size_t(k)]);
        QPixmap swatch(12, 12);
        swatch.fill(highlightColour(HighlightKind(k)));
        a->setIcon(QIcon(swatch));
        connect(a, &QAction::toggled, this,
                [this, k](bool on) { canvas_->setHighlightShown(HighlightKind(k), on); });
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
        statusBar()->showMessage(tr("%1 of %2 matches")
                                     .arg(std::find(found.begin(), found.end(), item) - found.begin() + 1)
                                     .arg(found.size()),
                                 4000);
    });
    QMenu* language = view->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(language);
    const QString chosen = chosenLanguage();
    for (const auto& [code, name] : {std::pair{QStringLiteral("system"), tr("As the system")},
                                     std::pair{QStringLiteral("en"), QStringLiteral("English")},
                                     std::pair{QStringLiteral("zh_CN"), QStringLiteral("简体中文")}}) {
        QAction* a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == chosen);
        languages->addAction(a);
        // Queued: the language change rebuilds this very menu.
        connect(
            a, &QAction::triggered, this, [this, code = code] { switchLanguage(code); },
            Qt::QueuedConnection);
    }
    auto* find = new QAction(tr("&Find…"), view);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, search, [search] {
        search->setFocus();
        search->selectAll();
    });
    view->addAction(find);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Check the rack"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K), this,
                   &MainWindow::checkTheRack);
    run->addAction(tr("&Watch a running NCCL job…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), this,
                   &MainWindow::chooseJobWatch);
    run->addAction(tr("Stop watching the NCCL job"), this, &MainWindow::stopWatchingJob);
    run->addAction(tr("&NCCL load run…"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::chooseRun);
    run->addAction(tr("&Inference load run…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this,
                   &MainWindow::chooseLoadRun);
    run->addAction(tr("Stop the inference load run"), inference_->runner(), &LoadRunner::cancel);
    run->addAction(tr("Open saved inference load run…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open saved inference load run"),
                                                              defaultLoadResultsDirectory());
        if (!dir.isEmpty())
            openLoadResults(dir);
    });
    run->addAction(tr("Export inference load requests as CSV…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export requests as CSV"), QString(), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportLoadCsv(path);
    });
    run->addAction(tr("Export inference load report…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the load run's report"), QString(),
                                                          tr("HTML (*.html)"));
        if (!path.isEmpty())
            exportLoadReport(path);
    });
    run->addAction(tr("Clear the inference load comparison"), this, &MainWindow::clearLoadComparison);
    run->addAction(tr("&Stop the run"), this, [this] { runs_->stop(); });
    run->addAction(tr("&Open saved run…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open saved run"),
                                                          defaultResultsDirectory(), tr("Runs (*.rsrun)"));
        if (!path.isEmpty())
            openFiles({path});
    });
}

void MainWindow::chooseFile() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open topologies and fabric sources"), {},
        tr("Topologies, fabrics, sessions, runs and NCCL logs (*.xml *.txt *.json *.conf *.fabric *.cluster "
           "*.rsession *.rsrun *.log);;All files (*)"));
    if (!paths.isEmpty())
        openFiles(paths);
}

void MainWindow::chooseServers() {
    ConnectDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        connectToHosts(dialog.request());
}

void MainWindow::chooseRun() {
    NcclRunDialog dialog(compressHostlist(serverNames_), this);
    if (dialog.exec() == QDialog::Accepted)
        startRun(dialog.choice());
}

void MainWindow::chooseLoadRun() {
    LoadRunDialog dialog(compressHostlist(serverNames_), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString problem;
    if (auto request = dialog.request(&problem))
        startLoadRun(std::move(*request));
}

void MainWindow::chooseExport() {
    ExportDialog dialog(live_->view(), canvas_->paintOptions(), titleBlock(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (auto request = dialog.request(nullptr))
        writeExport(std::move(*request));
}

} // namespace rackscope::gui
