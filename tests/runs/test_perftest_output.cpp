// perftest's ib_write_bw as it is run and pasted: every capture in the fixtures (client and server of a
// GPUDirect RoCE run with --report_gbits and 16 QPs, a --run_infinitely client, an interleaved all-sizes
// log in MB/sec), each checked against the test's own reading of its result rows; perftest's own failure
// lines; what is not perftest output is refused; mangled input never crashes.
#include "test_support.h"

#include "runs/perftest_output.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char* const kClient = "ib_write_bw-use_cuda-dmabuf-report_gbits-16qp-duration-roce-A40_client.txt";
const char* const kServer = "ib_write_bw-use_cuda-dmabuf-report_gbits-16qp-duration-roce-A40_server.txt";
const char* const kSpark = "ib_write_bw-dgx-spark-roce-client.txt";
const char* const kLoopback = "superbench_perftest_ib_write_bw_loopback_all-sizes_ib0.log";

// The test's own reading: lines of five numbers (bytes, iterations, peak, average, rate).
std::vector<QStringList> resultLines(const QByteArray& text) {
    std::vector<QStringList> rows;
    static const QRegularExpression row(
        QStringLiteral("^\\s*\\d+\\s+\\d+\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$"));
    for (const QString& line : QString::fromUtf8(text).split(QLatin1Char('\n')))
        if (row.match(line).hasMatch())
            rows.push_back(line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts));
    return rows;
}

PerftestRun read(const QByteArray& text) {
    QString why;
    const auto run = readPerftestOutput(text, &why);
    if (!run)
        qWarning("%s", qPrintable(why));
    return run.value_or(PerftestRun{});
}

} // namespace

