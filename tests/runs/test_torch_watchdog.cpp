// PyTorch's NCCL watchdog in the four wordings of the fixtures (PyTorch 1.x without a rank prefix, 2.x with
// "[rankN]:", a launcher's line number before it, 2.7's "PG ID ... PG GUID"), and a surviving rank's log
// when another node died (ncclRemoteError, and the peer NCCL names). Each is checked against the test's own
// reading of the file; then hand-made lines for what the fixtures lack, and garbage.
#include "test_support.h"

#include "runs/torch_watchdog.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QStringList linesOf(const QString& name) {
    return QString::fromUtf8(incomingBytes(name)).split(QLatin1Char('\n'));
}

const Finding* coded(const std::vector<Finding>& all, const char* code) {
    for (const Finding& f : all)
        if (f.code == QLatin1String(code))
            return &f;
    return nullptr;
}

} // namespace

class TestTorchWatchdog : public QObject {
    Q_OBJECT
private slots:
    void everyTimeoutWording_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"pytorch-nccl-watchdog-timeout_allreduce-pg-guid-default_pg_basicsr737_excerpt.log",
              "pytorch-nccl-watchdog-timeout_allreduce-seqnum1580_line-number-prefixed_"
              "llamafactory7396_excerpt.log",
              "pytorch-nccl-watchdog-timeout_old-format-no-rank-prefix-8xV100_ofa271_excerpt.log",
              "pytorch-nccl-watchdog-timeout_reduce-scatter-base-multi-rank_llamafactory6269_"
              "excerpt.log"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void everyTimeoutWording() {
        QFETCH(QString, file);
        const QStringList lines = linesOf(file);
        // The test's own reading: the ranks of "[Rank N] Watchdog caught ...", the SeqNum and the operation.
        const QRegularExpression caught(QStringLiteral(
            "\\[Rank (\\d+)\\] Watchdog caught .*SeqNum=(\\d+), OpType=(\\w+).*Timeout\\(ms\\)=(\\d+)"));
        std::set<int> ranks;
        QString seq, op, timeout;
        for (const QString& l : lines)
            if (const auto m = caught.match(l); m.hasMatch()) {
                ranks.insert(m.captured(1).toInt());
                seq = m.captured(2);
                op = m.captured(3);
                timeout = m.captured(4);
            }
        QVERIFY(!ranks.empty());
        const TorchWatchdog w = readTorchWatchdog(lines);
        QCOMPARE(w.failures.size(), ranks.size());
        for (const TorchWorkFailure& f : w.failures) {
            QVERIFY(ranks.count(f.rank));
            QCOMPARE(f.kind, TorchWorkFailure::Kind::Timeout);
            QCOMPARE(QString::number(*f.seqNum), seq);
            QCOMPARE(f.opType, op);
            QCOMPARE(QString::number(*f.timeoutMs), timeout);
            QVERIFY(*f.ranForMs >= *f.timeoutMs);
        }
        const std::vector<Finding> findings = torchWatchdogFindings(w);
        const Finding* timedOut = coded(findings, codes::kTorchCollectiveTimeout);
        QVERIFY(timedOut);
        QVERIFY2(timedOut->message.contains(QStringLiteral("%1 (SeqNum %2").arg(op, seq)),
                 qPrintable(timedOut->message));
        std::vector<int> expected(ranks.begin(), ranks.end());
        QVERIFY2(timedOut->message.contains(QStringLiteral("on ranks ") + rankRanges(expected)),
                 qPrintable(timedOut->message));
        QVERIFY(!coded(findings, codes::kTorchRankBehind)); // every rank had completed as many
    }

