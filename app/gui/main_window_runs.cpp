// Starting the window's load runs: NCCL runs and straggler hunts in the Load runs dock, inference runs in the
// Inference load dock, reaching servers the way the last connection did.
#include "inference_panel.h"
#include "main_window.h"
#include "runs/run_record.h"
#include "runs_panel.h"

#include <QDateTime>
#include <QDockWidget>
#include <QMessageBox>
#include <algorithm>

namespace rackscope::gui {

void MainWindow::startRun(const RunChoice& choice) {
    RunRequest request;
    request.spec = choice.spec;
    request.resultsDirectory = defaultResultsDirectory();
    for (const InspectedHost& h : hosts())
        request.topologies[h.host.name] = h.host;
    QString error;
    const FleetOptions reach = fleetOptions(&error);
    request.ssh = reach.ssh;
    if (!choice.launchHost.isEmpty())
        request.launchHost = reach.config.resolve(choice.launchHost);
    if (choice.counters) {
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("rackscope"), tr("Cannot sample counters: %1").arg(error));
            return;
        }
        request.counters = reach;
    }
    showDock(qobject_cast<QDockWidget*>(runs_->parentWidget()));
    if (!choice.findSlow) {
        runs_->startRun(request);
        return;
    }
    HuntOptions h;
    h.request = request;
    h.schedule = choice.schedule;
    h.rule.lineRateGBs = runs_->chart()->data().lineRate().busbwGBs;
    runs_->startHunt(h);
}

void MainWindow::startLoadRun(LoadRequest request) {
    const bool remoteWorkers =
        std::any_of(request.workers.begin(), request.workers.end(),
                    [](const QString& w) { return w != QLatin1String(GpuSampler::kLocal); });
    if (!request.hosts.isEmpty() || remoteWorkers) {
        QString error;
        request.fleet = fleetOptions(&error);
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("rackscope"), tr("Cannot reach the servers: %1").arg(error));
            return;
        }
    }
    request.resultsDirectory = defaultLoadResultsDirectory() + QLatin1Char('/') +
                               QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                               QStringLiteral("-") +
                               QString::fromStdString(request.spec.model).section(QLatin1Char('/'), -1);
    if (inference_->start(std::move(request)))
        showDock(qobject_cast<QDockWidget*>(inference_->parentWidget()));
}

bool MainWindow::openLoadResults(const QString& directory) {
    if (!inference_->openResults(directory))
        return false;
    live_->open({directory},
                Workspace::Mode::Add); // a workspace input: its findings shown, a session keeps it
    showDock(qobject_cast<QDockWidget*>(inference_->parentWidget()));
    return true;
}

void MainWindow::clearLoadComparison() {
    inference_->clearComparison();
}
bool MainWindow::exportLoadCsv(const QString& path) {
    return inference_->exportCsv(path);
}
bool MainWindow::exportLoadReport(const QString& path) {
    return inference_->exportReport(path);
}

} // namespace rackscope::gui
