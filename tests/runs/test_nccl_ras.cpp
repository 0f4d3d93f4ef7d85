// ncclras output as saved or pasted: every RAS capture in ../shared/fixtures/incoming (text of NCCL 2.26 and
// 2.27, JSON of 2.28 and 2.29, the invalid JSON 2.28.9 writes, the monitor's events), each checked against
// the test's own reading of the file; what is not RAS output is not taken for it; mangled input never
// crashes.
#include "test_support.h"

#include "runs/nccl_ras.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace rackscope;
using namespace rackscope::test;

namespace {

NcclRasReport read(const char* name) {
    QString why;
    const std::optional<NcclRasReport> r = readNcclRas(incomingBytes(QString::fromLatin1(name)), &why);
    if (!r)
        qWarning("%s: %s", name, qPrintable(why));
    return r.value_or(NcclRasReport{});
}

int count(const QByteArray& text, const char* pattern) {
    return int(QString::fromUtf8(text).count(QRegularExpression(QString::fromLatin1(pattern))));
}

} // namespace

class TestNcclRas : public QObject {
    Q_OBJECT
private slots:
    // Text: each problem header, each rank and process named, as the file has them.
    void text_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"ncclras-text_4node-32gpu-allgather-mismatch_nccl2.26.2.txt",
              "ncclras-text_docs-example_dead-process.txt",
              "ncclras-text_docs-example_finalize-init-status-mismatch.txt",
              "ncclras-text_docs-example_incomplete-missing-rank-timeout.txt",
              "ncclras-text_heterogeneous-outlier-node-incomplete-mismatch-nocomm_nccl2.27.3_partial.txt",
              "ncclras-text_32node-256gpu-running-ok-while-pytorch-watchdog-timeout_nccl2.26.2.txt",
              "ncclras-monitor_docs-example_peer-dead.txt"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void text() {
        QFETCH(QString, file);
        const QByteArray bytes = incomingBytes(file);
        QVERIFY(looksLikeNcclRas(bytes));
        const NcclRasReport r = read(qPrintable(file));
        QCOMPARE(r.format, QStringLiteral("text"));
        const int headers = count(bytes, "(?m)^(#\\d+-\\d+ \\(\\w+\\) [A-Z,]+|[A-Z_]+)\\s*$") +
                            count(bytes, "(?m)^\\[[^\\]]*\\] PEER_DEAD:");
        QCOMPARE(int(r.problems.size()), headers);
        int ranksNamed = 0, processesNamed = 0;
        for (const NcclRasProblem& p : r.problems)
            for (const NcclRasRank& k : p.ranks)
                (k.rank && k.pid ? ranksNamed : processesNamed) += k.pid ? 1 : 0;
        QCOMPARE(ranksNamed, count(bytes, "Rank \\d+ -- GPU \\d+ managed by process"));
        QCOMPARE(processesNamed, count(bytes, "Process \\d+ on node \\S+ managing GPU"));
        const int groups =
            count(bytes, "(?m)^\\s+\\d+\\s+\\d+\\s+\\S+\\s+\\S+\\s+\\d+\\s+\\d+\\s+[A-Z]+\\s+[A-Z,]+\\s*$");
        QCOMPARE(int(r.groups.size()), groups);
        const std::vector<Finding> f = ncclRasFindings(r);
        QCOMPARE(f.size(), r.problems.size());
    }

    void theOutliersAreSaid() {
        const NcclRasReport text = read("ncclras-text_4node-32gpu-allgather-mismatch_nccl2.26.2.txt");
        QVERIFY2(text.problems.front().lines.last() ==
                     QStringLiteral("ranks 12,13 (on 10.137.190.124) are 1 AllGather ahead of the other 30"),
                 qPrintable(text.problems.front().lines.join(" | ")));
        const NcclRasReport json = read("ncclras-json_4xA10G-4host-allreduce-count-mismatch_nccl2.28.9.json");
        QCOMPARE(json.problems.size(), size_t(1));
        QCOMPARE(json.problems.front().lines.last(),
                 QStringLiteral("rank 1 (on 10.0.109.86) is 1 AllReduce behind the other 3"));
        const std::vector<Finding> f = ncclRasFindings(json);
        QCOMPARE(f.front().code, QString::fromLatin1(codes::kRasMismatch));
        QVERIFY(f.front().subjects.contains(QStringLiteral("10.0.109.86")));
        const NcclRasReport dead = read("ncclras-text_docs-example_dead-process.txt");
        QCOMPARE(dead.problems.front().ranks.front().status, QStringLiteral("dead"));
        QCOMPARE(ncclRasFindings(dead).front().severity, Severity::Error);
        const NcclRasReport missing = read("ncclras-text_docs-example_incomplete-missing-rank-timeout.txt");
        QCOMPARE(*missing.problems[1].ranks.front().rank, 21); // "The missing rank: 21"
        QCOMPARE(ncclRasFindings(missing).back().code, QString::fromLatin1(codes::kRasTimeout));
    }