    void aRemotePeerThatDied() {
        const TorchWatchdog w = readTorchWatchdog(linesOf(QStringLiteral(
            "pytorch-nccl-watchdog_24rank-3node-nodeloss-ncclRemoteError_survivor-rank0_gcp-a3.log")));
        QCOMPARE(w.failures.size(), size_t(1));
        const TorchWorkFailure& f = w.failures.front();
        QCOMPARE(f.kind, TorchWorkFailure::Kind::AsyncError);
        QVERIFY(f.remoteError);
        QCOMPARE(*f.seqNum, qint64(89));
        QVERIFY(f.processGroup.isEmpty()); // its line does not say; the progress line after it does
        QCOMPARE(w.remotePeers,
                 QStringList{QStringLiteral(
                     "gke-hypercomputer-a3-a3-high-flex-poo-27562461-zcn4.c.hdlab-elideng.internal")});
        QCOMPARE(w.progress.size(), size_t(1));
        QCOMPARE(w.progress[0].lastCompleted, qint64(88));
        const std::vector<Finding> findings = torchWatchdogFindings(w);
        const Finding* remote = coded(findings, codes::kTorchRemoteError);
        QVERIFY(remote);
        QVERIFY(remote->subjects.contains(w.remotePeers.front()));
        QVERIFY2(remote->message.contains(QStringLiteral("closed the connection")),
                 qPrintable(remote->message));
    }

    // A rank behind the others in its process group; ranges of ranks; launchers' prefixes.
    void aRankBehindAndPrefixes() {
        const QStringList lines{
            QStringLiteral(
                "[1,0]<stderr>:[rank0]:[E1206 18:44:12.7 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception "
                "(either an error or timeout) detected by watchdog at work: 20, last enqueued NCCL work: "
                "21, last completed NCCL work: 19."),
            QStringLiteral(
                "12: [rank5]:[E1206 18:44:12.7 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 5] Exception (either "
                "an error or timeout) detected by watchdog at work: 20, last enqueued NCCL work: 20, last "
                "completed NCCL work: 17."),
        };
        const TorchWatchdog w = readTorchWatchdog(lines);
        QCOMPARE(w.progress.size(), size_t(2));
        const std::vector<Finding> findings = torchWatchdogFindings(w);
        const Finding* behind = coded(findings, codes::kTorchRankBehind);
        QVERIFY(behind);
        QVERIFY2(behind->message.startsWith(QStringLiteral("ranks 5 of process group 1")),
                 qPrintable(behind->message));
        QCOMPARE(rankRanges({7, 0, 1, 2, 5, 6, 2}), QStringLiteral("0-2,5-7"));
    }

    // PyTorch 2.7's wording of the watchdog's progress, as the RAS issue's paste has it beside ncclras.
    void theNewerProgressWording() {
        const TorchWatchdog w = readTorchWatchdog(linesOf(QStringLiteral(
            "ncclras-text_32node-256gpu-running-ok-while-pytorch-watchdog-timeout_nccl2.26.2.txt")));
        QCOMPARE(w.failures.size(), size_t(1));
        QCOMPARE(w.failures[0].rank, 118);
        QCOMPARE(w.progress.size(), size_t(1));
        QCOMPARE(w.progress[0].atWork, qint64(2398459));
        QCOMPARE(w.progress[0].lastEnqueued, qint64(2398578));
        QCOMPARE(w.progress[0].lastCompleted, qint64(2398458));
    }

    void garbage() {
        QRandomGenerator rng(20261206);
        QStringList real = linesOf(QStringLiteral(
            "pytorch-nccl-watchdog-timeout_allreduce-pg-guid-default_pg_basicsr737_excerpt.log"));
        for (int round = 0; round < 300; ++round) {
            QStringList lines = real;
            for (QString& l : lines)
                for (int k = 0; k < 3 && !l.isEmpty(); ++k)
                    l[rng.bounded(int(l.size()))] = QChar(ushort(rng.bounded(32, 127)));
            const TorchWatchdog w = readTorchWatchdog(lines);
            QVERIFY(w.failures.size() <= size_t(real.size()));
            (void)torchWatchdogFindings(w);
        }
        QStringList flood;
        for (int i = 0; i < 10050; ++i)
            flood << QStringLiteral(
                         "[Rank %1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%1)")
                         .arg(i);
        QCOMPARE(readTorchWatchdog(flood).failures.size(), size_t(10000)); // the first kept
    }
};

QTEST_GUILESS_MAIN(TestTorchWatchdog)
#include "test_torch_watchdog.moc"
