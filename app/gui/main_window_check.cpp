// Run → Check the rack: the check of what the window shows, run beside the window, shown in its dock and on
// the servers.
#include "main_window.h"
#include "rack_check_panel.h"
#include "topology_canvas.h"

#include <QApplication>
#include <QDockWidget>
#include <QPointer>
#include <QThreadPool>

namespace rackscope::gui {

bool MainWindow::checkTheRack() {
    const WorkspaceViewPtr view = live_->view();
    showDock(rackCheckDock_);
    if (!view || view->workspace.servers().empty()) {
        rackCheck_->showCheck({});
        return false;
    }
    rackCheck_->setRunning(true);
    QPointer<MainWindow> self(this);
    QThreadPool::globalInstance()->start([view, self] {
        const RackCheck rack = checkRack(view->workspace, CheckOptions{});
        QMetaObject::invokeMethod(qApp, [self, rack] {
            if (self)
                self->showRackCheck(rack);
        });
    });
    return true;
}

void MainWindow::showRackCheck(const RackCheck& rack) {
    rackCheck_->showCheck(rack);
    std::vector<CheckMark> marks;
    for (const ServerCheck& s : rack.servers) {
        if (s.verdict != Verdict::Fail && s.verdict != Verdict::Warn)
            continue;
        QStringList checks;
        for (const CheckResult& c : s.checks)
            if (c.verdict == s.verdict)
                checks << c.id;
        const QString why = s.verdict == Verdict::Fail ? tr("%1 failed the rack check: %2")
                                                       : tr("%1 was warned by the rack check: %2");
        marks.push_back(
            {s.host, s.verdict == Verdict::Fail, why.arg(s.host, checks.join(QStringLiteral(", ")))});
    }
    live_->setCheckMarks(marks);
    log(QString(), tr("rack check: %1").arg(RackCheckPanel::verdictText(rack.verdict())));
    emit rackChecked();
}

void MainWindow::selectCheckSubject(const QString& host, const QString& subject) {
    // A device the item names ("GPU3", "mlx5_0 port 1"), as the canvas draws it on that server; else the
    // server.
    const Diagram& d = canvas_->diagram();
    const QString device = subject.section(QLatin1Char(' '), 0, 0).section(QLatin1Char('/'), 0, 0);
    if (!device.isEmpty()) {
        if (selectItem(host + QLatin1Char('/') + device))
            return;
        for (int i = 0; i < int(d.items.size()); ++i) {
            const DiagramItem& it = d.items[size_t(i)];
            if (it.host == host &&
                (it.label == device || it.detail.split(QLatin1Char(' ')).contains(device))) {
                canvas_->select(i, true);
                return;
            }
        }
    }
    selectItem(QStringLiteral("host:") + host);
}

} // namespace rackscope::gui
