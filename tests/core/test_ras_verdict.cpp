// NCCL RAS's ranks placed on the cluster: the demo rack (eight servers under eight rail leaves), a report
// naming ranks behind on one server and a dead process on an address no server shown has. Each rank gets
// its server, GPU, leaves and rails; the unplaced address is said; what to look at next names the server's
// own problems and what sets it apart from the servers under the same leaves.
#include "test_support.h"

#include "job/ras_json.h"
#include "job/ras_verdict.h"

#include <QJsonArray>

using namespace rackscope;

namespace {

NcclRasRank rank(int r, const QString& host, int gpu, qint64 pid, const QString& status) {
    NcclRasRank k;
    k.rank = r;
    k.host = host;
    k.gpu = gpu;
    k.pid = pid;
    k.status = status;
    return k;
}

} // namespace

class TestRasVerdict : public QObject {
    Q_OBJECT
    Workspace ws_;

private slots:
    void initTestCase() {
        const auto failed =
            ws_.open({QStringLiteral(RACKSCOPE_DEMO_DIR "/demo.cluster")}, Workspace::Mode::Replace);
        QVERIFY(failed.empty());
        QCOMPARE(ws_.hosts().size(), size_t(8));
    }

    void ranksArePlacedOnServersGpusAndLeaves() {
        NcclRasReport report;
        NcclRasProblem behind;
        behind.kind = QStringLiteral("MISMATCH");
        behind.communicator = QStringLiteral("#0-0 (fa93daea854b060b)");
        behind.warning = true;
        behind.lag = QStringLiteral("1 AllReduce behind the other 56");
        for (int g = 0; g < 8; ++g)
            behind.ranks.push_back(rank(48 + g, QStringLiteral("node07"), g, 4100 + g,
                                        QStringLiteral("launched up to operation 640")));
        NcclRasProblem dead;
        dead.kind = QStringLiteral("DEAD");
        NcclRasRank gone;
        gone.host = QStringLiteral("10.9.9.9");
        gone.pid = 777;
        gone.gpu = 3;
        gone.status = QStringLiteral("dead");
        dead.ranks.push_back(gone);
        NcclRasProblem timeout;
        timeout.kind = QStringLiteral("TIMEOUT");
        report.problems = {behind, dead, timeout};

        const RasVerdict v = placeNcclRas(report, ws_);
        QVERIFY(!v.healthy());
        QCOMPARE(v.ranks.size(), size_t(9)); // the timeout names no rank
        QCOMPARE(v.unplaced, QStringList{QStringLiteral("10.9.9.9")});
        QCOMPARE(v.groups.size(), size_t(2));
        // The dead process first: it is severe, and it cannot be placed.
        QVERIFY(v.groups[0].severe);
        QVERIFY(v.groups[0].server.isEmpty());
        QVERIFY2(v.groups[0].text.startsWith(
                     QStringLiteral("process 777 on 10.9.9.9 (not among the servers shown)")),
                 qPrintable(v.groups[0].text));
        QVERIFY(v.groups[0].next.join('\n').contains(QStringLiteral("kernel log")));
        // The ranks behind, on node07's eight GPUs, under its eight rail leaves.
        const RasGroupVerdict& g = v.groups[1];
        QCOMPARE(g.server, QStringLiteral("node07"));
        QCOMPARE(g.gpus.size(), 8);
        QCOMPARE(g.gpus.first(), QStringLiteral("GPU0"));
        // node07 lacks two of its NICs: six leaves, not eight
        QCOMPARE(g.text,
                 QStringLiteral("ranks 48-55 on node07, GPUs 0-7, under 6 leaves: 1 AllReduce behind the "
                                "other 56 (communicator #0-0 (fa93daea854b060b))"));
        const RasRankPlace& first = v.ranks[0];
        QCOMPARE(first.serverBy, QStringLiteral("its name"));
        QCOMPARE(first.gpuBy, QStringLiteral("CUDA device 0, PCI order assumed"));
        QCOMPARE(first.leaves.size(), 6);
        QVERIFY(first.leaves.contains(QStringLiteral("leaf-rail0")));
        QVERIFY(!first.rails.isEmpty());
        // node07 lacks two NICs the other servers under its leaves have: the first thing to look at.
        const QString next = g.next.join('\n');
        QVERIFY2(next.contains(QStringLiteral("node07 is the only one of the 8 servers under leaf")),
                 qPrintable(next));
        QVERIFY2(next.contains(QStringLiteral("py-spy dump --pid 4100")), qPrintable(next));
        // The JSON says the same.
        const QJsonObject json = rasVerdictJson(v);
        QCOMPARE(json.value("ranks").toArray().size(), 9);
        QCOMPARE(json.value("ranks").toArray()[0].toObject().value("server_gpu").toString(),
                 QStringLiteral("GPU0"));
    }

    // The NVML index, where RAS gives it, is rackscope's GPU numbering (PCI order); an index the server does
    // not have is left unplaced rather than guessed.
    void theGpuIsFoundByItsIndexOrLeftUnknown() {
        NcclRasReport report;
        NcclRasProblem p;
        p.kind = QStringLiteral("INCOMPLETE");
        NcclRasRank k = rank(5, QStringLiteral("node02"), 1, 10, QStringLiteral("unresponsive"));
        k.nvmlGpu = 6;
        p.ranks.push_back(k);
        p.ranks.push_back(rank(6, QStringLiteral("node03"), 42, 11, QStringLiteral("unresponsive")));
        report.problems = {p};
        const RasVerdict v = placeNcclRas(report, ws_);
        QCOMPARE(v.ranks[0].gpu, QStringLiteral("GPU6"));
        QCOMPARE(v.ranks[0].gpuBy, QStringLiteral("NVML index 6"));
        QVERIFY(v.ranks[1].gpu.isEmpty());
        QCOMPARE(v.ranks[1].server, QStringLiteral("node03"));
        QVERIFY(v.groups[0].severe);
    }

    // A report that names no rank: healthy.
    void nothingNamedIsHealthy() {
        NcclRasReport report;
        NcclRasProblem timeout;
        timeout.kind = QStringLiteral("TIMEOUT");
        report.problems = {timeout};
        QVERIFY(placeNcclRas(report, ws_).healthy());
    }
};

QTEST_GUILESS_MAIN(TestRasVerdict)
#include "test_ras_verdict.moc"