    // JSON: each communicator's missing ranks and differing counts, against the test's own reading.
    void json_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"ncclras-json_3comms-one-allreduce-mismatch-10vs3_nccl2.28.9.json",
                              "ncclras-json_4xA10G-4host-allreduce-count-mismatch_nccl2.28.9.json",
                              "ncclras-json_docs-example_missing-rank-unresponsive_nccl2.29.1.json"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void json() {
        QFETCH(QString, file);
        const QJsonObject doc = QJsonDocument::fromJson(incomingBytes(file)).object();
        int missing = 0, mismatched = 0;
        for (const QJsonValue& c : doc.value("communicators").toArray()) {
            missing += c.toObject().value("missing_ranks").toArray().isEmpty() ? 0 : 1;
            std::map<QString, std::set<qint64>> counts;
            for (const QJsonValue& r : c.toObject().value("ranks").toArray()) {
                const QJsonObject cc = r.toObject().value("collective_counts").toObject();
                for (auto it = cc.begin(); it != cc.end(); ++it)
                    counts[it.key()].insert(it.value().toInteger());
            }
            for (const auto& [op, values] : counts)
                mismatched += values.size() > 1 ? 1 : 0;
        }
        const NcclRasReport r = read(qPrintable(file));
        QCOMPARE(r.format, QStringLiteral("json"));
        QVERIFY(r.repaired.isEmpty());
        QCOMPARE(r.ncclVersion, doc.value("nccl_version").toString());
        QCOMPARE(
            int(std::count_if(r.problems.begin(), r.problems.end(),
                              [](const NcclRasProblem& p) { return p.kind == QLatin1String("INCOMPLETE"); })),
            missing);
        QCOMPARE(
            int(std::count_if(r.problems.begin(), r.problems.end(),
                              [](const NcclRasProblem& p) { return p.kind == QLatin1String("MISMATCH"); })),
            mismatched);
    }

    // 2.28.9's JSON lacks a comma after "nvml_dev": read with it put back, and said so; the monitor's event.
    void invalidJsonAndEvents() {
        const NcclRasReport r =
            read("ncclras-json_missing-rank-unresponsive_INVALID-JSON-missing-comma_nccl2.28.9.json");
        QVERIFY2(r.repaired.contains(QStringLiteral("comma put back after line 43")), qPrintable(r.repaired));
        QCOMPARE(r.problems.size(), size_t(1));
        QCOMPARE(r.problems.front().ranks.front().status, QStringLiteral("unresponsive"));
        QCOMPARE(*r.problems.front().ranks.front().rank, 1);
        const NcclRasReport event = read("ncclras-monitor-json_docs-example_peer-dead-event.json");
        QCOMPARE(event.format, QStringLiteral("monitor"));
        QCOMPARE(event.problems.front().kind, QStringLiteral("PEER_DEAD"));
        QCOMPARE(*event.problems.front().ranks.front().pid, qint64(1524345));
        QString why;
        QVERIFY(!readNcclRas("{\"communicators\": [ {\"hash\": }", &why));
        QVERIFY2(why.startsWith(QStringLiteral("not valid JSON")), qPrintable(why));
    }

    void notRasOutput() {
        for (const char* f :
             {"nccl-debug-info_gb300-nvl72-2tray-mnnvl-init_lines1-189.log",
              "pytorch-nccl-watchdog_24rank-3node-nodeloss-ncclRemoteError_survivor-rank0_gcp-a3.log",
              "sglang-metrics_llama3.1-8b-instruct_docs-example-scrape.prom"})
            QVERIFY2(!looksLikeNcclRas(incomingBytes(QString::fromLatin1(f))), f);
    }

    void mangledInput() {
        QRandomGenerator rng(20261206);
        for (const char* f :
             {"ncclras-text_heterogeneous-outlier-node-incomplete-mismatch-nocomm_nccl2.27.3_partial.txt",
              "ncclras-json_3comms-one-allreduce-mismatch-10vs3_nccl2.28.9.json"}) {
            const QByteArray real = incomingBytes(QString::fromLatin1(f));
            for (int round = 0; round < 300; ++round) {
                QByteArray b = real.left(rng.bounded(int(real.size())) + 1);
                for (int k = 0; k < 8; ++k)
                    b[rng.bounded(int(b.size()))] = char(rng.bounded(256));
                QString why;
                if (const auto r = readNcclRas(b, &why))
                    (void)ncclRasFindings(*r);
                else
                    QVERIFY(!why.isEmpty());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestNcclRas)
#include "test_nccl_ras.moc"
