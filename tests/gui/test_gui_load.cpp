// The window's inference load run (offscreen): the dialog refuses a bad form
// with the reason, and a run against the project's test server fills the
// live charts as it goes (throttled redraws), ends with its summary, and is
// saved where the load results live.
#include "load/load_test_server.h"
#include "load_chart.h"
#include "load_run_dialog.h"
#include "main_window.h"
#include "runs/load_results.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <qcustomplot.h>

using namespace rackscope;
using namespace rackscope::gui;

class TestGuiLoad : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theDialogSaysWhatIsWrong() {
        LoadRunDialog d;
        QString why;
        QVERIFY(!d.request(&why));
        d.urlEdit()->setText(QStringLiteral("http://127.0.0.1:9/v1"));
        QVERIFY(!d.request(&why));
        QVERIFY2(why.contains(QStringLiteral("model")), qPrintable(why));
        d.modelEdit()->setText(QStringLiteral("m"));
        QVERIFY2(d.request(&why), qPrintable(why));
        d.hostsEdit()->setText(QStringLiteral("gpu[3-1]"));
        QVERIFY(!d.request(&why));
        QVERIFY(why.startsWith(QStringLiteral("Servers")));
    }

    void aRunFillsTheChartsAndIsSaved() {
        test::LoadTestServer server({QStringLiteral("--script"), QStringLiteral("ttft=20;tpot=5")});
        QVERIFY(server.ok());
        MainWindow window;
        window.show();
        LoadRunDialog d;
        d.urlEdit()->setText(QString::fromStdString(server.url()));
        d.modelEdit()->setText(QStringLiteral("m"));
        d.requestsBox()->setValue(300);
        QString why;
        auto request = d.request(&why);
        QVERIFY2(request, qPrintable(why));
        request->spec.concurrency = 16;
        request->spec.inputLen = {rsload::LengthDist::Kind::Fixed, 16, 0};
        request->spec.outputLen = {rsload::LengthDist::Kind::Fixed, 40, 0};
        QSignalSpy finished(window.loadRunner(), &LoadRunner::finished);
        window.startLoadRun(*request);
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().last().toString()));
        const LoadTimeline& t = window.loadChart()->timeline();
        size_t completed = 0;
        for (const auto& [key, w] : t.windows()) completed += w.completed;
        QCOMPARE(completed, size_t(300));
        QVERIFY(t.windows().size() >= 2); // over time: a run of several seconds has several windows
        QVERIFY(!t.inFlight().empty());
        QTRY_VERIFY(window.loadChart()->redraws() >= 1);
        QVERIFY(window.loadChart()->redraws() < 40); // throttled: not once per request
        QVERIFY(window.loadChart()->latencyPlot()->graph(0)->dataCount() >= 2);
        QVERIFY(window.loadChart()->status().contains(QStringLiteral("300 ok")));
        const LoadStepResult& step = window.loadRunner()->steps().back();
        QString error;
        const auto saved = readLoadResults(step.directory, &error);
        QVERIFY2(saved, qPrintable(error));
        QCOMPARE(saved->records.size(), size_t(300));
        QVERIFY(step.directory.startsWith(defaultLoadResultsDirectory()));
        const auto hist = t.histogram("ttft", 10);
        size_t n = 0;
        for (const auto& [x, c] : hist) n += c;
        QCOMPARE(n, size_t(300));
    }
};

QTEST_MAIN(TestGuiLoad)
#include "test_gui_load.moc"
