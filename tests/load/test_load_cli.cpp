// Load runs through the real agent and the real CLI: the agent's "load"
// method (bad params refused, records and progress streamed, one run at a
// time, a cancel answered with what was done), and `rackscope-cli load`
// saving as it goes, never saving an API key, reading its results back
// (a cut file too), comparing runs, exporting CSV, and refusing bad options.
#include "gpu/nvml_standin.h"
#include "load_model/load_spec.h"
#include "load_test_server.h"
#include "runs/load_results.h"
#include "tls_front.h"
#include "workspace/session_file.h"
#include "workspace/workspace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <csignal>
#include <cstdlib>

using namespace rackscope;
using rackscope::test::LoadTestServer;
using rackscope::test::TlsFront;

namespace {

struct Cli {
    int status = -1;
    QString out, err;
};

// rackscope-cli `command` with `args`.
Cli cliCommand(const QString& command, const QStringList& args,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RACKSCOPE_CLI), QStringList{command} + args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

Cli cli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    return cliCommand(QStringLiteral("load"), args, env);
}

const Finding* findingCoded(const std::vector<Finding>& findings, const char* code) {
    for (const Finding& f : findings)
        if (f.code == QLatin1String(code))
            return &f;
    return nullptr;
}

class Agent {
public:
    Agent() {
        p_.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("--stdio")});
        p_.waitForStarted();
    }
    ~Agent() {
        p_.closeWriteChannel();
        if (!p_.waitForFinished(10000))
            p_.kill();
    }
    void send(const QByteArray& line) { p_.write(line + '\n'); }
    QJsonObject next(int timeoutMs = 30000) {
        while (!p_.canReadLine())
            if (!p_.waitForReadyRead(timeoutMs))
                return {};
        return QJsonDocument::fromJson(p_.readLine()).object();
    }
    // Everything for `id` up to its result or error.
    std::vector<QJsonObject> until(int id) {
        std::vector<QJsonObject> out;
        for (QJsonObject m = next(); !m.isEmpty(); m = next()) {
            if (m.value("id").toInt(-1) != id)
                continue;
            out.push_back(m);
            if (m.contains("result") || m.contains("error"))
                break;
        }
        return out;
    }

private:
    QProcess p_;
};

QByteArray loadRequest(int id, const rsload::LoadSpec& spec) {
    return QByteArray::fromStdString(
        rsload::Json{{"id", id}, {"method", "load"}, {"params", rsload::toJson(spec)}}.dump());
}

rsload::LoadSpec spec(const LoadTestServer& s, int64_t requests) {
    rsload::LoadSpec x;
    x.url = s.url();
    x.model = "m";
    x.requests = requests;
    x.concurrency = 4;
    x.inputLen = {rsload::LengthDist::Kind::Fixed, 20, 0};
    x.outputLen = {rsload::LengthDist::Kind::Fixed, 4, 0};
    return x;
}

// A report written by --report: well-formed XHTML with the charts named, and nothing fetched from elsewhere.
QString checkedReport(const QString& path, const QStringList& charts) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("no report at ") + path;
    const QString html = QString::fromUtf8(f.readAll());
    QXmlStreamReader xml(html);
    while (!xml.atEnd())
        xml.readNext();
    if (xml.hasError())
        return QStringLiteral("not well-formed: %1 at line %2").arg(xml.errorString()).arg(xml.lineNumber());
    for (const char* outside : {"<script", "<link", "src=", "url(", "@import", "<img", "<iframe"})
        if (html.contains(QLatin1String(outside)))
            return QStringLiteral("it reaches outside itself: ") + QLatin1String(outside);
    for (const QString& id : charts)
        if (!html.contains(QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%1\"").arg(id)))
            return QStringLiteral("no chart ") + id;
    return {};
}

} // namespace

class TestLoadCli : public QObject {
    Q_OBJECT
    LoadTestServer server_{{QStringLiteral("--script"), QStringLiteral("ttft=10;tpot=2")}};

private slots:
    void initTestCase() { QVERIFY(server_.ok()); }

    void theAgentRunsALoadAndStreamsEveryRecord() {
        Agent agent;
        const QJsonObject hello = agent.next();
        QVERIFY(hello.value("capabilities").toArray().contains(QStringLiteral("load")));
        agent.send("{\"id\":1,\"method\":\"load\",\"params\":{\"url\":\"gopher://"
                   "x\",\"model\":\"m\",\"requests\":1}}");
        QCOMPARE(agent.until(1).back().value("error").toObject().value("code").toString(),
                 QStringLiteral("bad-params"));
        agent.send("{\"id\":2,\"method\":\"load\",\"params\":{\"model\":7}}");
        QCOMPARE(agent.until(2).back().value("error").toObject().value("code").toString(),
                 QStringLiteral("bad-params"));

        agent.send(loadRequest(3, spec(server_, 12)));
        agent.send(loadRequest(4, spec(server_, 1))); // one run at a time
        int records = 0, progress = 0;
        bool busy = false;
        QJsonObject result;
        for (QJsonObject m = agent.next(); !m.isEmpty(); m = agent.next()) {
            if (m.value("id").toInt() == 4)
                busy = m.value("error").toObject().value("code").toString() == QLatin1String("busy");
            if (m.value("id").toInt() != 3)
                continue;
            if (m.value("event").toString() == QLatin1String("request")) {
                ++records;
                QCOMPARE(m.value("data").toObject().value("status").toString(), QStringLiteral("ok"));
            }
            if (m.value("event").toString() == QLatin1String("progress"))
                ++progress;
            if (m.contains("result")) {
                result = m.value("result").toObject();
                break;
            }
        }
        QVERIFY(busy);
        QCOMPARE(records, 12);
        QVERIFY(progress >= 1);
        QCOMPARE(result.value("records").toInt(), 12);
        QVERIFY(result.value("http_client").toString().startsWith(QLatin1String("rackscope native")));
    }

