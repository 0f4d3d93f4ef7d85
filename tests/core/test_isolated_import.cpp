// The isolated importer: a crash or hang in the child becomes an error, and
// a host survives the trip over the pipe unchanged.
#include "test_support.h"

#include "import/isolated_import.h"
#include "report/inspect_report.h"

#include <csignal>
#include <thread>

using namespace rackscope;
using namespace rackscope::test;

class TestIsolatedImport : public QObject {
    Q_OBJECT
private slots:
    void crashBecomesAnError() {
        const ImportResult r = importIsolated(
            []() -> ImportResult {
                std::raise(SIGSEGV);
                return ImportResult::fail(QStringLiteral("unreachable"));
            },
            QStringLiteral("the test parser"));
        QVERIFY(!r.host);
        QVERIFY2(r.error.startsWith(QStringLiteral("the test parser crashed")), qPrintable(r.error));
    }

    void hangBecomesAnError() {
        const ImportResult r = importIsolated(
            []() -> ImportResult {
                for (;;)
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
            },
            QStringLiteral("the test parser"), 1);
        QVERIFY2(r.error.contains(QStringLiteral("did not finish in 1 s")), qPrintable(r.error));
    }

    void errorsComeBackAsTheyWere() {
        const ImportResult r = importIsolated(
            [] { return ImportResult::fail(QStringLiteral("line 3: bad")); }, QStringLiteral("x"));
        QCOMPARE(r.error, QStringLiteral("line 3: bad"));
    }

    void hostsRoundTripUnchanged_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"nccl-topo-dump-oci-bm-gpu-h100-8.xml", "topo-m-8xH200-12nic-dgx.txt",
                              "nccl-topo-azure-ncv4.xml", "nccl-topo-aws-p4d-24xl.xml"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void hostsRoundTripUnchanged() {
        QFETCH(QString, file);
        const ImportResult direct = loadTopologyFile(fixture(file));
        QVERIFY(direct.host);
        const ImportResult viaChild =
            importIsolated([&] { return loadTopologyFile(fixture(file)); }, QStringLiteral("x"));
        QVERIFY2(viaChild.host, qPrintable(viaChild.error));
        const auto json = [](const HostTopology& h) { return hostToJson({h, analyzeHost(h)}); };
        QCOMPARE(json(*viaChild.host), json(*direct.host));
        QCOMPARE(viaChild.host->notes, direct.host->notes);
        QCOMPARE(viaChild.host->nodes.size(), direct.host->nodes.size());
    }
};

QTEST_GUILESS_MAIN(TestIsolatedImport)
#include "test_isolated_import.moc"