class TestPerftestOutput : public QObject {
    Q_OBJECT
private slots:
    void everyCaptureRead_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("linkType");
        QTest::newRow("A40 client") << incomingBytes(QString::fromLatin1(kClient)) << "Gb/sec"
                                    << "mlx5_1"
                                    << "Ethernet";
        QTest::newRow("A40 server") << incomingBytes(QString::fromLatin1(kServer)) << "Gb/sec"
                                    << "mlx5_1"
                                    << "Ethernet";
        QTest::newRow("Spark") << fixtureBytes(QString::fromLatin1(kSpark)) << "Gb/sec"
                               << "rocep1s0f0"
                               << "Ethernet";
        QTest::newRow("loopback") << fixtureBytes(QString::fromLatin1(kLoopback)) << "MB/sec"
                                  << "ib0"
                                  << "IB";
    }
    void everyCaptureRead() {
        QFETCH(QByteArray, text);
        QFETCH(QString, unit);
        QFETCH(QString, device);
        QFETCH(QString, linkType);
        const PerftestRun run = read(text);
        QCOMPARE(run.test, QStringLiteral("RDMA_Write BW Test"));
        QCOMPARE(run.unit, unit);
        QCOMPARE(run.device, device);
        QCOMPARE(run.linkType, linkType);
        const std::vector<QStringList> expected = resultLines(text);
        QVERIFY(!expected.empty());
        QCOMPARE(run.rows.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(run.rows[i].bytes, expected[i][0].toLongLong());
            QCOMPARE(run.rows[i].iterations, expected[i][1].toLongLong());
            QCOMPARE(run.rows[i].average, expected[i][3].toDouble());
            QCOMPARE(run.rows[i].peak.has_value(), expected[i][2].toDouble() > 0);
        }
    }

    void figures() {
        // 16 QPs of GPUDirect RoCE at 64 KiB for 60 s: one row, peak not measured, the MTU lowered.
        const PerftestRun client = read(incomingBytes(QString::fromLatin1(kClient)));
        QCOMPARE(client.qps, 16);
        QCOMPARE(client.mtu, 1024);
        QCOMPARE(client.gidIndex, 3);
        QCOMPARE(client.averageGbps(), 181.46);
        QCOMPARE(client.cudaDevice, QStringLiteral("NVIDIA A40 at PCIe E1:00"));
        QVERIFY(client.warnings.join(QLatin1Char('\n')).contains(QLatin1String("active MTU")));
        QVERIFY(client.warnings.join(QLatin1Char('\n')).contains(QLatin1String("BW peak won't be measured")));
        QVERIFY(client.failure.isEmpty());
        QCOMPARE(read(incomingBytes(QString::fromLatin1(kServer))).cudaDevice,
                 QStringLiteral("NVIDIA A40 at PCIe 61:00"));

        // --run_infinitely: five periods of 64 KiB; the figure is their median.
        const PerftestRun spark = read(fixtureBytes(QString::fromLatin1(kSpark)));
        QCOMPARE(spark.rows.size(), size_t(5));
        QCOMPARE(spark.averageGbps(), 92.57);
        QCOMPARE(spark.qps, 1);

        // All sizes in MB/sec (2^20 bytes), both sides in one log: the largest size's average in Gb/s.
        const PerftestRun loop = read(fixtureBytes(QString::fromLatin1(kLoopback)));
        QCOMPARE(loop.largestBytes(), qint64(8388608));
        QCOMPARE(loop.mtu, 4096);
        QVERIFY(qAbs(*loop.averageGbps() - 23240.68 * 1048576 * 8 / 1e9) < 1e-9);
        QVERIFY(qAbs(*loop.averageGbps() - 194.96) < 0.01);
    }

    // perftest's own reasons, as it prints them when it stops.
    void failures_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("reason");
        const QByteArray head = incomingBytes(QString::fromLatin1(kClient)).left(1400);
        QTest::newRow("connect") << QByteArray(" WARNING: BW peak won't be measured in this run.\n"
                                               "Couldn't connect to 10.0.0.2:18515\n"
                                               "Unable to open file descriptor for socket connection\n")
                                 << "Couldn't connect to 10.0.0.2:18515";
        QTest::newRow("no device")
            << QByteArray("IB device mlx5_9 not found\n Unable to find the Infiniband/RoCE device\n")
            << "IB device mlx5_9 not found";
        QTest::newRow("cut before the table") << head << "no result row";
    }
    void failures() {
        QFETCH(QByteArray, text);
        QFETCH(QString, reason);
        QString why;
        QVERIFY(!readPerftestOutput(text, &why));
        QVERIFY2(why.contains(reason), qPrintable(why));
    }

    void otherOutputsRefused() {
        for (const char* f : {"ncclras-text_docs-example_dead-process.txt",
                              "nvidia-smi-nvlink-s_gb200-18x53.125GBs-user-truncated.txt"}) {
            QString why;
            QVERIFY2(!readPerftestOutput(incomingBytes(QString::fromLatin1(f)), &why), f);
            QVERIFY2(why.startsWith(QLatin1String("not perftest output")), qPrintable(why));
        }
        QString why;
        QVERIFY(!readPerftestOutput(QByteArray(17 << 20, 'x'), &why));
        QVERIFY(why.contains(QLatin1String("more than perftest prints")));
        QVERIFY(!readPerftestOutput(QByteArray(" #bytes  #iterations  BW peak[Kb/sec]  BW average[Kb/sec]\n"
                                               " 65536 10 1.0 1.0 0.1\n"),
                                    &why));
        QVERIFY(why.contains(QLatin1String("Kb/sec")));
    }

    void mangledInput() {
        QRandomGenerator rng(20261207);
        for (const QByteArray& real :
             {incomingBytes(QString::fromLatin1(kClient)), fixtureBytes(QString::fromLatin1(kLoopback))}) {
            for (int round = 0; round < 400; ++round) {
                QByteArray b = real.left(rng.bounded(int(real.size())) + 1);
                for (int k = 0; k < 8; ++k)
                    b[rng.bounded(int(b.size()))] = char(rng.bounded(256));
                QString why;
                if (const auto r = readPerftestOutput(b, &why)) {
                    QVERIFY(!r->rows.empty());
                    QVERIFY(r->averageGbps().has_value());
                } else {
                    QVERIFY(!why.isEmpty());
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPerftestOutput)
#include "test_perftest_output.moc"
