// ibnetdiscover output of four generations. Counts come from the files
// themselves (node lines, and port lines, each link being listed from both
// of its ends); bad input gets a diagnostic with its line.
#include "test_support.h"

#include "import/ibnetdiscover_importer.h"

#include <QFile>

using namespace rackscope;
using namespace rackscope::test;

namespace {

int countLines(const QByteArray& text, const char* prefix) {
    int n = 0;
    for (const QByteArray& line : text.split('\n'))
        n += line.startsWith(prefix);
    return n;
}

} // namespace

class TestIbnetdiscover : public QObject {
    Q_OBJECT
private slots:
    void everyFixture_data() {
        QTest::addColumn<QString>("file");
        const QStringList files = fixtures(QStringLiteral("ibnetdiscover-*.txt"));
        QCOMPARE(files.size(), 4);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyFixture() {
        QFETCH(QString, file);
        const QByteArray text = fixtureBytes(file);
        QVERIFY(looksLikeIbnetdiscover(text));
        const FabricImport r = importIbnetdiscover(text, file);
        QVERIFY2(r.fabric, qPrintable(r.error));
        int switches = 0, cas = 0;
        for (const FabricNode& n : r.fabric->nodes)
            (n.kind == FabricNodeKind::Switch ? switches : cas)++;
        QCOMPARE(switches, countLines(text, "Switch"));
        QCOMPARE(cas, countLines(text, "Ca"));
        QCOMPARE(int(r.fabric->links.size()) * 2, countLines(text, "["));
        for (const FabricLink& l : r.fabric->links) {
            QVERIFY(r.fabric->node(l.a) && r.fabric->node(l.b));
            QCOMPARE(l.width, QStringLiteral("4x"));
        }
    }

    void edrFabricReportsItsErrorLine() {
        const FabricImport r = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-edr-fdr-with-smp-error-line.txt")), {});
        QVERIFY(r.fabric);
        QCOMPARE(r.fabric->diagnostics.size(), size_t(1));
        QCOMPARE(r.fabric->diagnostics[0].line, 1);
        QVERIFY(r.fabric->diagnostics[0].text.startsWith(QStringLiteral("src/query_smp.c:195")));
    }

    void superpodNamesHostsAndDevices() {
        const FabricImport r = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")), {});
        QVERIFY(r.fabric);
        QVERIFY(r.fabric->diagnostics.empty());
        const FabricNode* leaf = r.fabric->node(QStringLiteral("S-2c5eab0300b87b40"));
        QVERIFY(leaf);
        QCOMPARE(leaf->ports, 65);
        QCOMPARE(leaf->lid, std::optional<int>(73));
        QCOMPARE(leaf->description, QStringLiteral("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1"));
        QCOMPARE(leaf->deviceId, std::optional<unsigned>(0xd2f2));
        const FabricNode* ca = r.fabric->node(QStringLiteral("H-e09d7303007a4bd8"));
        QVERIFY(ca);
        QCOMPARE(ca->host, QStringLiteral("a08-p1-dgx-04-c01"));
        QCOMPARE(ca->device, QStringLiteral("mlx5_5"));
        for (const FabricLink& l : r.fabric->links)
            QCOMPARE(l.speed, QStringLiteral("NDR"));
        // SHARP's aggregation node is a CA that is not a host.
        const FabricNode* sharp = r.fabric->node(QStringLiteral("H-2c5eab0300b87b50"));
        QVERIFY(sharp && sharp->host.isEmpty());
    }

    void singleCaWithoutSwitches() {
        const FabricImport r = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-gb200-single-ca-no-switch.txt")), {});
        QVERIFY(r.fabric);
        QCOMPARE(r.fabric->nodes.size(), size_t(1));
        QCOMPARE(r.fabric->nodes[0].host, QStringLiteral("dgx-gb200-n01-c1"));
        QVERIFY(r.fabric->links.empty());
    }

    void sdrLinkEnds() {
        const FabricImport r =
            importIbnetdiscover(fixtureBytes(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt")), {});
        QVERIFY(r.fabric);
        const FabricLink& l = r.fabric->links.front();
        QCOMPARE(l.speed, QStringLiteral("SDR"));
        QVERIFY(l.a == QStringLiteral("H-0002c902002789ac") || l.b == QStringLiteral("H-0002c902002789ac"));
    }

    void badInput() {
        const QByteArray sdr = fixtureBytes(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt"));
        // Truncated before the CAs: the switch's links point at nodes never declared.
        const FabricImport cut = importIbnetdiscover(sdr.left(sdr.indexOf("vendid=0x2c9\ndevid=0x5a44")), {});
        QVERIFY(cut.fabric);
        QCOMPARE(cut.fabric->diagnostics.size(), size_t(2));
        QVERIFY(cut.fabric->diagnostics[0].message.contains(QStringLiteral("never declared")));
        QCOMPARE(cut.fabric->diagnostics[0].line, 11);
        // The same GUID twice.
        QByteArray twice = sdr + "\nCa      2 \"H-0002c902002789ac\"          # \"duplicate\"\n";
        const FabricImport dup = importIbnetdiscover(twice, {});
        QVERIFY(dup.fabric);
        QVERIFY(std::any_of(dup.fabric->diagnostics.begin(), dup.fabric->diagnostics.end(),
                            [](const FabricDiagnostic& d) {
                                return d.message.contains(QStringLiteral("already declared at line 18"));
                            }));
        // Ends that disagree.
        QByteArray wrong = sdr;
        wrong.replace("[1](2c902002789ad)      \"S-000b8cffff0053ee\"[1]",
                      "[1](2c902002789ad)      \"S-000b8cffff0053ee\"[5]");
        const FabricImport mismatch = importIbnetdiscover(wrong, {});
        QVERIFY(std::any_of(
            mismatch.fabric->diagnostics.begin(), mismatch.fabric->diagnostics.end(),
            [](const FabricDiagnostic& d) { return d.message.contains(QStringLiteral("says")); }));
        // Nothing fabric-like.
        QVERIFY(!importIbnetdiscover("hello\nworld\n", {}).fabric);
        QVERIFY(importIbnetdiscover("hello\nworld\n", {}).error.contains(QStringLiteral("line 1")));
    }
};

QTEST_GUILESS_MAIN(TestIbnetdiscover)
#include "test_ibnetdiscover.moc"
