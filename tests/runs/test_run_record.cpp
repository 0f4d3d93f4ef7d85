// Saved runs: written line by line, reopened whole or cut anywhere (a crash
// loses nothing already written), refused when they are something else,
// exported as CSV, compared size by size; and the CLI's results command.
#include "test_support.h"

#include "runs/counter_watch.h"
#include "runs/run_compare.h"
#include "runs/run_findings.h"
#include "runs/run_record.h"
#include "workspace/workspace.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char kRun[] = "nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt";

// A record of the real run, as the runner writes it.
QString record(const QString& dir, const QByteArray& output, const QString& label, int exitStatus = 0) {
    RunRecorder r;
    RunMeta meta;
    meta.label = label;
    meta.command = QStringLiteral("mpirun --host a:8,b:8 -np 16 all_reduce_perf -b 8 -e 8G");
    meta.hosts = {QStringLiteral("a"), QStringLiteral("b")};
    meta.environment = {{QStringLiteral("NCCL_DEBUG"), QStringLiteral("INFO")}};
    if (!r.open(dir, meta).isEmpty())
        return {};
    NcclTestsParser parser;
    parser.onRow = [&](const NcclTestsRow& row) { r.row(row); };
    for (const QByteArray& line : output.split('\n')) {
        r.line(QString::fromUtf8(line));
        parser.feed(line + '\n');
    }
    r.counters(QStringLiteral("a"), QStringLiteral("before"), QJsonObject{{"seq", 0}});
    r.finish(exitStatus, exitStatus ? QStringLiteral("the run ended with exit status 1") : QString());
    return r.path();
}

} // namespace

