// nccl-tests output of every layout in the fixtures, whole and as it
// streams, checked against the test's own plain reading of each file; bad
// input reported with its line; the CLI's JSON.
#include "test_support.h"

#include "import/launcher_prefix.h"
#include "runs/collectives.h"
#include "runs/nccl_tests_json.h"
#include "runs/nccl_tests_output.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>

using namespace rackscope;
using namespace rackscope::test;

namespace {

// A data row the plain way: not a comment, not NCCL's log, first word a number.
QList<QStringList> plainRows(const QByteArray& text) {
    QList<QStringList> rows;
    for (const QString& line : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
        const QStringList w = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        bool number = false;
        if (!w.isEmpty())
            w[0].toLongLong(&number);
        if (number && !line.contains(QLatin1String("NCCL")))
            rows << w;
    }
    return rows;
}

// The plain rows written out the way nccl-tests' util.cu writes its -J
// report: numbers with %lf, the root as a padded string, bools as strings.
QByteArray jsonReport(const QList<QStringList>& rows, bool truncate = false) {
    QByteArray out =
        "{\"version\":3,\"start_time\":\"2026-12-02 "
        "10:00:00\",\"args\":[\"all_reduce_perf\"],\"env\":[],\"nccl_version\":22705,"
        "\"config\":{\"nthreads\":1,\"ngpus\":1,\"minimum_bytes\":8,\"maximum_bytes\":8589934592,\"step_"
        "factor\":2,"
        "\"warmup_iters\":5,\"iterations\":20,\"aggregated_iterations\":1,\"validation\":1,\"graph\":0,"
        "\"blocking_collectives\":\"false\",\"devices\":[{\"rank\":0,\"group\":0,\"pid\":6899,\"hostname\":"
        "\"node-a\","
        "\"device\":0,\"device_hex\":\"0000:04:00\",\"device_info\":\"NVIDIA H100 80GB "
        "HBM3\"}]},\"results\":[";
    auto pass = [](const QStringList& w, int at) {
        const QByteArray wrong = w[at + 3] == QLatin1String("N/A")
                                     ? QByteArray("null")
                                     : QByteArray::number(w[at + 3].toDouble(), 'f', 6);
        return QString::asprintf("{\"time\":%lf,\"alg_bw\":%lf,\"bus_bw\":%lf,\"nwrong\":%s}",
                                 w[at].toDouble(), w[at + 1].toDouble(), w[at + 2].toDouble(),
                                 wrong.constData())
            .toUtf8();
    };
    for (int i = 0; i < rows.size(); ++i) {
        const QStringList& w = rows[i];
        const int first = int(w.size()) - 8;
        const QString redop = first >= 4 ? w[3] : QStringLiteral("none");
        const int root = first == 5 ? w[4].toInt() : -1;
        out +=
            QString::asprintf(
                "%s{\"size\":%s,\"count\":%s,\"type\":\"%s\",\"redop\":\"%s\",\"root\":\"%6i\",",
                i ? "," : "", qPrintable(w[0]), qPrintable(w[1]), qPrintable(w[2]), qPrintable(redop), root)
                .toUtf8();
        out += "\"out_of_place\":" + pass(w, first) + ",\"in_place\":" + pass(w, first + 4) +
               ",\"actual_iterations\":20,\"experiment_name\":\"\"}";
    }
    if (truncate)
        return out; // the run died here: the report is never closed
    return out + "],\"out_of_bounds\":{\"count\":0,\"okay\":\"true\"},\"average_bus_bandwidth\":{"
                 "\"bandwidth\":123.450000,\"okay\":\"unchecked\"},"
                 "\"errors\":[],\"end_time\":\"2026-12-02 10:05:00\"}";
}

QStringList files() {
    return fixtures(QStringLiteral("nccl-tests-*.txt")) +
           fixtures(QStringLiteral("superbench_nccl-tests_*.log"));
}

} // namespace

