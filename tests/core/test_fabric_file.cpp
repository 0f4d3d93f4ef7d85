// rackscope's own fabric file: read, written back out from a discovered
// fabric and read again, and every kind of bad line named by its number.
#include "test_support.h"

#include "analysis/fabric_tiers.h"
#include "import/fabric_file.h"
#include "import/fabric_loader.h"
#include "import/ibnetdiscover_importer.h"
#include "report/fabric_file_writer.h"

using namespace rackscope;
using namespace rackscope::test;

namespace {
int countKind(const Fabric& f, FabricNodeKind k) {
    return int(
        std::count_if(f.nodes.begin(), f.nodes.end(), [&](const FabricNode& n) { return n.kind == k; }));
}
} // namespace

class TestFabricFile : public QObject {
    Q_OBJECT
private slots:
    void readsADesign() {
        const FabricFileImport r = importFabricFile(
            "# two tiers\nrackscope-fabric 1\nexpect width=4x speed=NDR\n"
            "switch spine-01 tier=spine ports=64\nswitch leaf-01 tier=leaf ports=64 guid=0xABC\n"
            "link leaf-01:33 spine-01:1\nlink node01/mlx5_0:1 leaf-01:1 speed=HDR mtu=4096  # slower on "
            "purpose\n"
            "link node02 leaf-01\nhost node03\n",
            QStringLiteral("rack.fabric"));
        QVERIFY2(r.fabric, qPrintable(r.error));
        const Fabric& f = *r.fabric;
        QVERIFY(f.design);
        QVERIFY(f.diagnostics.empty());
        QCOMPARE(f.expectedSpeed, QStringLiteral("NDR"));
        QCOMPARE(countKind(f, FabricNodeKind::Switch), 2);
        QCOMPARE(countKind(f, FabricNodeKind::ChannelAdapter), 1);
        QCOMPARE(countKind(f, FabricNodeKind::Host), 2);
        QCOMPARE(f.node(QStringLiteral("leaf-01"))->guid, QStringLiteral("0xabc"));
        QCOMPARE(f.node(QStringLiteral("leaf-01"))->tier, std::optional<int>(1));
        QCOMPARE(f.links.size(), size_t(3));
        QCOMPARE(f.links[1].a, QStringLiteral("node01/mlx5_0"));
        QCOMPARE(f.links[1].aPort, QStringLiteral("1"));
        QCOMPARE(f.links[1].expectedSpeed, QStringLiteral("HDR"));
        QCOMPARE(f.links[1].aMtu, std::optional<int>(4096));
        QCOMPARE(f.links[2].bPort, QString());
        QCOMPARE(f.node(QStringLiteral("node01/mlx5_0"))->host, QStringLiteral("node01"));
        QVERIFY(loadFabricFile(QStringLiteral("/nonexistent.fabric"))
                    .error.contains(QStringLiteral("cannot open")));
    }

    void ethernetPortNames() {
        const FabricFileImport r =
            importFabricFile("rackscope-fabric 1\nswitch tor1\nlink n1/ens1f0np0 tor1:Ethernet1/1\n", {});
        QVERIFY(r.fabric);
        QCOMPARE(r.fabric->links[0].bPort, QStringLiteral("Ethernet1/1"));
        QCOMPARE(r.fabric->links[0].aPort, QString());
    }