    void ctrlCEndsARunUnderAFloodWithinASecond() {
        // Two streams that never end, each token written as fast as the server can: Ctrl+C (and kill -TERM)
        // still end the CLI within a second, with the two requests saved as cancelled.
        for (int signal : {SIGINT, SIGTERM}) {
            QTemporaryDir dir;
            QProcess p;
            p.start(QStringLiteral(RACKSCOPE_CLI),
                    {QStringLiteral("load"), QStringLiteral("--url"), QString::fromStdString(server_.url()),
                     QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--concurrency"),
                     QStringLiteral("2"), QStringLiteral("--requests"), QStringLiteral("2"),
                     QStringLiteral("--header"),
                     QStringLiteral("X-Test-Script: ttft=1;tpot=0;fault=endless@2"),
                     QStringLiteral("--results"), dir.path()});
            QVERIFY(p.waitForStarted(10000));
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(dir.filePath(QStringLiteral("requests.jsonl"))).exists(),
                                     30000); // the run has begun
            QTest::qWait(1500);              // and its flood is under way
            QElapsedTimer clock;
            clock.start();
            ::kill(pid_t(p.processId()), signal);
            QVERIFY(p.waitForFinished(30000));
            QVERIFY2(clock.elapsed() < 1000 + 4000,
                     qPrintable(QString::number(clock.elapsed()))); // a second, and a loaded machine's margin
            QFile records(dir.filePath(QStringLiteral("requests.jsonl")));
            QVERIFY(records.open(QIODevice::ReadOnly));
            QCOMPARE(records.readAll().count("\"status\":\"cancelled\""), qsizetype(2));
        }
    }

    void aCancelledRunAnswersWithWhatItDid() {
        Agent agent;
        agent.next();
        rsload::LoadSpec s = spec(server_, 0);
        s.durationS = 60;
        s.headers = {{"X-Test-Script", "ttft=10;tpot=100"}};
        s.outputLen = {rsload::LengthDist::Kind::Fixed, 50, 0};
        const auto received = [this] { // {"received":N}
            const std::string r = server_.get("/test/requests");
            return std::atoll(r.c_str() + std::min(r.size(), r.find(':') + 1));
        };
        const long long before = received();
        agent.send(loadRequest(5, s));
        QTRY_VERIFY_WITH_TIMEOUT(received() >= before + 4, 30000); // the four requests are in flight
        agent.send("{\"id\":5,\"method\":\"cancel\"}");
        const std::vector<QJsonObject> all = agent.until(5);
        const QJsonObject result = all.back().value("result").toObject();
        QVERIFY(result.value("cancelled").toBool());
        const auto records = std::count_if(all.begin(), all.end(), [](const QJsonObject& m) {
            return m.value("event").toString() == QLatin1String("request");
        });
        QCOMPARE(qint64(records), qint64(result.value("records").toInt()));
        QVERIFY(records >= 4); // the four in flight, each with what it had received
    }

    void theCliSavesAsItGoesAndNeverAKey() {
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("RS_TEST_KEY"), QStringLiteral("sk-very-secret"));
        const QString results = dir.filePath(QStringLiteral("run1"));
        const Cli c = cli({QStringLiteral("--url"),         QString::fromStdString(server_.url()),
                           QStringLiteral("--model"),       QStringLiteral("m"),
                           QStringLiteral("--concurrency"), QStringLiteral("4"),
                           QStringLiteral("--requests"),    QStringLiteral("20"),
                           QStringLiteral("--input-len"),   QStringLiteral("uniform:10-30"),
                           QStringLiteral("--output-len"),  QStringLiteral("6"),
                           QStringLiteral("--api-key-env"), QStringLiteral("RS_TEST_KEY"),
                           QStringLiteral("--slo"),         QStringLiteral("ttft<=500ms"),
                           QStringLiteral("--header"),      QStringLiteral("Cookie: sid=cookie-very-secret"),
                           QStringLiteral("--results"),     results,
                           QStringLiteral("--json")},
                          env);
        QVERIFY2(c.status == 0, qPrintable(c.err));
        const QJsonObject summary = QJsonDocument::fromJson(c.out.toUtf8()).object();
        QCOMPARE(summary.value("completed").toInt(), 20);
        QCOMPARE(summary.value("total_output_tokens").toInt(), 120);
        QCOMPARE(summary.value("goodput_slo").toString(), QStringLiteral("ttft<=500ms"));
        QVERIFY(summary.value("clients").toObject().size() == 1);
        for (const char* f : {"spec.json", "requests.jsonl", "summary.json"})
            QVERIFY2(QFile::exists(results + QLatin1Char('/') + QLatin1String(f)), f);
        for (const char* f : {"spec.json", "requests.jsonl", "summary.json"}) {
            QFile file(results + QLatin1Char('/') + QLatin1String(f));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray saved = file.readAll();
            QVERIFY2(!saved.contains("sk-very-secret") && !saved.contains("cookie-very-secret"), f);
        }
        QFile specFile(results + QStringLiteral("/spec.json"));
        QVERIFY(specFile.open(QIODevice::ReadOnly));
        QVERIFY(specFile.readAll().contains("(redacted)"));

        // a saved run nested 200,000 levels deep: refused with a reason, never a crash
        {
            QTemporaryDir deep;
            QFile spec(deep.filePath(QStringLiteral("spec.json")));
            QVERIFY(spec.open(QIODevice::WriteOnly));
            spec.write("{\"a\":" + QByteArray(200000, '[') + QByteArray(200000, ']') + "}");
            spec.close();
            const Cli refused = cli({QStringLiteral("--open"), deep.path()});
            QVERIFY2(refused.status != 0 && refused.err.contains(QStringLiteral("nested deeper")),
                     qPrintable(refused.err));
        }

        // reopened; then cut mid-line with its summary gone: every whole record is still read
        const Cli open = cli({QStringLiteral("--open"), results});
        QVERIFY2(open.status == 0, qPrintable(open.err));
        QVERIFY(open.out.contains(QStringLiteral("Successful requests:                     20")));
        QFile records(results + QStringLiteral("/requests.jsonl"));
        QVERIFY(records.open(QIODevice::ReadWrite));
        const qint64 size = records.size();
        records.resize(size - 40);
        records.close();
        QFile::remove(results + QStringLiteral("/summary.json"));
        const Cli cut = cli({QStringLiteral("--open"), results, QStringLiteral("--json")});
        QVERIFY2(cut.status == 0, qPrintable(cut.err));
        QVERIFY(cut.err.contains(QStringLiteral("cut short")));
        QCOMPARE(QJsonDocument::fromJson(cut.out.toUtf8()).object().value("completed").toInt(), 19);
        const Cli csv =
            cli({QStringLiteral("--open"), results, QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(csv.out.count(QLatin1Char('\n')), 20); // the header and 19 requests
        const Cli both = cli({QStringLiteral("--open"), results, QStringLiteral("--open"), results});
        QCOMPARE(both.out.count(QLatin1Char('\n')), 3);
    }

    // --cacert is read here and travels with the run: https through a real TLS terminator.
    void httpsTrustsTheGivenCaFile() {
        QTemporaryDir dir;
        TlsFront front(dir.path(), QStringLiteral("front"), server_.port());
        QVERIFY2(front.ok(), qPrintable(front.error()));
        const QString ca = dir.filePath(QStringLiteral("ca.pem"));
        QFile file(ca);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(front.certPem()));
        file.close();
        const QStringList run = {QStringLiteral("--url"),        QString::fromStdString(front.url()),
                                 QStringLiteral("--model"),      QStringLiteral("m"),
                                 QStringLiteral("--requests"),   QStringLiteral("3"),
                                 QStringLiteral("--output-len"), QStringLiteral("4"),
                                 QStringLiteral("--no-save"),    QStringLiteral("--json")};
        const Cli trusted = cli(run + QStringList{QStringLiteral("--cacert"), ca});
        QVERIFY2(trusted.status == 0, qPrintable(trusted.err + trusted.out));
        QCOMPARE(QJsonDocument::fromJson(trusted.out.toUtf8()).object().value("completed").toInt(), 3);
        const Cli untrusted = cli(run);
        QCOMPARE(untrusted.status, 1);
        QCOMPARE(QJsonDocument::fromJson(untrusted.out.toUtf8()).object().value("completed").toInt(), 0);
    }

    void aSweepStopsWhenTheSloBreaks() {
        QTemporaryDir dir;
        // TTFT is 10 ms at any concurrency here; an SLO of 1 ms breaks at the first step
        const Cli c =
            cli({QStringLiteral("--url"), QString::fromStdString(server_.url()), QStringLiteral("--model"),
                 QStringLiteral("m"), QStringLiteral("--requests"), QStringLiteral("8"),
                 QStringLiteral("--output-len"), QStringLiteral("2"), QStringLiteral("--sweep-concurrency"),
                 QStringLiteral("1,2,4"), QStringLiteral("--slo"), QStringLiteral("ttft<=1ms"),
                 QStringLiteral("--results"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(c.status, 0);
        const QJsonDocument d = QJsonDocument::fromJson(c.out.toUtf8());
        QVERIFY(d.isObject()); // one step only
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("step-01/summary.json"))));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("step-02"))));
        QTemporaryDir sweep;
        const Cli all =
            cli({QStringLiteral("--url"), QString::fromStdString(server_.url()), QStringLiteral("--model"),
                 QStringLiteral("m"), QStringLiteral("--requests"), QStringLiteral("4"),
                 QStringLiteral("--output-len"), QStringLiteral("2"), QStringLiteral("--sweep-concurrency"),
                 QStringLiteral("1,2"), QStringLiteral("--slo"), QStringLiteral("ttft<=5000ms"),
                 QStringLiteral("--results"), sweep.path(), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(all.out.toUtf8()).array().size(), 2);
        // the sweep's folder reopened: its steps in order, side by side, each at its concurrency
        const Cli open = cli({QStringLiteral("--open"), sweep.path()});
        QVERIFY2(open.status == 0, qPrintable(open.err));
        const QStringList lines = open.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].contains(QStringLiteral("/step-01")) &&
                lines[1].split(QLatin1Char(' '), Qt::SkipEmptyParts).at(2) == QStringLiteral("1"));
        QVERIFY(lines[2].contains(QStringLiteral("/step-02")) &&
                lines[2].split(QLatin1Char(' '), Qt::SkipEmptyParts).at(2) == QStringLiteral("2"));
        QString error;
        const auto steps = openLoadResults(sweep.path(), &error);
        QVERIFY2(steps, qPrintable(error));
        QCOMPARE(steps->size(), size_t(2));
        QCOMPARE(steps->at(1).sweep, std::string("concurrency"));
        QCOMPARE(steps->at(1).sweepValue.value_or(0), 2.0);
    }

    // By default the CLI scrapes the base URL's /metrics: the run's summary has the server's section, its
    // samples are saved beside the requests, and --open shows them again. A server without /metrics says
    // why, and --server-metrics off scrapes nothing.
    void theServersMetricsAreSummarisedSavedAndReopened() {
        LoadTestServer vllm(
            {"--metrics",
             QStringLiteral(RACKSCOPE_INCOMING_FIXTURES_DIR
                            "/vllm-metrics_v1-engine-qwen2.5-coder-32b-gpu-cache-usage-perc_excerpt.prom"),
             "--kv-slots", "2", "--script", "ttft=400;tpot=10"});
        QVERIFY(vllm.ok());
        QTemporaryDir dir;
        const QStringList run{"--url",         QString::fromStdString(vllm.url()),
                              "--model",       "m",
                              "--concurrency", "4",
                              "--requests",    "8",
                              "--output-len",  "4",
                              "--results",     dir.path()};
        const Cli c = cli(run);
        QVERIFY2(c.status == 0, qPrintable(c.err));
        QVERIFY2(c.out.contains("Server metrics (vLLM)"), qPrintable(c.out));
        QVERIFY2(c.out.contains(QRegularExpression("Peak KV-cache use \\(%\\): +100\\.0")),
                 qPrintable(c.out));
        QVERIFY2(c.out.contains(QRegularExpression("Peak requests waiting: +2\\n")), qPrintable(c.out));
        QVERIFY2(c.out.contains(QRegularExpression("Preemptions during the run: +\u2014")),
                 qPrintable(c.out));
        QFile samples(dir.filePath("server_metrics.jsonl"));
        QVERIFY(samples.open(QIODevice::ReadOnly));
        QVERIFY(samples.readAll().count("\"server\":\"vLLM\"") >= 2);
        QFile summaryFile(dir.filePath("summary.json"));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const QJsonObject m =
            QJsonDocument::fromJson(summaryFile.readAll()).object().value("server_metrics").toObject();
        QCOMPARE(m.value("peak_kv_cache_use").toDouble(), 1.0);
        QCOMPARE(m.value("failed_scrapes").toInt(), 0);
        QVERIFY(m.value("preemptions").isNull());

        const Cli reopened = cli({"--open", dir.path()});
        QVERIFY2(reopened.status == 0, qPrintable(reopened.err));
        QVERIFY2(reopened.out.contains(QRegularExpression("Peak KV-cache use \\(%\\): +100\\.0")),
                 qPrintable(reopened.out));
        const QString html = dir.filePath("report.html");
        const Cli report = cli({"--open", dir.path(), "--report", html});
        QVERIFY2(report.status == 0, qPrintable(report.err));
        const QString problem = checkedReport(html, {"ttft-histogram", "tpot-histogram", "itl-histogram",
                                                     "request-timeline", "server-metrics"});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        QVERIFY(page.readAll().contains("Peak KV-cache use 100.0 %"));

        QTemporaryDir plainDir;
        const Cli plain = cli({"--url", QString::fromStdString(server_.url()), "--model", "m", "--requests",
                               "2", "--results", plainDir.path()});
        QVERIFY2(plain.status == 0, qPrintable(plain.err)); // the load ran all the same
        QVERIFY2(
            plain.out.contains(QRegularExpression("Unavailable: +http://\\S+/metrics answered HTTP 404")),
            qPrintable(plain.out));
        QTemporaryDir offDir;
        const Cli off = cli({"--url", QString::fromStdString(server_.url()), "--model", "m", "--requests",
                             "2", "--server-metrics", "off", "--results", offDir.path()});
        QVERIFY2(off.status == 0, qPrintable(off.err));
        QVERIFY(!off.out.contains("Server metrics"));
        QVERIFY(!QFileInfo::exists(offDir.filePath("server_metrics.jsonl")));
    }

    // --workers local: this machine's GPUs (the NVML stand-in replaying nvidia-smi's CSV) read every half
    // second during the run, saved, summed up per GPU, printed, reopened and reported; every value one the
    // GPU gave, in its order; a worker without a driver says why, and the run itself is unaffected.
    void theWorkersGpusAreSampledSavedAndReopened() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("gpus.csv");
        QVERIFY(test::writeStandinCsv(csv));
        const QString results = dir.filePath("run");
        const QStringList run{"--url",         QString::fromStdString(server_.url()),
                              "--model",       "m",
                              "--concurrency", "2",
                              "--requests",    "300",
                              "--output-len",  "4",
                              "--workers",     "local",
                              "--results",     results};
        const Cli c = cli(run, test::withStandin(csv)); // 150 rounds of about 16 ms: over 2 s
        QVERIFY2(c.status == 0, qPrintable(c.err));
        QVERIFY2(c.out.contains("Workers' GPUs (NVML)"), qPrintable(c.out));
        QVERIFY2(c.out.contains("local GPU0 (NVIDIA H100 80GB HBM3)"), qPrintable(c.out));
        QVERIFY2(c.out.contains(QRegularExpression("Memory used peak \\(MiB\\): +\\d+ of 81559")),
                 qPrintable(c.out));

        QString error;
        const auto saved = readLoadResults(results, &error);
        QVERIFY2(saved, qPrintable(error));
        QVERIFY(saved->problems.isEmpty());
        QVERIFY(saved->gpuSamples.size() >= 2);
        int lastRow = -1;
        double peak = 0;
        for (const rsload::GpuSample& s : saved->gpuSamples) {
            QCOMPARE(s.host, std::string("local"));
            QVERIFY(s.error.empty());
            QCOMPARE(s.gpus.size(), size_t(2));
            const int row = test::standinRowOf(0, *s.gpus[0].utilPct);
            QVERIFY2(row >= lastRow, qPrintable(QString::number(*s.gpus[0].utilPct)));
            lastRow = row;
            QCOMPARE(*s.gpus[0].powerW, *test::standinRows()[size_t(row)].powerW);
            QVERIFY(!s.gpus[1].powerW); // [N/A] stays unknown
            if (s.tS >= 0)
                peak = std::max(peak, *s.gpus[0].utilPct);
        }
        const QJsonObject summary = QJsonDocument::fromJson([&] {
                                        QFile f(results + "/summary.json");
                                        f.open(QIODevice::ReadOnly);
                                        return f.readAll();
                                    }())
                                        .object();
        const QJsonArray gpus = summary.value("gpus").toObject().value("gpus").toArray();
        QCOMPARE(gpus.size(), 2);
        QCOMPARE(gpus[0].toObject().value("peak_util_pct").toDouble(), peak);
        QCOMPARE(gpus[0].toObject().value("mem_total_mib").toDouble(), test::kStandinMemTotalMiB);
        QVERIFY(gpus[1].toObject().value("mean_power_w").isNull());
        QVERIFY(summary.value("gpus").toObject().value("unread").toObject().isEmpty());

        const Cli reopened = cli({"--open", results});
        QVERIFY2(reopened.out.contains("local GPU1 (NVIDIA H100 80GB HBM3)"), qPrintable(reopened.out));
        const QString html = dir.filePath("report.html");
        QVERIFY(cli({"--open", results, "--report", html}).status == 0);
        const QString problem = checkedReport(html, {"gpu-use"});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // A worker whose NVML has no driver behind it: the reason, once, and the load's figures as ever.
        QProcessEnvironment noDriver = test::withStandin(csv);
        noDriver.remove("RACKSCOPE_NVML_STANDIN");
        const QString bare = dir.filePath("bare");
        const Cli b =
            cli({"--url", QString::fromStdString(server_.url()), "--model", "m", "--requests", "40",
                 "--concurrency", "2", "--output-len", "4", "--workers", "local", "--results", bare},
                noDriver);
        QVERIFY2(b.status == 0, qPrintable(b.err));
        QVERIFY2(b.out.contains(QRegularExpression("local: +not read: nvmlInit_v2 failed with NVML error 9")),
                 qPrintable(b.out));
        QFile lines(bare + "/gpu_metrics.jsonl");
        QVERIFY(lines.open(QIODevice::ReadOnly));
        QCOMPARE(lines.readAll().count("\n"), qsizetype(1));
    }

    // The load waits for each worker's first GPU reading (or its failure): a worker whose SSH server accepts
    // and never speaks holds the start, nothing is sent meanwhile, and Ctrl+C then ends the run at once.
    void theLoadWaitsForTheWorkersFirstReading() {
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        QTemporaryDir dir;
        QFile config(dir.filePath("ssh_config"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("Host silent\n  HostName 127.0.0.1\n  Port %1\n")
                         .arg(silent.serverPort())
                         .toUtf8());
        config.close();
        LoadTestServer server({"--script", "ttft=1;tpot=1"});
        QVERIFY(server.ok());
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI),
                {"load", "--url", QString::fromStdString(server.url()), "--model", "m", "--requests", "4",
                 "--workers", "silent", "--ssh-config", config.fileName(), "--known-hosts",
                 dir.filePath("kh"), "--ssh-timeout", "60", "--no-save"});
        QVERIFY(p.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(silent.hasPendingConnections(), 30000); // the worker is being reached
        QTest::qWait(500);
        QCOMPARE(server.get("/test/requests"), std::string(R"({"received":0})")); // and the load waits
        QElapsedTimer clock;
        clock.start();
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(clock.elapsed() < 1000 + 4000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardError().contains("cancelled"));
        QCOMPARE(server.get("/test/requests"), std::string(R"({"received":0})"));
    }

    // The test server's capacity model: each other stream in flight adds ttft-per-stream to a request's TTFT.
    // By concurrency (a closed loop: c - 1 others in flight) the SLO ttft_p99<=1100ms holds up to
    // c = 1 + (1100 - 100) / 20 = 51: its steps are large beside what a loaded machine adds to every TTFT
    // (tens of ms under ASan with other tests beside it, which made 5 ms steps find 45). By rate (near-even
    // arrivals, 5 tokens 10 ms apart), Little's law gives L = rate x (100 + 4 L + 40) ms in flight, and
    // ttft_p99<=300ms holds up to L = 50: 50 / 0.34 s = 147/s (a steeper model saturates slower than a step
    // lasts). The capacity found is within 10 % of each, and the best step was run twice.
    void theCapacityAtAnSloIsFound() {
        struct Case {
            const char* script;
            QStringList options;
            double truth;
        };
        const Case cases[] = {
            {"ttft=100;tpot=5;ttft-per-stream=20",
             {"--by", "concurrency", "--capacity-start", "32", "--slo", "ttft_p99<=1100ms", "--step-duration",
              "3"},
             51},
            {"ttft=100;tpot=10;ttft-per-stream=4",
             {"--capacity-start", "40", "--burstiness", "100", "--slo", "ttft_p99<=300ms", "--step-duration",
              "3"},
             50 / 0.34},
        };
        for (const Case& c : cases) {
            LoadTestServer model({"--script", c.script});
            QVERIFY(model.ok());
            // A stall of the loaded machine within one step breaks it below the model's capacity (CI saw a
            // 120/s step's TPOT p99 at 56 ms where the model gives 10): a search that misses is run once
            // more, and a wrong search misses both times.
            std::unique_ptr<QTemporaryDir> dir;
            QJsonObject j;
            double found = 0;
            QString tries;
            for (int attempt = 0; attempt < 2; ++attempt) {
                dir = std::make_unique<QTemporaryDir>();
                const Cli run = cli(QStringList{"--url", QString::fromStdString(model.url()), "--model", "m",
                                                "--input-len", "16", "--output-len", "5", "--find-capacity",
                                                "--server-metrics", "off", "--results", dir->path()} +
                                    c.options);
                QVERIFY2(run.status == 0, qPrintable(run.err));
                QVERIFY2(run.out.contains(QStringLiteral("Capacity at ttft_p99<=")), qPrintable(run.out));
                QFile file(dir->filePath("capacity.json"));
                QVERIFY(file.open(QIODevice::ReadOnly));
                j = QJsonDocument::fromJson(file.readAll()).object();
                found = j.value("capacity").toDouble();
                tries += run.out;
                if (std::abs(found - c.truth) <= 0.1 * c.truth)
                    break;
            }
            QVERIFY2(std::abs(found - c.truth) <= 0.1 * c.truth,
                     qPrintable(
                         QStringLiteral("found %1, the model's %2: %3").arg(found).arg(c.truth).arg(tries)));
            QVERIFY(j.value("finished").toBool());
            const QJsonArray steps = j.value("steps").toArray();
            QVERIFY(steps.last().toObject().value("repeat").toBool());
            QCOMPARE(steps.last().toObject().value("value").toDouble(), found);
            for (const QJsonValue& step : steps)
                if (!step.toObject().value("held").toBool())
                    QVERIFY(step.toObject()
                                .value("slo_broken")
                                .toString()
                                .startsWith(QStringLiteral("ttft p99 ")));
            QVERIFY(QFileInfo::exists(dir->filePath(
                QStringLiteral("step-%1/summary.json").arg(steps.size(), 2, 10, QLatin1Char('0')))));
            // the saved search reopens as a sweep: one run per step
            const Cli reopened = cli({"--open", dir->path()});
            QVERIFY2(reopened.status == 0, qPrintable(reopened.err));
            QCOMPARE(reopened.out.count(QStringLiteral("step-")), qsizetype(steps.size()));
            // the report draws the search's curve, a point a step
            const Cli report = cli({"--open", dir->path(), "--report", dir->filePath("report.html")});
            QVERIFY2(report.status == 0, qPrintable(report.err));
            const QString problem =
                checkedReport(dir->filePath("report.html"), {"capacity-curve", "ttft-histogram"});
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QFile page(dir->filePath("report.html"));
            QVERIFY(page.open(QIODevice::ReadOnly));
            const QByteArray html = page.readAll();
            const QByteArray curve = html.mid(html.indexOf("id=\"capacity-curve\""));
            QCOMPARE(curve.left(curve.indexOf("</svg>")).count("<circle"), qsizetype(steps.size()));
        }
        const Cli noSlo = cli({"--url", "http://127.0.0.1:9/v1", "--model", "m", "--find-capacity"});
        QCOMPARE(noSlo.status, 2);
        QVERIFY2(noSlo.err.contains(QStringLiteral("needs the --slo")), qPrintable(noSlo.err));
        const Cli badSlo = cli({"--url", "http://127.0.0.1:9/v1", "--model", "m", "--slo", "ttft_p100<=5ms"});
        QCOMPARE(badSlo.status, 2);
        QVERIFY2(badSlo.err.contains(QStringLiteral("METRIC_pNN")), qPrintable(badSlo.err));
    }

    void aTraceFileIsReplayed() {
        QTemporaryDir dir;
        QFile trace(dir.filePath("mooncake.jsonl"));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        for (int i = 0; i < 30; ++i)
            trace.write(
                QStringLiteral(
                    "{\"timestamp\": %1, \"input_length\": %2, \"output_length\": 3, \"hash_ids\": [1]}\n")
                    .arg(i * 20)
                    .arg(40 + i)
                    .toUtf8());
        trace.write("{\"timestamp\": oops}\n");
        trace.close();
        const Cli run = cli({"--url", QString::fromStdString(server_.url()), "--model", "m<&>'\"", "--trace",
                             trace.fileName(), "--server-metrics", "off", "--results", dir.filePath("run"),
                             "--report", dir.filePath("run.html")});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("replaying 30 requests (Mooncake trace) over 0.6 s")),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("1 lines skipped (line 31: not a JSON object)")),
                 qPrintable(run.err));
        QVERIFY2(run.out.contains(QRegularExpression("Successful requests: +30\\n")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QRegularExpression("Total input tokens: +1635\\n")),
                 qPrintable(run.out)); // 40..69
        QFile spec(dir.filePath("run/spec.json"));
        QVERIFY(spec.open(QIODevice::ReadOnly));
        const QJsonObject saved = QJsonDocument::fromJson(spec.readAll()).object();
        QCOMPARE(saved.value("trace_count").toInt(), 30);
        QVERIFY(!saved.contains("trace"));
        // the report of the run just made, the model's name escaped
        const QString problem =
            checkedReport(dir.filePath("run.html"), {"ttft-histogram", "request-timeline"});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const Cli noSave =
            cli({"--url", "http://127.0.0.1:9/v1", "--model", "m", "--no-save", "--report", "x.html"});
        QCOMPARE(noSave.status, 2);
        QFile bad(dir.filePath("bad.csv"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("when,what\n1,2\n");
        bad.close();
        const Cli refused =
            cli({"--url", QString::fromStdString(server_.url()), "--model", "m", "--trace", bad.fileName()});
        QCOMPARE(refused.status, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("is not a header naming an arrival time")),
                 qPrintable(refused.err));
    }

    void badOptionsAreRefusedWithTheReason() {
        const QString url = QString::fromStdString(server_.url());
        const QList<QPair<QStringList, QString>> cases = {
            {{QStringLiteral("--url"), url}, QStringLiteral("model")},
            {{QStringLiteral("--url"), url, QStringLiteral("--model"), QStringLiteral("m"),
              QStringLiteral("--input-len"), QStringLiteral("lots")},
             QStringLiteral("--input-len")},
            {{QStringLiteral("--url"), url, QStringLiteral("--model"), QStringLiteral("m"),
              QStringLiteral("--slo"), QStringLiteral("fast")},
             QStringLiteral("--slo")},
            {{QStringLiteral("--url"), QStringLiteral("ftp://x"), QStringLiteral("--model"),
              QStringLiteral("m")},
             QStringLiteral("http://")},
            {{QStringLiteral("--url"), url, QStringLiteral("--model"), QStringLiteral("m"),
              QStringLiteral("--api-key-env"), QStringLiteral("RS_NOT_SET_ANYWHERE")},
             QStringLiteral("not set")},
            {{QStringLiteral("--open"), QStringLiteral("/nonexistent/run")}, QStringLiteral("cannot read")},
            {{QStringLiteral("--url"), url, QStringLiteral("--model"), QStringLiteral("m"),
              QStringLiteral("--cacert"), QStringLiteral("/nonexistent/ca.pem")},
             QStringLiteral("--cacert: cannot read")},
            {{QStringLiteral("--url"), url, QStringLiteral("--model"), QStringLiteral("m"),
              QStringLiteral("--insecure")},
             QStringLiteral("https://")},
        };
        for (const auto& [args, says] : cases) {
            const Cli c = cli(args + QStringList{QStringLiteral("--no-save")});
            QVERIFY2(c.status != 0, qPrintable(args.join(' ')));
            QVERIFY2(c.err.contains(says), qPrintable(c.err));
        }
        // every request failing is a failed run
        const Cli refused = cli({QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:1/v1"),
                                 QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--requests"),
                                 QStringLiteral("2"), QStringLiteral("--no-save")});
        QCOMPARE(refused.status, 1);
        QVERIFY(refused.out.contains(QStringLiteral("connect:")));
        // no request measured a latency: unknown, not 0.00
        QVERIFY2(refused.out.contains(QRegularExpression(QStringLiteral("Mean TTFT \\(ms\\):\\s+—\n"))) &&
                     refused.out.contains(QRegularExpression(QStringLiteral("P99 E2EL \\(ms\\):\\s+—\n"))),
                 qPrintable(refused.out));
    }

    // A results folder is a workspace input like a topology: `inspect` and the window open it, judge it (a
    // run whose every request failed says why, in its requests' own words) and a session keeps it.
    void aSavedLoadRunIsAWorkspaceInput() {
        QTemporaryDir dir;
        const QString refused = dir.filePath(QStringLiteral("refused")),
                      good = dir.filePath(QStringLiteral("good"));
        cli({QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:1/v1"), QStringLiteral("--model"),
             QStringLiteral("m"), QStringLiteral("--requests"), QStringLiteral("3"),
             QStringLiteral("--results"), refused});
        const Cli ran = cli({QStringLiteral("--url"), QString::fromStdString(server_.url()),
                             QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--requests"),
                             QStringLiteral("8"), QStringLiteral("--results"), good});
        QVERIFY2(ran.status == 0, qPrintable(ran.err));

        const Cli inspected =
            cliCommand(QStringLiteral("inspect"), {refused, good, QStringLiteral("--json")});
        QVERIFY2(inspected.status == 0, qPrintable(inspected.err));
        const QJsonArray loadRuns =
            QJsonDocument::fromJson(inspected.out.toUtf8()).object().value("load_runs").toArray();
        QCOMPARE(loadRuns.size(), 2);
        const QJsonObject failedRun = loadRuns[0].toObject();
        QCOMPARE(failedRun.value("location").toString(), refused);
        QCOMPARE(failedRun.value("steps").toArray().first().toObject().value("failed").toInt(), 3);
        const QJsonObject why = failedRun.value("findings").toArray().first().toObject();
        QCOMPARE(why.value("code").toString(), QString::fromLatin1(codes::kLoadRunFailed));
        QVERIFY2(
            why.value("message").toString().contains(QStringLiteral("every one of its 3 requests failed")) &&
                why.value("message").toString().contains(QStringLiteral("connect")),
            qPrintable(why.value("message").toString()));
        QCOMPARE(
            loadRuns[1].toObject().value("steps").toArray().first().toObject().value("completed").toInt(), 8);
        QVERIFY(loadRuns[1].toObject().value("findings").toArray().isEmpty());
        const Cli text = cliCommand(QStringLiteral("inspect"), {refused});
        QVERIFY2(text.out.contains(QStringLiteral("== saved inference load run")) &&
                     text.out.contains(QStringLiteral("load-run-failed")),
                 qPrintable(text.out));

        // In the workspace, and through a saved session, with the same findings; opened again, it replaces
        // itself.
        Workspace ws;
        QVERIFY(ws.open({refused, good}, Workspace::Mode::Replace).empty());
        QVERIFY(ws.open({refused}, Workspace::Mode::Add).empty());
        QCOMPARE(ws.loadRuns().size(), size_t(2));
        QVERIFY(!ws.empty());
        const SessionLoad session = loadSession(sessionToJson(ws.session()), QStringLiteral("s.rsession"));
        QVERIFY2(session.error.isEmpty(), qPrintable(session.error));
        const LoadedSources back = importSources(session.sources);
        QCOMPARE(back.loadRuns.size(), size_t(2));
        const SavedLoadRun& reopened =
            back.loadRuns[0].location == refused ? back.loadRuns[0] : back.loadRuns[1];
        QCOMPARE(reopened.steps.front().records.size(), size_t(3));
        QVERIFY(findingCoded(reopened.findings, codes::kLoadRunFailed));

        // A folder cut short (no summary, its last record half written) keeps what it has and says so.
        const QString cut = dir.filePath(QStringLiteral("cut"));
        QVERIFY(QDir().mkpath(cut));
        QVERIFY(QFile::copy(good + QStringLiteral("/spec.json"), cut + QStringLiteral("/spec.json")));
        QFile in(good + QStringLiteral("/requests.jsonl")), out(cut + QStringLiteral("/requests.jsonl"));
        QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
        const QByteArray records = in.readAll();
        out.write(records.left(records.size() - 20));
        out.close();
        LoadedSources opened = loadSources({cut});
        QCOMPARE(opened.loadRuns.size(), size_t(1));
        QCOMPARE(opened.loadRuns[0].steps.front().records.size(), size_t(7));
        const Finding* incomplete = findingCoded(opened.loadRuns[0].findings, codes::kLoadRunCutShort);
        QVERIFY(incomplete);
        QVERIFY2(incomplete->message.contains(QStringLiteral("line 8 is cut short")) &&
                     incomplete->message.contains(QStringLiteral("no summary")),
                 qPrintable(incomplete->message));
        QVERIFY(opened.failed.empty());
        // The packed source, as a session holds it, cut anywhere or with random bytes: a run or a clear
        // error, never a crash (this test runs under ASan/UBSan too).
        QString unread;
        const auto goodFiles = readLoadResultsFiles(good, &unread);
        QVERIFY2(goodFiles, qPrintable(unread));
        const QByteArray packed = packLoadResults(*goodFiles);
        QVERIFY(looksLikePackedLoadResults(packed));
        QRandomGenerator rng(7);
        for (int round = 0; round < 300; ++round) {
            QByteArray bad = packed.left(qsizetype(rng.bounded(int(packed.size()) + 1)));
            for (int flips = round % 4; flips > 0 && !bad.isEmpty(); --flips)
                bad[qsizetype(rng.bounded(int(bad.size())))] = char(rng.bounded(256));
            QString error;
            const auto run = savedLoadRun(bad, QStringLiteral("fuzzed"), &error);
            QVERIFY(run || !error.isEmpty());
            QVERIFY(!error.contains(QLatin1Char('\n')));
        }
        // A folder that holds no run is said so.
        QVERIFY(
            loadSources({dir.path()}).failed.front().message.contains(QStringLiteral("holds no load run")));
    }
};

QTEST_GUILESS_MAIN(TestLoadCli)
#include "test_load_cli.moc"