class TestRunRecord : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        QTemporaryDir dir;
        const QByteArray output = fixtureBytes(QLatin1String(kRun));
        const QString path = record(dir.path(), output, QStringLiteral("all_reduce on a,b"));
        QVERIFY(path.endsWith(QStringLiteral(".rsrun")));
        QString error;
        const RunRecord rec = loadRunRecord(path, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const NcclTestsRun real = parseNcclTestsOutput(output);
        QCOMPARE(rec.run.rows.size(), real.rows.size());
        QCOMPARE(rec.run.avgBusbw, real.avgBusbw);
        QCOMPARE(rec.meta.hosts, (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(rec.meta.environment.front().second, QStringLiteral("INFO"));
        QCOMPARE(rec.exitStatus, std::optional(0));
        QCOMPARE(rec.countersBefore.size(), size_t(1));
        QVERIFY(rec.problems.isEmpty());
        QCOMPARE(listRunRecords(dir.path()), QStringList{path});
        // CSV: a header, then one line per size with the row's numbers.
        const QList<QByteArray> csv = runRowsToCsv(rec.run).trimmed().split('\n');
        QCOMPARE(csv.size(), int(real.rows.size()) + 1);
        QVERIFY(csv[0].startsWith("size,count,type,redop,root,oop_time_us"));
        const QList<QByteArray> last = csv.last().split(',');
        QCOMPARE(last[0].toLongLong(), real.rows.back().size);
        QCOMPARE(last[7].toDouble(), real.rows.back().outOfPlace.busbw);
    }

    void cutAnywhere() {
        QTemporaryDir dir;
        const QString path = record(dir.path(), fixtureBytes(QLatin1String(kRun)), QStringLiteral("cut"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray whole = f.readAll();
        f.close();
        QRandomGenerator rng(9);
        const qsizetype firstLine = whole.indexOf('\n') + 1;
        size_t previous = 0;
        // Up to the end entry's last brace: without only its newline, the end line is whole and rightly read.
        for (qsizetype cut = firstLine; cut < whole.size() - 1; cut += qsizetype(rng.bounded(400)) + 1) {
            QFile w(path);
            QVERIFY(w.open(QIODevice::WriteOnly | QIODevice::Truncate));
            w.write(whole.left(cut));
            w.close();
            QString error;
            const RunRecord rec = loadRunRecord(path, &error);
            QVERIFY(error.isEmpty());
            QVERIFY(rec.run.rows.size() >= previous); // never fewer rows from more of the file
            previous = rec.run.rows.size();
            QVERIFY(!rec.exitStatus); // the end entry is the last line: it is gone
            if (whole.at(cut - 1) != '\n')
                QVERIFY(rec.problems.isEmpty() || rec.problems.last().contains(QStringLiteral("cut short")));
        }
        QVERIFY(previous > 0);
        // Everything but the last newline: the end entry is whole, and read.
        QFile w(path);
        QVERIFY(w.open(QIODevice::WriteOnly | QIODevice::Truncate));
        w.write(whole.left(whole.size() - 1));
        w.close();
        QString error;
        QCOMPARE(loadRunRecord(path, &error).exitStatus, std::optional(0));
    }

    void notARecord() {
        QString error;
        loadRunRecord(fixture(QLatin1String(kRun)), &error);
        QVERIFY(error.contains(QStringLiteral("not a rackscope run record")));
        loadRunRecord(QStringLiteral("/nonexistent/x.rsrun"), &error);
        QVERIFY(error.contains(QStringLiteral("cannot open")));
        QTemporaryDir dir;
        QFile junk(dir.filePath(QStringLiteral("junk.rsrun")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        QRandomGenerator rng(4);
        for (int i = 0; i < 5000; ++i)
            junk.putChar(char(rng.bounded(256)));
        junk.close();
        error.clear();
        loadRunRecord(junk.fileName(), &error);
        QVERIFY(!error.isEmpty());
        // Damage inside a record is named by its line; the rest is kept.
        const QString path = record(dir.path(), fixtureBytes(QLatin1String(kRun)), QStringLiteral("damaged"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray text = f.readAll();
        text.insert(text.indexOf('\n') + 1, "{\"entry\":\"wormhole\"}\nnot json\n");
        f.seek(0);
        f.write(text);
        f.close();
        error.clear();
        const RunRecord rec = loadRunRecord(path, &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(rec.problems.size(), 2);
        QVERIFY(rec.problems[0].contains(QStringLiteral("wormhole")));
        QCOMPARE(rec.run.rows.size(), parseNcclTestsOutput(fixtureBytes(QLatin1String(kRun))).rows.size());
    }

    // A saved run is an input like a topology: opened, it is judged (how it ended, the counters that rose);
    // saved in a session it comes back with the same findings; a record cut before its end says so.
    void aSavedRunIsAWorkspaceInput() {
        QTemporaryDir dir;
        const QString path = writeRunRecord(
            dir.path(), QStringLiteral("all_reduce on a,b"), {QStringLiteral("a"), QStringLiteral("b")},
            QLatin1String(kRun), {QStringLiteral("a"), QStringLiteral("ib/mlx5_2/1/symbol_error"), 5, 17},
            127, QStringLiteral("bash: line 1: all_reduce_perf: command not found"));
        QVERIFY(!path.isEmpty());

        const auto lines = [](const Workspace& ws) {
            QStringList out;
            for (const WorkspaceFinding& f : ws.findings())
                out << f.host + QLatin1Char('|') + f.finding.code + QLatin1Char('|') + f.finding.message;
            return out;
        };
        Workspace ws;
        QVERIFY(ws.open({path}, Workspace::Mode::Replace).empty());
        QCOMPARE(ws.runs().size(), size_t(1));
        QCOMPARE(ws.runs().front().record.run.rows.size(),
                 parseNcclTestsOutput(fixtureBytes(QLatin1String(kRun))).rows.size());
        const QStringList judged = lines(ws);
        QVERIFY2(judged.contains(QStringLiteral("|run-failed|\"all_reduce on a,b\" failed: bash: line 1: "
                                                "all_reduce_perf: command not found")),
                 qPrintable(judged.join('\n')));
        QVERIFY2(judged.contains(QStringLiteral(
                     "a|run-counter-errors|a: ib/mlx5_2/1/symbol_error rose by 12 during the run")),
                 qPrintable(judged.join('\n')));
        QVERIFY(ws.diagramInput().runFindings.size() >= 2);
        // Opened again, it replaces itself.
        QVERIFY(ws.open({path}, Workspace::Mode::Add).empty());
        QCOMPARE(ws.runs().size(), size_t(1));
        QCOMPARE(ws.sources().size(), size_t(1));

        const QString session = dir.filePath(QStringLiteral("with-run.rsession"));
        QFile out(session);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(sessionToJson(ws.session()));
        out.close();
        Workspace reopened;
        QVERIFY(reopened.open({session}, Workspace::Mode::Replace).empty());
        QCOMPARE(reopened.runs().size(), size_t(1));
        QCOMPARE(lines(reopened), judged);

        // Cut before its end: the rows that arrived, and a word that the end is missing.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const QByteArray whole = f.readAll();
        QVERIFY(f.resize(whole.lastIndexOf("{\"entry\":\"end\"")));
        f.close();
        Workspace cut;
        QVERIFY(cut.open({path}, Workspace::Mode::Replace).empty());
        QVERIFY(lines(cut).join('\n').contains(
            QStringLiteral("|run-cut-short|The record of \"all_reduce on a,b\" "
                           "ends before the run did")));
        QVERIFY(!lines(cut).join('\n').contains(QStringLiteral("run-failed")));
    }

    // nccl-tests' own data check: rows with a non-zero #wrong make an error finding.
    void wrongResultsAreAnError() {
        NcclTestsRun run = parseNcclTestsOutput(fixtureBytes(QLatin1String(kRun)));
        QVERIFY(!run.rows.empty());
        QVERIFY(runFindings(QStringLiteral("x"), RunEnding{0, {}}, run, {}, {}).empty());
        run.rows.back().inPlace.wrong = 3;
        const std::vector<Finding> f = runFindings(QStringLiteral("x"), RunEnding{0, {}}, run, {}, {});
        QCOMPARE(f.size(), size_t(1));
        QCOMPARE(f[0].code, QLatin1String(codes::kRunWrongResults));
        QCOMPARE(f[0].severity, Severity::Error);
        QVERIFY(f[0].message.contains(QStringLiteral("counted 3 wrong")));
        // The footer's total, where there is one, is nccl-tests' own count.
        run.outOfBounds = 5;
        QVERIFY(
            resultFindings(QStringLiteral("x"), run).front().message.contains(QStringLiteral("counted 5")));
        // A run its starter cancelled is not a failure of the machines.
        QVERIFY(runFindings(QStringLiteral("x"), std::nullopt, {}, {}, {}).empty());
    }

    void countersFromTheRealAgent() {
        // Two samples of this machine's counters from its own agent, 200 ms apart.
        QProcess agent;
        agent.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("--stdio")});
        QVERIFY(agent.waitForStarted(10000));
        agent.write("{\"id\":1,\"method\":\"sample\",\"params\":{\"interval_ms\":200,\"count\":2}}\n");
        std::vector<QJsonObject> samples;
        QElapsedTimer clock;
        clock.start();
        while (samples.size() < 2 && clock.elapsed() < 20000) {
            if (!agent.canReadLine() && !agent.waitForReadyRead(1000))
                continue;
            while (agent.canReadLine()) {
                const QJsonObject o = QJsonDocument::fromJson(agent.readLine()).object();
                if (o.value("event").toString() == QLatin1String("sample"))
                    samples.push_back(o.value("data").toObject());
            }
        }
        agent.closeWriteChannel();
        agent.waitForFinished(5000);
        QCOMPARE(samples.size(), size_t(2));
        const std::vector<CounterChange> changes =
            counterChanges(QStringLiteral("here"), samples[0], samples[1]);
        QVERIFY(!changes.empty());
        const QJsonObject before = samples[0].value("counters").toObject(),
                          after = samples[1].value("counters").toObject();
        for (const CounterChange& c : changes) {
            const qint64 x = after.value(c.counter).toObject().value("value").toInteger(),
                         y = before.value(c.counter).toObject().value("value").toInteger();
            if (x >= y)
                QCOMPARE(c.delta, std::optional<qint64>(x - y));
            else
                QVERIFY(!c.delta && c.note.contains(QStringLiteral("went back")));
        }
        // Names as the kernel gives them.
        QCOMPARE(counterKind(QStringLiteral("ib/mlx5_0/1/symbol_error")), CounterKind::Error);
        QCOMPARE(counterKind(QStringLiteral("ib/mlx5_0/1/hw_counters/local_ack_timeout_err")),
                 CounterKind::Error);
        QCOMPARE(counterKind(QStringLiteral("ib/mlx5_0/1/hw_counters/rp_cnp_handled")),
                 CounterKind::Congestion);
        QCOMPARE(counterKind(QStringLiteral("ethtool/eth2/rx_prio3_pause")), CounterKind::Congestion);
        QCOMPARE(counterKind(QStringLiteral("ib/mlx5_0/1/port_xmit_data")), CounterKind::Traffic);
        QCOMPARE(counterKind(QStringLiteral("net/eth0/rx_bytes")), CounterKind::Traffic);
        // Rising errors warn, congestion informs, traffic says nothing; a counter that went back is not a
        // rise.
        const QJsonObject b{
            {"counters", QJsonObject{{"ib/mlx5_2/1/symbol_error", QJsonObject{{"value", 5}}},
                                     {"ib/mlx5_2/1/hw_counters/np_cnp_sent", QJsonObject{{"value", 100}}},
                                     {"ib/mlx5_2/1/port_rcv_errors", QJsonObject{{"value", 9}}},
                                     {"net/eth0/rx_bytes", QJsonObject{{"value", 1}}}}}};
        const QJsonObject a{
            {"counters", QJsonObject{{"ib/mlx5_2/1/symbol_error", QJsonObject{{"value", 17}}},
                                     {"ib/mlx5_2/1/hw_counters/np_cnp_sent", QJsonObject{{"value", 400}}},
                                     {"ib/mlx5_2/1/port_rcv_errors", QJsonObject{{"value", 2}}},
                                     {"net/eth0/rx_bytes", QJsonObject{{"value", 9000}}}}}};
        const std::vector<Finding> f = counterFindings(counterChanges(QStringLiteral("n7"), b, a));
        QCOMPARE(f.size(), size_t(2));
        QCOMPARE(f[0].code, QLatin1String(codes::kRunCounterCongestion));
        QCOMPARE(f[1].code, QLatin1String(codes::kRunCounterErrors));
        QVERIFY(f[1].message.contains(QStringLiteral("symbol_error rose by 12")));
        QCOMPARE(f[1].subjects, (QStringList{QStringLiteral("n7"), QStringLiteral("n7/mlx5_2")}));
    }

    void compareAndTheCli() {
        QTemporaryDir dir;
        const QByteArray output = fixtureBytes(QLatin1String(kRun));
        // The same run at half the bus bandwidth, the way the replay stand-in slows a host.
        QByteArray halved;
        for (const QByteArray& line : output.split('\n')) {
            const QList<QByteArray> w = line.simplified().split(' ');
            bool number = false;
            w.value(0).toLongLong(&number);
            if (!number || w.size() < 11 || line.contains("NCCL")) {
                halved += line + '\n';
                continue;
            }
            QByteArray row;
            for (qsizetype i = 0; i < w.size(); ++i) {
                const qsizetype fromEnd = w.size() - i;
                const bool bandwidth = fromEnd == 7 || fromEnd == 6 || fromEnd == 3 || fromEnd == 2;
                row += (bandwidth ? QByteArray::number(w[i].toDouble() / 2, 'f', 2) : w[i]) + ' ';
            }
            halved += row + '\n';
        }
        const QString a = record(dir.path(), output, QStringLiteral("baseline"));
        const QString b = record(dir.path(), halved, QStringLiteral("today"), 1);
        QString error;
        const std::vector<SizeComparison> sizes =
            compareRuns(loadRunRecord(a, &error).run, loadRunRecord(b, &error).run);
        QCOMPARE(sizes.size(), parseNcclTestsOutput(output).rows.size());
        QVERIFY(qAbs(*sizes.back().ratio - 0.5) < 0.01);
        QCOMPARE(*peakBusbw(loadRunRecord(a, &error).run),
                 parseNcclTestsOutput(output).rows.back().outOfPlace.busbw);

        auto cli = [](const QStringList& args, int* code) {
            QProcess p;
            p.start(QStringLiteral(RACKSCOPE_CLI), QStringList{QStringLiteral("results")} + args);
            p.waitForFinished(30000);
            *code = p.exitCode();
            return p.readAllStandardOutput();
        };
        int code = -1;
        const QJsonArray list =
            QJsonDocument::fromJson(
                cli({QStringLiteral("list"), dir.path(), QStringLiteral("--json")}, &code))
                .array();
        QCOMPARE(code, 0);
        QCOMPARE(list.size(), 2);
        QStringList endings;
        for (const QJsonValue& v : list)
            endings << v.toObject().value("ending").toString();
        QVERIFY2(endings.contains(QStringLiteral("finished")) &&
                     endings.contains(QStringLiteral("the run ended with exit status 1")),
                 qPrintable(endings.join('|')));
        const QJsonObject shown =
            QJsonDocument::fromJson(cli({QStringLiteral("show"), b, QStringLiteral("--json")}, &code))
                .object();
        QCOMPARE(code, 0);
        QCOMPARE(shown.value("exit_status").toInt(), 1);
        QCOMPARE(shown.value("rows").toArray().size(), int(sizes.size()));
        const QByteArray csv = cli({QStringLiteral("show"), a, QStringLiteral("--csv")}, &code);
        QCOMPARE(code, 0);
        QCOMPARE(csv.count('\n'), int(sizes.size()) + 1);
        const QJsonObject compared =
            QJsonDocument::fromJson(cli({QStringLiteral("compare"), a, b, QStringLiteral("--json")}, &code))
                .object();
        QCOMPARE(code, 0);
        QVERIFY(qAbs(compared.value("sizes").toArray().last().toObject().value("ratio").toDouble() - 0.5) <
                0.01);
        cli({QStringLiteral("show"), fixture(QLatin1String(kRun))}, &code);
        QCOMPARE(code, 2);
    }
};

QTEST_GUILESS_MAIN(TestRunRecord)
#include "test_run_record.moc"