    void discoveredFabricRoundTrips() {
        const FabricImport r = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")), {});
        QVERIFY(r.fabric);
        const QString written = writeFabricFile(*r.fabric);
        const FabricLoad back = importFabric(written.toUtf8(), QStringLiteral("written"));
        QVERIFY2(back.fabric, qPrintable(back.error));
        QVERIFY2(back.fabric->diagnostics.empty(),
                 back.fabric->diagnostics.empty() ? ""
                                                  : qPrintable(back.fabric->diagnostics.front().message));
        QCOMPARE(countKind(*back.fabric, FabricNodeKind::Switch),
                 countKind(*r.fabric, FabricNodeKind::Switch));
        // SHARP aggregation nodes have no host name and are not part of a design.
        int serverLinks = 0;
        for (const FabricLink& l : r.fabric->links) {
            const FabricNode* a = r.fabric->node(l.a);
            const FabricNode* b = r.fabric->node(l.b);
            serverLinks += (a->kind == FabricNodeKind::Switch || !a->host.isEmpty()) &&
                           (b->kind == FabricNodeKind::Switch || !b->host.isEmpty());
        }
        QCOMPARE(int(back.fabric->links.size()), serverLinks);
        // The same tiers, the switches named by their own names, the GUIDs kept for merging.
        const auto before = inferSwitchTiers(*r.fabric);
        const auto after = inferSwitchTiers(*back.fabric);
        for (const FabricNode& n : back.fabric->nodes) {
            if (n.kind != FabricNodeKind::Switch)
                continue;
            QVERIFY(n.id.contains(QStringLiteral("IBLEAF")) || n.id.contains(QStringLiteral("IBSPINE")));
            QCOMPARE(after.at(n.id), before.at(QStringLiteral("S-") + n.guid.mid(2)));
        }
        auto withoutComments = [](const QString& text) {
            QStringList lines = text.split(QLatin1Char('\n'));
            lines.removeIf([](const QString& l) { return l.startsWith(QLatin1Char('#')); });
            return lines;
        };
        QCOMPARE(withoutComments(writeFabricFile(*back.fabric)), withoutComments(written));
    }

    void badLinesAreNamed_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("says");
        QTest::newRow("undeclared switch") << QByteArray("rackscope-fabric 1\nswitch a\nlink n1/mlx5_0 b:1\n")
                                           << 3 << "b is not a switch declared";
        QTest::newRow("declared twice")
            << QByteArray("rackscope-fabric 1\nswitch a\n\nswitch a\n") << 4 << "already declared at line 2";
        QTest::newRow("unknown key") << QByteArray("rackscope-fabric 1\nswitch a colour=red\n") << 2
                                     << "unknown key colour=";
        QTest::newRow("bad tier") << QByteArray("rackscope-fabric 1\nswitch a tier=top\n") << 2
                                  << "tier 'top'";
        QTest::newRow("bad ports") << QByteArray("rackscope-fabric 1\nswitch a ports=-3\n") << 2
                                   << "not a port count";
        QTest::newRow("one end") << QByteArray("rackscope-fabric 1\nswitch a\nlink a:1\n") << 3 << "two ends";
        QTest::newRow("unknown verb")
            << QByteArray("rackscope-fabric 1\nrouter r1\n") << 2 << "'router' is not";
        QTest::newRow("switch as server") << QByteArray("rackscope-fabric 1\nswitch a\nlink a/mlx5_0 a:1\n")
                                          << 3 << "is a switch, not a server";
        QTest::newRow("bad mtu") << QByteArray("rackscope-fabric 1\nswitch a\nlink n/d a:1 mtu=big\n") << 3
                                 << "mtu 'big'";
    }
    void badLinesAreNamed() {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, says);
        const FabricFileImport r = importFabricFile(text, {});
        QVERIFY(r.fabric);
        QCOMPARE(r.fabric->diagnostics.size(), size_t(1));
        QCOMPARE(r.fabric->diagnostics[0].line, line);
        QVERIFY2(r.fabric->diagnostics[0].message.contains(says),
                 qPrintable(r.fabric->diagnostics[0].message));
    }

    void refusedWhole() {
        QVERIFY(importFabricFile("", {}).error.contains(QStringLiteral("rackscope-fabric 1")));
        QVERIFY(importFabricFile("rackscope-fabric 2\n", {}).error.contains(QStringLiteral("version '2'")));
        QVERIFY(importFabricFile("switch a\n", {}).error.contains(QStringLiteral("line 1")));
        // Cut anywhere, a design still reads up to the cut, and says what it could not read.
        const QByteArray full = "rackscope-fabric 1\nswitch spine tier=spine\nswitch leaf tier=leaf\nlink "
                                "leaf:1 spine:1\nlink n1/mlx5_0 leaf:2\n";
        for (int cut = 0; cut < full.size(); ++cut) {
            const FabricFileImport r = importFabricFile(full.left(cut), {});
            QVERIFY(r.fabric || !r.error.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestFabricFile)
#include "test_fabric_file.moc"
