// The window's inference load run (offscreen): the dialog refuses a bad form
// with the reason, and a run against the project's test server fills the
// live charts as it goes (throttled redraws), ends with its summary, and is
// saved where the load results live; a saved run opens again (cut short too)
// into the charts and the comparison, exports as CSV, and a folder that is
// not a run gets a dialog and changes nothing.
#include "gpu/nvml_standin.h"
#include "gui_test_support.h"
#include "load/load_test_server.h"
#include "load_chart.h"
#include "load_run_dialog.h"
#include "main_window.h"
#include "runs/load_results.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
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
        d.hostsEdit()->clear();
    }

    // The CA file is read when the run is asked for, and travels in the spec; TLS settings need https.
    void theDialogReadsTheCaFile() {
        QTemporaryDir dir;
        LoadRunDialog d;
        QString why;
        d.urlEdit()->setText(QStringLiteral("http://127.0.0.1:9/v1"));
        d.modelEdit()->setText(QStringLiteral("m"));
        d.insecureBox()->setChecked(true);
        QVERIFY(!d.request(&why));
        QVERIFY2(why.contains(QStringLiteral("https://")), qPrintable(why));
        d.urlEdit()->setText(QStringLiteral("https://127.0.0.1:9/v1"));
        QVERIFY2(d.request(&why), qPrintable(why));
        QVERIFY(d.request(&why)->spec.insecure);
        d.insecureBox()->setChecked(false);
        d.caFileEdit()->setText(dir.filePath(QStringLiteral("missing.pem")));
        QVERIFY(!d.request(&why));
        QVERIFY2(why.startsWith(QStringLiteral("CA certificate")), qPrintable(why));
        const QByteArray pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        QFile f(dir.filePath(QStringLiteral("ca.pem")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(pem) == pem.size());
        f.close();
        d.caFileEdit()->setText(f.fileName());
        const auto r = d.request(&why);
        QVERIFY2(r, qPrintable(why));
        QCOMPARE(QByteArray::fromStdString(r->spec.caPem), pem);
    }

    // The engine's own checks (plain C++, shared with the agent and the CLI) reach the dialog in its
    // language.
    void theDialogSaysItInChinese() {
        QTranslator zh;
        QVERIFY(zh.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("rackscope"),
                        QStringLiteral("_"), QStringLiteral(":/i18n")));
        QApplication::installTranslator(&zh);
        LoadRunDialog d;
        QString why;
        d.urlEdit()->setText(QStringLiteral("http://127.0.0.1:9/v1"));
        QVERIFY(!d.request(&why));
        QCOMPARE(why, QStringLiteral("需要模型名（服务端的 --served-model-name）"));
        d.urlEdit()->setText(QStringLiteral("ftp://h/v1"));
        d.modelEdit()->setText(QStringLiteral("m"));
        QVERIFY(!d.request(&why));
        QCOMPARE(why, QStringLiteral("URL 必须以 http:// 或 https:// 开头"));
        QApplication::removeTranslator(&zh);
        QVERIFY(!d.request(&why));
        QCOMPARE(why, QStringLiteral("the URL must start with http:// or https://"));
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
        for (const auto& [key, w] : t.windows())
            completed += w.completed;
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
        for (const auto& [x, c] : hist)
            n += c;
        QCOMPARE(n, size_t(300));
        QCOMPARE(window.loadChart()->comparisonTable()->rowCount(), 1); // a finished run joins the comparison

        // opened again: the same requests in the charts, in flight worked out from the records
        QVERIFY(window.openLoadResults(step.directory));
        size_t reopened = 0;
        for (const auto& [key, w] : t.windows())
            reopened += w.completed;
        QCOMPARE(reopened, size_t(300));
        QVERIFY(!t.inFlight().empty());
        int most = 0;
        for (const auto& [at, open] : t.inFlight())
            most = std::max(most, int(open));
        QVERIFY2(most >= 2 && most <= 16,
                 qPrintable(QString::number(most))); // the run's concurrency bounds it
        QCOMPARE(t.inFlight().back().second, int64_t(0));
        QTableWidget* table = window.loadChart()->comparisonTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, 4)->text(), QStringLiteral("300"));

        // cut mid-line with no summary: every whole record, and a summary from them
        QTemporaryDir copy;
        for (const char* f : {"spec.json", "requests.jsonl"})
            QVERIFY(QFile::copy(step.directory + QLatin1Char('/') + QLatin1String(f),
                                copy.filePath(QLatin1String(f))));
        QFile cut(copy.filePath(QStringLiteral("requests.jsonl")));
        QVERIFY(cut.open(QIODevice::ReadWrite));
        QVERIFY(cut.resize(cut.size() - 30));
        cut.close();
        QVERIFY(window.openLoadResults(copy.path()));
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(2, 4)->text(), QStringLiteral("299"));

        QTemporaryDir out;
        QVERIFY(window.exportLoadCsv(out.filePath(QStringLiteral("all.csv"))));
        QFile csv(out.filePath(QStringLiteral("all.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), qsizetype(1 + 300 + 300 + 299));

        // not a run: a dialog says so, and the comparison is as it was
        QString said;
        QTimer::singleShot(100, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                said = box->text();
                box->accept();
            }
        });
        QVERIFY(!window.openLoadResults(out.path()));
        QVERIFY2(said.contains(QStringLiteral("no load run")), qPrintable(said));
        QCOMPARE(table->rowCount(), 3);
        window.clearLoadComparison();
        QCOMPARE(table->rowCount(), 0);

        // Both runs opened are workspace inputs: a session keeps them, and the window that opens it shows
        // them, the cut one with its finding.
        QVERIFY(test::settled(window));
        QTemporaryDir sessions;
        const QString session = sessions.filePath(QStringLiteral("load.rsession"));
        QVERIFY(window.saveSession(session));
        MainWindow fromSession;
        QVERIFY(fromSession.openTopology(session));
        QVERIFY(test::settled(fromSession));
        QCOMPARE(fromSession.loadChart()->comparisonTable()->rowCount(), 2);
        QVERIFY(fromSession.findingList()
                    ->findItems(QStringLiteral("load-run-cut-short"), Qt::MatchExactly, 1)
                    .size() == 1);
    }

    // The dialog scrapes the endpoint's /metrics by default: the server's KV-cache use and queue are drawn
    // under the TTFT on the same time axis, the status gives their peaks, and a reopened run draws them
    // again.
    void theServersLoadIsChartedBesideTheTtft() {
        test::LoadTestServer server(
            {"--metrics",
             QStringLiteral(RACKSCOPE_INCOMING_FIXTURES_DIR
                            "/sglang-metrics_llama3.1-8b-instruct_docs-example-scrape.prom"),
             "--kv-slots", "4", "--script", "ttft=150;tpot=10"});
        QVERIFY(server.ok());
        MainWindow window;
        window.show();
        LoadRunDialog d;
        d.urlEdit()->setText(QString::fromStdString(server.url()));
        d.modelEdit()->setText(QStringLiteral("m"));
        d.requestsBox()->setValue(24);
        QString why;
        auto request = d.request(&why);
        QVERIFY2(request, qPrintable(why));
        QCOMPARE(request->spec.metricsUrl, rsload::defaultMetricsUrl(server.url()));
        request->spec.concurrency = 6;
        request->spec.outputLen = {rsload::LengthDist::Kind::Fixed, 20, 0};
        QSignalSpy finished(window.loadRunner(), &LoadRunner::finished);
        window.startLoadRun(*request);
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().last().toString()));
        LoadChart* chart = window.loadChart();
        QVERIFY(chart->timeline().server().size() >= 2);
        QTRY_VERIFY(chart->serverPlot()->graph(0)->dataCount() >= 2);
        QVERIFY(!chart->serverPlot()->isHidden()); // shown once a scrape was read
        QCOMPARE(chart->serverPlot()->xAxis->range().lower, chart->latencyPlot()->xAxis->range().lower);
        QCOMPARE(chart->serverPlot()->xAxis->range().upper, chart->latencyPlot()->xAxis->range().upper);
        QVERIFY2(chart->status().contains(QStringLiteral("server KV-cache peak 100 %")),
                 qPrintable(chart->status()));
        QVERIFY2(chart->status().contains(QStringLiteral("queue peak 2")), qPrintable(chart->status()));

        QTemporaryDir out;
        QVERIFY(window.exportLoadReport(out.filePath(QStringLiteral("run.html")))); // Run → Export the report
        QFile report(out.filePath(QStringLiteral("run.html")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        QVERIFY(report.readAll().contains("id=\"server-metrics\""));
        const size_t scraped = chart->timeline().server().size();
        QVERIFY(window.openLoadResults(window.loadRunner()->steps().back().directory));
        QCOMPARE(chart->timeline().server().size(), scraped);

        // the dialog's "off": nothing scraped
        d.metricsEdit()->setText(QStringLiteral("off"));
        QVERIFY(d.request(&why)->spec.metricsUrl.empty());
        // conversations and a trace from the dialog; a file that is no trace says why
        d.turnsBox()->setValue(3);
        QCOMPARE(d.request(&why)->spec.turns, 3);
        d.turnsBox()->setValue(1);
        QTemporaryDir traces;
        QFile trace(traces.filePath(QStringLiteral("azure.csv")));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        trace.write("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n"
                    "2023-11-16 18:15:47.0000000,10,4\n");
        trace.close();
        d.traceEdit()->setText(trace.fileName());
        const auto replay = d.request(&why);
        QVERIFY2(replay, qPrintable(why));
        QCOMPARE(replay->spec.trace.size(), size_t(2));
        QCOMPARE(replay->spec.trace[1].inputLen, int64_t(10));
        d.traceEdit()->setText(traces.filePath(QStringLiteral("missing.csv")));
        QVERIFY(!d.request(&why));
        QVERIFY2(why.startsWith(QStringLiteral("Trace: ")), qPrintable(why));
    }

    // The dialog samples the GPUs of the servers connected unless told otherwise; a run's workers' GPU
    // utilisation is drawn under the TTFT on the same time axis (this machine's, through the NVML stand-in),
    // the status gives it, and a reopened run draws it again.
    void theWorkersGpusAreChartedBesideTheTtft() {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("gpus.csv"));
        QVERIFY(test::writeStandinCsv(csv));
        const QProcessEnvironment env = test::withStandin(csv);
        for (const QString& name :
             {QStringLiteral("LD_LIBRARY_PATH"), QStringLiteral("RACKSCOPE_NVML_STANDIN")})
            qputenv(name.toLatin1(), env.value(name).toUtf8()); // the local agent's environment
        LoadRunDialog connected(QStringLiteral("node[1-4]"));
        connected.urlEdit()->setText(QStringLiteral("http://node1:8000/v1"));
        connected.modelEdit()->setText(QStringLiteral("m"));
        QString why;
        const auto byDefault = connected.request(&why);
        QVERIFY2(byDefault, qPrintable(why));
        QCOMPARE(byDefault->workers.size(), 4); // by default, the servers connected
        connected.workersEdit()->setText(QStringLiteral("node[1-"));
        QVERIFY(!connected.request(&why));
        QVERIFY2(why.startsWith(QStringLiteral("GPUs of: ")), qPrintable(why));

        test::LoadTestServer server({"--script", "ttft=20;tpot=10"});
        QVERIFY(server.ok());
        MainWindow window;
        window.show();
        LoadRunDialog d;
        QVERIFY(d.workersEdit()->text().isEmpty()); // nothing connected: none
        d.urlEdit()->setText(QString::fromStdString(server.url()));
        d.modelEdit()->setText(QStringLiteral("m"));
        d.requestsBox()->setValue(40);
        d.metricsEdit()->setText(QStringLiteral("off"));
        d.workersEdit()->setText(QStringLiteral("local"));
        auto request = d.request(&why);
        QVERIFY2(request, qPrintable(why));
        request->spec.concurrency = 2;
        request->spec.outputLen = {rsload::LengthDist::Kind::Fixed, 8, 0}; // 20 rounds of 90 ms
        QSignalSpy finished(window.loadRunner(), &LoadRunner::finished);
        window.startLoadRun(*request);
        QVERIFY(finished.wait(60000));
        qunsetenv("LD_LIBRARY_PATH");
        qunsetenv("RACKSCOPE_NVML_STANDIN");
        QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().last().toString()));
        LoadChart* chart = window.loadChart();
        QCOMPARE(chart->timeline().gpus().size(), size_t(1));
        QTRY_VERIFY(chart->gpuPlot()->graphCount() == 1 && chart->gpuPlot()->graph(0)->dataCount() >= 2);
        QCOMPARE(chart->gpuPlot()->graph(0)->name(), QStringLiteral("local"));
        QVERIFY(!chart->gpuPlot()->isHidden());
        QCOMPARE(chart->gpuPlot()->xAxis->range().lower, chart->latencyPlot()->xAxis->range().lower);
        QCOMPARE(chart->gpuPlot()->xAxis->range().upper, chart->latencyPlot()->xAxis->range().upper);
        QVERIFY2(chart->status().contains(QStringLiteral("2 GPU(s) of the workers at")),
                 qPrintable(chart->status()));
        const size_t read = chart->timeline().gpus().front().second.size();
        QVERIFY(window.openLoadResults(window.loadRunner()->steps().back().directory));
        QCOMPARE(chart->timeline().gpus().front().second.size(), read);
    }

    // Run → Inference load run with "find the capacity": the search's steps fill the Sweep chart and the
    // status says what it found. The test server's model: each other stream adds 20 ms to the TTFT of 20 ms,
    // so ttft_p99<=130ms holds up to 6 streams, with 10 ms to spare for a loaded machine (and 5 with 30).
    void theDialogFindsTheCapacity() {
        test::LoadTestServer server({"--script", "ttft=20;tpot=2;ttft-per-stream=20"});
        QVERIFY(server.ok());
        MainWindow window;
        window.show();
        LoadRunDialog d;
        d.urlEdit()->setText(QString::fromStdString(server.url()));
        d.modelEdit()->setText(QStringLiteral("m"));
        d.capacityBox()->setCurrentIndex(2); // by concurrency
        QString why;
        QVERIFY(!d.request(&why));
        QVERIFY2(why.contains(QStringLiteral("needs the SLO")), qPrintable(why));
        d.sloEdit()->setText(QStringLiteral("ttft_p99<=130ms"));
        auto request = d.request(&why);
        QVERIFY2(request && request->capacity, qPrintable(why));
        QCOMPARE(int(request->capacity->by), int(CapacitySearch::By::Concurrency));
        request->capacity->start = 4;
        request->capacity->stepS = 1;
        request->spec.outputLen = {rsload::LengthDist::Kind::Fixed, 4, 0};
        QSignalSpy finished(window.loadRunner(), &LoadRunner::finished);
        window.startLoadRun(*request);
        QVERIFY(finished.wait(120000));
        const CapacitySearch* search = window.loadRunner()->capacitySearch();
        QVERIFY(search && search->capacity());
        QVERIFY2(*search->capacity() >= 5 && *search->capacity() <= 6, search->describe().c_str());
        QCOMPARE(window.loadChart()->timeline().steps().size(), search->steps().size());
        QVERIFY2(
            window.loadChart()->status().startsWith(QStringLiteral("Capacity at ttft_p99<=130ms: about")),
            qPrintable(window.loadChart()->status()));
    }

    void aFailedRunSaysWhy() {
        // Nothing listens at the URL: every request fails to connect, and the window says so in its own
        // words, with the latencies unknown rather than 0.
        MainWindow window;
        LoadRunDialog d;
        d.urlEdit()->setText(
            QStringLiteral("http://127.0.0.1:9/v1")); // the discard port: nothing listens here
        d.modelEdit()->setText(QStringLiteral("m"));
        d.requestsBox()->setValue(4);
        QString why;
        auto request = d.request(&why);
        QVERIFY2(request, qPrintable(why));
        QSignalSpy finished(window.loadRunner(), &LoadRunner::finished);
        window.startLoadRun(*request);
        QVERIFY(finished.wait(60000));
        const QString status = window.loadChart()->status();
        QVERIFY2(status.contains(QStringLiteral("0 ok, 4 failed")) &&
                     status.contains(QStringLiteral("connect x4")) &&
                     status.contains(QStringLiteral("TTFT p50 —")),
                 qPrintable(status));
        // reopened from where it was saved, it still says why
        const QString saved = status.section(QStringLiteral("; saved in "), 1).trimmed();
        QVERIFY2(!saved.isEmpty(), qPrintable(status));
        QVERIFY(window.openFiles({saved}));
        QVERIFY(test::settled(window));
        QTRY_VERIFY2(window.loadChart()->status().startsWith(QStringLiteral("Saved run")),
                     qPrintable(window.loadChart()->status()));
        QVERIFY2(window.loadChart()->status().contains(QStringLiteral("failed: connect x4")),
                 qPrintable(window.loadChart()->status()));
    }
};

QTEST_MAIN(TestGuiLoad)
#include "test_gui_load.moc"
