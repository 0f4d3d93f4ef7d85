// Run → Watch a running NCCL job in the window: the RAS stand-in (real captures, a job that is well and
// then has two ranks ahead of the rest on node07) is asked every half second; the NCCL job dock keeps a
// timeline of the answers and shows the ranks with where they run and what to look at next; the canvas
// marks node07's GPUs while they are named, and nothing once the watch stops.
#include "gui_test_support.h"
#include "runs/ras_standin.h"
#include "test_support.h"

#include "job_watch_panel.h"
#include "topology_canvas.h"

#include <QApplication>
#include <QDockWidget>
#include <QListWidget>
#include <QSignalSpy>
#include <QTranslator>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

namespace {

std::vector<const Highlight*> jobMarks(gui::MainWindow& w) {
    std::vector<const Highlight*> out;
    for (const Highlight& h : w.canvas()->diagram().highlights)
        if (h.kind == HighlightKind::JobRank)
            out.push_back(&h);
    return out;
}

} // namespace

class TestGuiJobWatch : public QObject {
    Q_OBJECT
private slots:
    void theWatchFollowsTheJob() {
        RasStandin ras(
            {QStringLiteral("--text"),
             incoming(QStringLiteral(
                 "ncclras-text_32node-256gpu-running-ok-while-pytorch-watchdog-timeout_nccl2.26.2.txt")) +
                 QLatin1Char(',') +
                 incoming(QStringLiteral("ncclras-text_4node-32gpu-allgather-mismatch_nccl2.26.2.txt")),
             QStringLiteral("--replace"), QStringLiteral("10.137.190.124=node07")});
        QVERIFY(ras.port());
        gui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.openDemo();
        QVERIFY(settled(w));
        QSignalSpy shown(&w, &gui::MainWindow::jobSnapshotShown);
        QVERIFY(w.watchNcclJob({QStringLiteral("localhost"), ras.port(), 0.5, false}));
        gui::JobWatchPanel* panel = w.jobWatchPanel();
        QVERIFY(panel->parentWidget()->isVisible());
        while (shown.size() < 3)
            QVERIFY(shown.wait(30000));
        QVERIFY(settled(w));
        QVERIFY(panel->timeline()->count() >= 3);
        QVERIFY2(panel->timeline()->item(0)->text().contains(QStringLiteral("no rank missing")),
                 qPrintable(panel->timeline()->item(0)->text()));
        QVERIFY(panel->timeline()->item(1)->text().contains(QStringLiteral("1 group(s) of ranks named")));
        // The latest answer is shown: the ranks on node07, with what to look at next.
        QTreeWidget* verdict = panel->verdict();
        QTreeWidgetItem* group = nullptr;
        for (int i = 0; i < verdict->topLevelItemCount(); ++i)
            if (verdict->topLevelItem(i)->text(0).startsWith(QStringLiteral("ranks 12-13 on node07")))
                group = verdict->topLevelItem(i);
        QVERIFY(group);
        QVERIFY(group->text(0).contains(QStringLiteral("GPUs 4-5")));
        QVERIFY(group->childCount() >= 1);
        // On the canvas: at cluster scale node07's card; opened, its GPU4 and GPU5 (CUDA devices 4 and 5).
        const auto marked = [&w] {
            QStringList ids;
            for (const Highlight* h : jobMarks(w))
                for (int i : h->items)
                    ids << w.canvas()->diagram().items[size_t(i)].id;
            ids.sort();
            return ids;
        };
        QCOMPARE(marked(), QStringList{QStringLiteral("host:node07")});
        w.diagramOptions().open = ServersOpen::All;
        w.redraw();
        QVERIFY(settled(w));
        QCOMPARE(marked(), (QStringList{QStringLiteral("node07/GPU4"), QStringLiteral("node07/GPU5")}));
        // Choosing the group selects its server's GPU.
        emit verdict->itemClicked(group, 0);
        QCOMPARE(w.canvas()->diagram().items[size_t(w.canvas()->selected())].id,
                 QStringLiteral("node07/GPU4"));
        if (const QString dir = qEnvironmentVariable("RACKSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
            w.grab().save(dir + QStringLiteral("/job-watch.png"));
        // The first answer can be read again while the watch goes on.
        panel->timeline()->setCurrentRow(0);
        QVERIFY(verdict->topLevelItem(verdict->topLevelItemCount() - 1)
                    ->text(0)
                    .contains(QStringLiteral("No rank is missing")));
        w.stopWatchingJob();
        QVERIFY(settled(w));
        QVERIFY(jobMarks(w).empty());
    }

    // In Simplified Chinese: the dock, and the verdict's own sentences (NCCL's words stay NCCL's).
    void speaksSimplifiedChinese() {
        QTranslator zh;
        QVERIFY(zh.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("rackscope"),
                        QStringLiteral("_"), QStringLiteral(":/i18n")));
        QApplication::installTranslator(&zh);
        RasStandin ras(
            {QStringLiteral("--text"),
             incoming(QStringLiteral("ncclras-text_4node-32gpu-allgather-mismatch_nccl2.26.2.txt")),
             QStringLiteral("--replace"), QStringLiteral("10.137.190.124=node07")});
        QVERIFY(ras.port());
        gui::MainWindow w;
        w.openDemo();
        QVERIFY(settled(w));
        QSignalSpy shown(&w, &gui::MainWindow::jobSnapshotShown);
        QVERIFY(w.watchNcclJob({QStringLiteral("localhost"), ras.port(), 0.5, false}));
        QVERIFY(shown.wait(30000));
        gui::JobWatchPanel* panel = w.jobWatchPanel();
        QCOMPARE(qobject_cast<QDockWidget*>(panel->parentWidget())->windowTitle(),
                 QStringLiteral("NCCL 作业"));
        QString texts;
        for (int i = 0; i < panel->verdict()->topLevelItemCount(); ++i)
            texts += panel->verdict()->topLevelItem(i)->text(0) + QLatin1Char('\n');
        QVERIFY2(texts.contains(QStringLiteral("rank 12-13（node07，GPU 4-5，位于 6 台叶交换机下）：")),
                 qPrintable(texts));
        w.stopWatchingJob();
        QApplication::removeTranslator(&zh);
    }

    // A node where nothing answers: each answer says so, and the window goes on.
    void aNodeWithoutRasSaysWhy() {
        quint16 closed = 0;
        {
            RasStandin gone({});
            closed = gone.port();
        }
        gui::MainWindow w;
        w.show();
        QSignalSpy shown(&w, &gui::MainWindow::jobSnapshotShown);
        QVERIFY(w.watchNcclJob({QStringLiteral("localhost"), closed, 0.5, false}));
        QVERIFY(shown.wait(30000));
        QVERIFY2(w.jobWatchPanel()->summary().contains(QStringLiteral("cannot reach the RAS service")),
                 qPrintable(w.jobWatchPanel()->summary()));
        w.stopWatchingJob();
    }
};

QTEST_MAIN(TestGuiJobWatch)
#include "test_gui_job_watch.moc"