class TestNcclTestsOutput : public QObject {
    Q_OBJECT
private slots:
    void everyFixture_data() {
        QTest::addColumn<QString>("file");
        QCOMPARE(files().size(), 6);
        for (const QString& f : files())
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyFixture() {
        QFETCH(QString, file);
        const QByteArray text = fixtureBytes(file);
        const NcclTestsRun run = parseNcclTestsOutput(text);
        QVERIFY2(run.diagnostics.empty(),
                 run.diagnostics.empty() ? "" : qPrintable(run.diagnostics.front().message));
        const QList<QStringList> plain = plainRows(text);
        QCOMPARE(int(run.rows.size()), int(plain.size()));
        for (int i = 0; i < plain.size(); ++i) {
            const QStringList& w = plain[i];
            const NcclTestsRow& r = run.rows[size_t(i)];
            QCOMPARE(r.size, w[0].toLongLong());
            QCOMPARE(r.count, w[1].toLongLong());
            QCOMPARE(r.outOfPlace.timeUs, w[w.size() - 8].toDouble());
            QCOMPARE(r.outOfPlace.busbw, w[w.size() - 6].toDouble());
            QCOMPARE(r.inPlace.busbw, w[w.size() - 2].toDouble());
        }
        QCOMPARE(int(run.ranks.size()), int(text.count("Rank ")));
        for (size_t i = 0; i < run.ranks.size(); ++i)
            QCOMPARE(run.ranks[i].rank, int(i));
        if (const qsizetype at = text.indexOf("# Avg bus bandwidth"); at >= 0) {
            const QByteArray value = text.mid(at).split('\n').first().split(':').last().trimmed();
            QCOMPARE(run.avgBusbw, std::optional<double>(value.toDouble()));
        } else {
            QVERIFY(!run.avgBusbw);
        }
    }

    void streamsInAnyPieces() {
        for (const QString& file : files()) {
            const QByteArray text = fixtureBytes(file);
            const NcclTestsRun whole = parseNcclTestsOutput(text);
            QRandomGenerator rng(quint32(qHash(file)));
            NcclTestsParser p;
            std::vector<qint64> seen;
            p.onRow = [&](const NcclTestsRow& r) { seen.push_back(r.size); };
            for (qsizetype at = 0; at < text.size();) {
                const qsizetype n = 1 + qsizetype(rng.bounded(60));
                p.feed(text.mid(at, n));
                at += n;
            }
            p.finish();
            QCOMPARE(p.run().rows.size(), whole.rows.size());
            QCOMPARE(seen.size(), whole.rows.size());
            QCOMPARE(p.run().ranks.size(), whole.ranks.size());
            QCOMPARE(p.run().avgBusbw, whole.avgBusbw);
        }
    }

    // nccl-tests' own numbers carry its busbw factor: busbw / algbw is 2(n-1)/n for all_reduce,
    // (n-1)/n for alltoall, 1 for sendrecv, with n the ranks it listed.
    void busBandwidthFactorsMatchTheRealRuns() {
        const std::vector<std::pair<QString, QString>> runs{
            {QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"),
             QStringLiteral("all_reduce_perf")},
            {QStringLiteral("nccl-tests-all_reduce-2node-16xH200-oci-roce.txt"),
             QStringLiteral("all_reduce")},
            {QStringLiteral("nccl-tests-all_reduce-4xK80-old-format-error-column.txt"),
             QStringLiteral("allreduce")},
            {QStringLiteral("superbench_nccl-tests_all_reduce_perf_1node-8xA100-40GB_old-error-column.log"),
             QStringLiteral("all_reduce")},
            {QStringLiteral("superbench_nccl-tests_alltoall_perf_1node-8xA100.log"),
             QStringLiteral("/opt/nccl-tests/build/alltoall_perf")},
            {QStringLiteral("nccl-tests-sendrecv-8xA100-table-only.txt"), QStringLiteral("sendrecv_perf")}};
        for (const auto& [file, binary] : runs) {
            const NcclTestsRun run = parseNcclTestsOutput(fixtureBytes(file));
            const auto c = collectiveFromName(binary);
            QVERIFY(c);
            const int ranks =
                run.ranks.empty() ? 8 : int(run.ranks.size()); // the table-only sendrecv ran on 8 GPUs
            int checked = 0;
            for (const NcclTestsRow& r : run.rows) {
                if (r.outOfPlace.algbw < 0.5)
                    continue;
                // Both columns are printed to two decimals: each may be off by 0.005.
                const double f = busBandwidthFactor(*c, ranks);
                QVERIFY2(std::abs(r.outOfPlace.busbw - r.outOfPlace.algbw * f) <= 0.005 * (1 + f) + 1e-9,
                         qPrintable(QStringLiteral("%1 size %2").arg(file).arg(r.size)));
                ++checked;
            }
            QVERIFY2(checked > 0, qPrintable(file));
        }
        QCOMPARE(collectiveBinary(Collective::ReduceScatter), QStringLiteral("reduce_scatter_perf"));
        QVERIFY(!collectiveFromName(QStringLiteral("scatter_perf")));
    }

    void layouts() {
        const NcclTestsRun k80 = parseNcclTestsOutput(
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-4xK80-old-format-error-column.txt")));
        QVERIFY(k80.errorColumn);
        QVERIFY(!k80.rootColumn);
        QCOMPARE(k80.rows[0].outOfPlace.maxError, std::optional<double>(2e-07));
        QVERIFY(!k80.rows[0].outOfPlace.wrong);
        QVERIFY(!k80.rows[0].root);
        QCOMPARE(k80.rows[0].redop, QStringLiteral("sum"));
        QCOMPARE(k80.ncclInfo.size(), 1);
        QVERIFY(!k80.ranks[0].group);
        QCOMPARE(k80.header.at(QStringLiteral("minBytes")), QStringLiteral("33554432"));

        const NcclTestsRun h100 = parseNcclTestsOutput(
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt")));
        QVERIFY(h100.rootColumn);
        QCOMPARE(h100.rows[0].root, std::optional<int>(-1));
        QCOMPARE(h100.rows[0].outOfPlace.wrong, std::optional<qint64>(0));
        QCOMPARE(h100.header.at(QStringLiteral("agg iters")), QStringLiteral("1"));
        QCOMPARE(h100.header.at(QStringLiteral("step")), QStringLiteral("2(factor)"));
        QCOMPARE(h100.outOfBounds, std::optional<qint64>(0));
        QCOMPARE(h100.ranks[8].host, QStringLiteral("ztan-mig-gq73"));
        QCOMPARE(h100.ranks[8].pci, QStringLiteral("0000:04:00"));
        QCOMPARE(h100.ranks[8].gpu, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(h100.ranks[8].group, std::optional<int>(0));
        QCOMPARE(h100.wrongTotal(), 0);

        const NcclTestsRun h200 = parseNcclTestsOutput(
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH200-oci-roce.txt")));
        QCOMPARE(h200.ncclVersion, QStringLiteral("2.27.5+cuda12.8"));

        const NcclTestsRun sendrecv =
            parseNcclTestsOutput(fixtureBytes(QStringLiteral("nccl-tests-sendrecv-8xA100-table-only.txt")));
        QCOMPARE(sendrecv.rows[0].outOfPlace.wrong, std::optional<qint64>(0));
        QVERIFY(!sendrecv.rows[0].inPlace.wrong); // N/A
        QVERIFY(sendrecv.ranks.empty() && sendrecv.header.empty());

        const NcclTestsRun alltoall = parseNcclTestsOutput(
            fixtureBytes(QStringLiteral("superbench_nccl-tests_alltoall_perf_1node-8xA100.log")));
        QVERIFY(alltoall.rows[0].redop.isEmpty());      // alltoall has no reduction
        QVERIFY(!alltoall.rows[0].outOfPlace.maxError); // validation 0: N/A
    }

    // Output as launchers print it and people paste it: every line with the launcher's prefix, the way each
    // launcher writes it, reads as the plain output; a table printed by every rank is kept once; the oldest
    // layout has no "#" before its header and footer.
    void asLaunched_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("prefix"); // %1: the rank
        QTest::addColumn<int>("printingRanks");
        const QString h100 = QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"),
                      k80 = QStringLiteral("nccl-tests-all_reduce-4xK80-old-format-error-column.txt");
        QTest::newRow("mpirun --tag-output") << h100 << "[1,%1]<stdout>:" << 1;
        QTest::newRow("mpirun --tag-output, every rank printing") << h100 << "[1,%1]<stdout>:" << 2;
        QTest::newRow("Ray/SkyPilot over mpirun") << h100 << "(head, rank=%1, pid=3808) [1,%1]<stdout>:" << 1;
        QTest::newRow("srun -l") << h100 << "%1: " << 1;
        QTest::newRow("srun -l, every rank printing") << k80 << "%1: " << 4;
        QTest::newRow("pdsh") << k80 << "gpu-node-17: " << 1;
        QTest::newRow("oldest layout, no #") << k80 << "" << 1;
    }
    void asLaunched() {
        QFETCH(QString, file);
        QFETCH(QString, prefix);
        QFETCH(int, printingRanks);
        const QByteArray plain = fixtureBytes(file);
        const bool oldest = prefix.isEmpty();
        QByteArray launched;
        for (int rank = 0; rank < printingRanks; ++rank)
            for (QByteArray line : plain.split('\n')) {
                if (oldest && line.startsWith("# "))
                    line = line.mid(2);
                launched += prefix.arg(rank).toUtf8() + line + '\n';
            }
        const NcclTestsRun want = parseNcclTestsOutput(plain), got = parseNcclTestsOutput(launched);
        QVERIFY(!want.rows.empty());
        QCOMPARE(got.rows.size(), want.rows.size());
        for (size_t i = 0; i < want.rows.size(); ++i) {
            QCOMPARE(got.rows[i].size, want.rows[i].size);
            QCOMPARE(got.rows[i].outOfPlace.busbw, want.rows[i].outOfPlace.busbw);
            QCOMPARE(got.rows[i].inPlace.busbw, want.rows[i].inPlace.busbw);
        }
        QCOMPARE(got.avgBusbw, want.avgBusbw);
        QCOMPARE(got.outOfBounds, want.outOfBounds);
        QCOMPARE(got.ranks.size(), want.ranks.size());
        QCOMPARE(got.header, want.header);
        QCOMPARE(got.errorColumn, want.errorColumn);
        QCOMPARE(got.ncclInfo.size(), want.ncclInfo.size() * printingRanks);
        QVERIFY2(got.diagnostics.size() == want.diagnostics.size() * size_t(printingRanks),
                 qPrintable(got.diagnostics.empty() ? QString() : got.diagnostics.front().text));
    }

    void launcherPrefixes() {
        QString who;
        QCOMPARE(withoutLauncherPrefix(QStringLiteral("[1,3]<stdout>:#  Rank  3 Pid 1"), &who),
                 QStringLiteral("#  Rank  3 Pid 1"));
        QCOMPARE(who, QStringLiteral("rank 3"));
        QCOMPARE(withoutLauncherPrefix(
                     QStringLiteral("(worker1, rank=1, pid=4021, ip=10.0.0.7) [1,9]<stderr>: x"), &who),
                 QStringLiteral("x"));
        QCOMPARE(who, QStringLiteral("rank 9, worker1, rank=1, pid=4021, ip=10.0.0.7"));
        QCOMPARE(withoutLauncherPrefix(QStringLiteral("  12: 1024 256 float"), &who),
                 QStringLiteral("1024 256 float"));
        QCOMPARE(who, QStringLiteral("rank 12"));
        // NCCL's own "host:pid:tid" and nccl-tests' footers are not prefixes; a host prefix is taken once.
        QCOMPARE(withoutLauncherPrefix(QStringLiteral("node1:77:77 [0] NCCL INFO x")),
                 QStringLiteral("node1:77:77 [0] NCCL INFO x"));
        QCOMPARE(withoutLauncherPrefix(QStringLiteral("Avg bus bandwidth    : 2.5")),
                 QStringLiteral("Avg bus bandwidth    : 2.5"));
        QCOMPARE(withoutLauncherPrefix(QStringLiteral("n17: Warning: x"), &who),
                 QStringLiteral("Warning: x"));
        QCOMPARE(who, QStringLiteral("n17"));
    }

    void jsonReportOfEveryFixture_data() { everyFixture_data(); }
    void jsonReportOfEveryFixture() {
        QFETCH(QString, file);
        const NcclTestsRun text = parseNcclTestsOutput(fixtureBytes(file));
        const QByteArray report = jsonReport(plainRows(fixtureBytes(file)));
        QVERIFY(looksLikeNcclTestsJson(report));
        const NcclTestsRun json = parseNcclTestsFile(report);
        QVERIFY2(json.diagnostics.empty(),
                 json.diagnostics.empty() ? "" : qPrintable(json.diagnostics.front().message));
        QCOMPARE(json.rows.size(), text.rows.size());
        for (size_t i = 0; i < text.rows.size(); ++i) {
            QCOMPARE(json.rows[i].size, text.rows[i].size);
            QCOMPARE(json.rows[i].count, text.rows[i].count);
            QCOMPARE(json.rows[i].type, text.rows[i].type);
            QCOMPARE(json.rows[i].outOfPlace.timeUs, text.rows[i].outOfPlace.timeUs);
            QCOMPARE(json.rows[i].outOfPlace.busbw, text.rows[i].outOfPlace.busbw);
            QCOMPARE(json.rows[i].inPlace.algbw, text.rows[i].inPlace.algbw);
            if (!text.errorColumn)
                QCOMPARE(json.rows[i].inPlace.wrong, text.rows[i].inPlace.wrong);
        }
        QCOMPARE(json.avgBusbw, std::optional(123.45));
        QCOMPARE(json.outOfBounds, std::optional<qint64>(0));
        QCOMPARE(json.ncclVersion, QStringLiteral("2.27.5"));
        QCOMPARE(json.header.at(QStringLiteral("maxBytes")), QStringLiteral("8589934592"));
        QCOMPARE(json.header.at(QStringLiteral("step")), QStringLiteral("2(factor)"));
        QCOMPARE(json.ranks.size(), size_t(1));
        QCOMPARE(json.ranks[0].pci, QStringLiteral("0000:04:00"));
        QCOMPARE(json.ranks[0].host, QStringLiteral("node-a"));
    }

    void badJsonReports() {
        const QList<QStringList> rows =
            plainRows(fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt")));
        const NcclTestsRun cut = parseNcclTestsJson(jsonReport(rows, true));
        QVERIFY(cut.rows.empty());
        QVERIFY(cut.diagnostics[0].message.contains(QStringLiteral("cut short")));
        const NcclTestsRun other = parseNcclTestsFile(
            fixtureBytes(QStringLiteral("lldpcli-json0-openwrt-switch-statistics-interfaces-chassis.json")));
        QVERIFY(other.rows.empty());
        QVERIFY(other.diagnostics[0].message.contains(QStringLiteral("not an nccl-tests -J report")));
        QByteArray wrongKind = jsonReport(rows);
        wrongKind.replace("\"time\":", "\"time\":\"soon\",\"x\":");
        const NcclTestsRun words = parseNcclTestsJson(wrongKind);
        QVERIFY(words.rows.empty());
        QCOMPARE(words.diagnostics.size(), size_t(rows.size()));
        QRandomGenerator rng(5);
        const QByteArray whole = jsonReport(rows);
        for (int i = 0; i < 300; ++i) {
            QByteArray b = whole;
            for (int k = 0; k < 8; ++k)
                b[qsizetype(rng.bounded(quint32(b.size())))] = char(rng.bounded(256));
            parseNcclTestsJson(b);
        }
    }

    void badInput() {
        const QByteArray text =
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"));
        // Cut in the middle of a row: the rows before it are kept, and the cut one is named by its line.
        const qsizetype cut = text.indexOf("    16777216") + 30;
        const NcclTestsRun truncated = parseNcclTestsOutput(text.left(cut));
        QCOMPARE(truncated.diagnostics.size(), size_t(1));
        QCOMPARE(truncated.diagnostics[0].line, int(text.left(cut).count('\n')) + 1);
        QCOMPARE(int(truncated.rows.size()), int(plainRows(text.left(cut)).size()) - 1);
        // Something else entirely: no rows, every line reported.
        const NcclTestsRun other =
            parseNcclTestsOutput(fixtureBytes(QStringLiteral("topo-m-8xH100-8nic-spaces.txt")));
        QVERIFY(other.rows.empty());
        QVERIFY(!other.diagnostics.empty());
        // A row with a word where a number belongs.
        const NcclTestsRun word =
            parseNcclTestsOutput("         8             2     float     sum      -1    fast    0.00    0.00 "
                                 "     0    123.5    0.00    0.00      0\n");
        QVERIFY(word.rows.empty());
        QVERIFY(word.diagnostics[0].message.contains(QStringLiteral("numbers")));
        // Random bytes and one endless line: no crash, bounded.
        QRandomGenerator rng(3);
        for (int i = 0; i < 300; ++i) {
            QByteArray junk(int(rng.bounded(400)), '\0');
            for (char& c : junk)
                c = char(rng.bounded(256));
            parseNcclTestsOutput(text.left(qsizetype(rng.bounded(quint32(text.size())))) + junk);
        }
        NcclTestsParser endless;
        endless.feed(QByteArray(3 << 20, '7'));
        endless.finish();
        QVERIFY(endless.run().rows.empty());
        QVERIFY(!endless.run().diagnostics.empty());
    }

    void cliJson() {
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI),
                {QStringLiteral("parse-nccl-tests"),
                 fixture(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt")),
                 QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        for (const char* key : {"header", "ranks", "rows", "avg_busbw", "wrong_total"})
            QVERIFY2(doc.contains(QLatin1String(key)), key);
        const QJsonObject rank = doc.value("ranks").toArray().first().toObject();
        for (const char* key : {"rank", "host", "device", "pci", "gpu"})
            QVERIFY2(rank.contains(QLatin1String(key)), key);
        const QJsonObject row = doc.value("rows").toArray().last().toObject();
        for (const char* key : {"size", "count", "type", "redop", "root", "oop", "ip"})
            QVERIFY2(row.contains(QLatin1String(key)), key);
        for (const char* key : {"time_us", "algbw", "busbw", "wrong"})
            QVERIFY2(row.value("oop").toObject().contains(QLatin1String(key)), key);
        QCOMPARE(row.value("oop").toObject().value("busbw").toDouble(), 338.82);
        QCOMPARE(doc.value("header").toObject().value("maxBytes").toDouble(), 8589934592.0);
        QCOMPARE(doc.value("wrong_total").toInt(), 0);
        QProcess bad;
        bad.start(QStringLiteral(RACKSCOPE_CLI),
                  {QStringLiteral("parse-nccl-tests"), fixture(QStringLiteral("PROVENANCE.md"))});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("no nccl-tests result rows"));
        const QString report = QDir::temp().filePath(QStringLiteral("rackscope-test-report.json"));
        QFile f(report);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            jsonReport(plainRows(fixtureBytes(QStringLiteral("nccl-tests-sendrecv-8xA100-table-only.txt")))));
        f.close();
        QProcess fromJson;
        fromJson.start(QStringLiteral(RACKSCOPE_CLI),
                       {QStringLiteral("parse-nccl-tests"), report, QStringLiteral("--json")});
        QVERIFY(fromJson.waitForFinished(30000));
        QCOMPARE(fromJson.exitCode(), 0);
        QCOMPARE(
            QJsonDocument::fromJson(fromJson.readAllStandardOutput()).object().value("avg_busbw").toDouble(),
            123.45);
        f.remove();
    }
};

QTEST_GUILESS_MAIN(TestNcclTestsOutput)
#include "test_nccl_tests_output.moc"
