// Run → Watch a running NCCL job: the job's RAS asked every few seconds beside the window, each answer
// placed on what the window shows, its ranks marked on the picture and kept in the NCCL job dock.
#include "job_watch_panel.h"
#include "main_window.h"

#include <QDir>
#include <QDockWidget>
#include <QMessageBox>

namespace rackscope::gui {

void MainWindow::chooseJobWatch() {
    JobWatchDialog dialog(serverNames_, this);
    if (dialog.exec() == QDialog::Accepted)
        watchNcclJob(dialog.request());
}

bool MainWindow::watchNcclJob(const JobWatchRequest& r) {
    if (r.node.isEmpty())
        return false;
    stopWatchingJob();
    const bool direct = isThisMachine(r.node);
    Fleet* fleet = nullptr;
    QString error;
    FleetOptions options = fleetOptions(&error); // its agent is not needed: only the SSH settings
    jobConfig_ = options.config;
    if (!direct && fleet_ && serverNames_.contains(r.node)) {
        fleet = fleet_.get(); // the connection the servers already have
    } else if (!direct) {
        if (error.contains(QLatin1String("jump host"))) {
            QMessageBox::warning(this, tr("rackscope"), tr("Cannot watch the job: %1").arg(error));
            return false;
        }
        jobFleet_ = std::make_unique<Fleet>(std::move(options));
        fleet = jobFleet_.get();
    }
    const int timeoutMs = std::max(5000, request_.timeoutS * 1000);
    const RasPortOpener open = rasPortOpener(fleet, r.node, quint16(r.port), timeoutMs);
    NcclRasQuery query;
    query.verbose = r.verbose;
    query.timeoutMs = timeoutMs;
    const QString where = QStringLiteral("%1:%2").arg(r.node).arg(r.port);
    jobNode_ = r.node;
    jobWatch_->setWatching(where, true);
    showDock(jobDock_);
    log(r.node, tr("watching the NCCL job through RAS at %1, every %2 s").arg(where).arg(r.intervalS));
    ras_.start(open, where, query, int(r.intervalS * 1000));
    return true;
}

void MainWindow::stopWatchingJob() {
    if (!ras_.running())
        return;
    ras_.stop();
    jobFleet_.reset(); // its connection was the watch's alone
    jobWatch_->setWatching({}, false);
    live_->setJobMarks({});
}

void MainWindow::showJobSnapshot(const RasSnapshot& s) {
    std::optional<RasVerdict> verdict;
    if (s.answer.report) {
        const WorkspaceViewPtr view = live_->view();
        const SshConfig& config = jobConfig_;
        verdict = placeNcclRas(*s.answer.report, view ? view->workspace : Workspace{},
                               [&config](const QString& h) { return config.resolve(h).hostName; });
        live_->setJobMarks(jobMarks(*verdict));
    }
    jobWatch_->addSnapshot(s, verdict);
    emit jobSnapshotShown();
}

} // namespace rackscope::gui
