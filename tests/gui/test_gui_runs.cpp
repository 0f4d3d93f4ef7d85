// The load-run console in the real window: the dialog shows the exact
// command before anything runs and refuses a spec that cannot; a run
// through real mpirun (with a stand-in replaying a real nccl-tests run)
// fills the chart row by row with throttled redraws and is saved; a saved
// run reopens as a baseline; the line rate comes from the topology shown.
#include "gui_test_support.h"
#include "test_support.h"

#include "main_window.h"
#include "nccl_run_dialog.h"
#include "runs_panel.h"
#include "transport/shell_quote.h"

#include <QApplication>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

class TestGuiRuns : public QObject {
    Q_OBJECT
    QTemporaryDir data_;

private slots:
    void initTestCase() {
        qputenv("XDG_DATA_HOME", data_.path().toUtf8()); // the results folder, and nothing of the user's
        qputenv("XDG_CONFIG_HOME", data_.path().toUtf8());
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }

    void dialogShowsTheCommandAndRefusesBadSpecs() {
        gui::NcclRunDialog dialog(QStringLiteral("node[1-2]"));
        QString error;
        const gui::RunChoice c = dialog.choice(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(c.spec.hosts, (QStringList{QStringLiteral("node1"), QStringLiteral("node2")}));
        QCOMPARE(c.spec.environment.front(),
                 (std::pair{QStringLiteral("NCCL_DEBUG"), QStringLiteral("INFO")}));
        QCOMPARE(dialog.commandLine(), QStringLiteral("$ ") + shellCommand(launchArgv(c.spec)).line);
        QLineEdit* hosts = dialog.findChildren<QLineEdit*>().first();
        hosts->setText(QStringLiteral("node[1-"));
        QVERIFY(dialog.commandLine().startsWith(QStringLiteral("(cannot run")));
        QString shown;
        QTimer::singleShot(100, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                shown = box->text();
                box->accept();
            }
        });
        dialog.accept();
        QVERIFY(shown.contains(QStringLiteral("cannot start")));
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
    }

    void liveRunFillsTheChartAndIsSaved() {
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty(),
                 "mpirun (Debian package openmpi-bin) is needed");
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openTopology(fixture(QStringLiteral("nccl-topo-oci-bm-gpu-h100-8-kubernetes.xml"))));
        QVERIFY(settled(w));
        gui::RunsPanel* panel = w.runsPanel();
        QCOMPARE(panel->chart()->data().lineRate().busbwGBs, std::optional(400.0)); // 16 x 200 Gb/s

        const QString replayed = QStringLiteral("nccl-tests-all_reduce-2node-16xH200-oci-roce.txt");
        RunRequest request;
        request.spec.hosts = {QStringLiteral("localhost")};
        request.spec.processesPerHost = 1;
        request.spec.binary = QStringLiteral(RACKSCOPE_TESTS_DIR "/runs/replay_nccl_tests.sh");
        request.spec.environment.emplace_back(QStringLiteral("REPLAY_FILE"), fixture(replayed));
        request.spec.environment.emplace_back(QStringLiteral("REPLAY_DELAY"), QStringLiteral("0.15"));
        request.resultsDirectory = defaultResultsDirectory();
        QSignalSpy finished(panel, &gui::RunsPanel::runFinished);
        std::vector<int> redrawsAtRow;
        panel->startRun(request);
        // Rows arrive while the run goes on, and the chart follows them.
        QElapsedTimer clock;
        clock.start();
        size_t rows = 0;
        while (finished.isEmpty() && clock.elapsed() < 60000) {
            QTest::qWait(20);
            const auto& series = panel->chart()->data().series();
            if (!series.empty() && series.back().sizes.size() != rows) {
                rows = series.back().sizes.size();
                redrawsAtRow.push_back(panel->chart()->redraws());
            }
        }
        QCOMPARE(finished.size(), 1);
        const NcclTestsRun real = parseNcclTestsOutput(fixtureBytes(replayed));
        QCOMPARE(panel->chart()->data().series().back().sizes.size(), real.rows.size());
        QVERIFY2(redrawsAtRow.size() >= 3, "the chart filled in as rows arrived");
        QTest::qWait(250);
        QVERIFY(panel->chart()->summary().contains(QStringLiteral("% of the line rate")));
        const auto outcome = finished.first().first().value<RunOutcome>();
        QCOMPARE(outcome.exitStatus, 0);
        QVERIFY(outcome.record.startsWith(defaultResultsDirectory()));
        QTreeWidgetItem* item = panel->runList()->topLevelItem(0);
        QCOMPARE(item->text(1), QStringLiteral("finished"));
        QCOMPARE(item->text(3), outcome.record);
        QVERIFY(panel->console()->toPlainText().contains(QStringLiteral("$ mpirun --host localhost:1")));

        // Reopened as the baseline: the same points beside the live run. Its rows come in one burst of
        // changes, drawn once: redraws are throttled.
        const int redrawsBefore = panel->chart()->redraws();
        const quint64 revisionBefore = panel->chart()->data().revision();
        QVERIFY(panel->openRecord(outcome.record, true));
        QVERIFY(panel->chart()->data().revision() >= revisionBefore + real.rows.size());
        QTRY_COMPARE(panel->chart()->redraws(), redrawsBefore + 1);
        QTest::qWait(250);
        QCOMPARE(panel->chart()->redraws(), redrawsBefore + 1);
        const auto& series = panel->chart()->data().series();
        QCOMPARE(series.back().role, SeriesRole::Baseline);
        QCOMPARE(series.back().busbw, series.front().busbw);
        QCOMPARE(panel->runList()->topLevelItemCount(), 2);
        // A hunt's group: listed when it starts, its saved rows charted when it ends.
        GroupRun group;
        group.hosts = {QStringLiteral("n1"), QStringLiteral("n3")};
        group.busbw = 486.49;
        group.record = outcome.record;
        panel->groupStarted(0, group.hosts, QStringLiteral("mpirun --host n1:1,n3:1 all_reduce_perf"));
        QCOMPARE(panel->runList()->topLevelItem(2)->text(1), QStringLiteral("running"));
        panel->groupFinished(group);
        QCOMPARE(panel->runList()->topLevelItem(2)->text(1), QStringLiteral("finished"));
        QCOMPARE(panel->runList()->topLevelItem(2)->text(2), QStringLiteral("486.49"));
        QCOMPARE(series.back().name, QStringLiteral("n1+n3"));
        QCOMPARE(series.back().role, SeriesRole::Earlier);
        QCOMPARE(series.back().sizes.size(), real.rows.size());
        QCOMPARE(panel->runList()->topLevelItemCount(), 3);
        // Its findings read in the window's language, and again in another when the language changes.
        GroupRun flagged = group;
        flagged.record.clear();
        flagged.findings = {makeFinding(Severity::Warning, QStringLiteral("test"), {},
                                        {QT_TRANSLATE_NOOP("rackscope", "%1 port %2 is not active"),
                                         {QStringLiteral("sw1"), QStringLiteral("7")}})};
        panel->groupFinished(flagged);
        QTreeWidgetItem* row =
            panel->findingList()->topLevelItem(panel->findingList()->topLevelItemCount() - 1);
        QCOMPARE(row->text(2), QStringLiteral("n1+n3: sw1 port 7 is not active"));
        QTranslator zh;
        QVERIFY(zh.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("rackscope"),
                        QStringLiteral("_"), QStringLiteral(":/i18n")));
        QApplication::installTranslator(&zh);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
        QCOMPARE(row->text(2), QStringLiteral("n1+n3: sw1 的端口 7 未激活"));
        QApplication::removeTranslator(&zh);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
        QCOMPARE(row->text(2), QStringLiteral("n1+n3: sw1 port 7 is not active"));
        // A file that is no run gets a dialog, and the list keeps what it had.
        QTimer::singleShot(100, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->accept();
        });
        QVERIFY(!panel->openRecord(fixture(replayed)));
        QCOMPARE(panel->runList()->topLevelItemCount(), 3);
    }
};

QTEST_MAIN(TestGuiRuns)
#include "test_gui_runs.moc"
