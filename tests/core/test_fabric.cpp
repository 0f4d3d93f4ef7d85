// Fabric tiers inferred from the graph, checked against what the real
// switches are named, and `rackscope-cli fabric` as a user runs it.
#include "test_support.h"

#include "analysis/fabric_tiers.h"
#include "import/ibnetdiscover_importer.h"
#include "import/slurm_topology_conf.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {
struct Run {
    int code;
    QByteArray out, err;
};
Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_CLI), args);
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}
} // namespace

class TestFabric : public QObject {
    Q_OBJECT
private slots:
    void superpodTiersMatchTheSwitchNames() {
        const FabricImport r = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")), {});
        QVERIFY(r.fabric);
        const auto tiers = inferSwitchTiers(*r.fabric);
        int leaves = 0, spines = 0;
        for (const FabricNode& n : r.fabric->nodes) {
            if (n.kind != FabricNodeKind::Switch)
                continue;
            const QString expected = n.description.contains(QStringLiteral("IBLEAF"))
                                         ? QStringLiteral("leaf")
                                         : QStringLiteral("spine");
            QVERIFY2(n.description.contains(QStringLiteral("IBLEAF")) ||
                         n.description.contains(QStringLiteral("IBSPINE")),
                     qPrintable(n.description));
            QCOMPARE(tierName(tiers.at(n.id)), expected);
            (expected == QLatin1String("leaf") ? leaves : spines)++;
        }
        QCOMPARE(leaves, 31);
        QCOMPARE(spines, 9);
    }

    void treeTopologyTiersMatchItsComments() {
        const SlurmTopologyImport r = importSlurmTopology(
            fixtureBytes(QStringLiteral("slurm-topology-conf-tree-topograph-expected.conf")), {});
        QVERIFY(r.fabric);
        const auto tiers = inferSwitchTiers(*r.fabric);
        for (const FabricNode& n : r.fabric->nodes) {
            if (n.kind != FabricNodeKind::Switch)
                continue;
            const QString expected = n.description.startsWith(QLatin1String("leaf")) ? QStringLiteral("leaf")
                                     : n.description.startsWith(QLatin1String("spine"))
                                         ? QStringLiteral("spine")
                                         : QStringLiteral("core");
            QCOMPARE(tierName(tiers.at(n.id)), expected);
        }
    }

    void cliJsonAndExport() {
        const QString superpod = fixture(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt"));
        const Run r = cli({QStringLiteral("fabric"), QStringLiteral("--json"), superpod});
        QCOMPARE(r.code, 0);
        const QJsonObject f = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(f.value("switches").toArray().size(), 40);
        const QJsonObject sw = f.value("switches").toArray().first().toObject();
        for (const char* key : {"id", "name", "tier", "ports"})
            QVERIFY2(sw.contains(QLatin1String(key)), key);
        QCOMPARE(f.value("hosts").toArray().size(), 122);
        const QJsonObject link = f.value("links").toArray().first().toObject();
        for (const char* key : {"a", "a_port", "b", "b_port", "width", "speed", "state"})
            QVERIFY2(link.contains(QLatin1String(key)), key);
        QCOMPARE(link.value("speed").toString(), QStringLiteral("NDR"));
        QVERIFY(link.value("a_port").isDouble());
        QCOMPARE(link.value("state").toString(), QStringLiteral("up"));
        QCOMPARE(f.value("rails").toArray().size(), 8);
        QCOMPARE(f.value("leaves").toArray().size(), 31);
        QVERIFY(!f.value("findings").toArray().isEmpty());
        // A discovered fabric becomes a topology.conf for the scheduler, and reads back.
        const Run conf = cli({QStringLiteral("fabric"), QStringLiteral("--export"),
                              QStringLiteral("topology.conf"), superpod});
        QCOMPARE(conf.code, 0);
        const SlurmTopologyImport back = importSlurmTopology(conf.out, {});
        QVERIFY2(back.fabric && back.fabric->diagnostics.empty(), qPrintable(back.error));
        int switches = 0;
        for (const FabricNode& n : back.fabric->nodes)
            switches += n.kind == FabricNodeKind::Switch;
        QCOMPARE(switches, 40);
        const auto tiers = inferSwitchTiers(*back.fabric);
        QCOMPARE(int(std::count_if(tiers.begin(), tiers.end(), [](const auto& t) { return t.second == 1; })),
                 31);
        const Run dot =
            cli({QStringLiteral("fabric"), QStringLiteral("--export"), QStringLiteral("dot"), superpod});
        QCOMPARE(dot.code, 0);
        QVERIFY(dot.out.contains("graph fabric {"));
        const Run design =
            cli({QStringLiteral("fabric"), QStringLiteral("--export"), QStringLiteral("fabric"), superpod});
        QCOMPARE(design.code, 0);
        QVERIFY(design.out.startsWith("rackscope-fabric 1\n"));
    }

    void cliMergesSources() {
        // A discovered fabric with the topology.conf written from it: the same switches, no conflicts.
        const QString superpod = fixture(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt"));
        QTemporaryDir dir;
        const QString designPath = dir.filePath(QStringLiteral("pod.fabric"));
        QFile out(designPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            cli({QStringLiteral("fabric"), QStringLiteral("--export"), QStringLiteral("fabric"), superpod})
                .out);
        out.close();
        const Run r = cli({QStringLiteral("fabric"), QStringLiteral("--json"), superpod, designPath});
        QCOMPARE(r.code, 0);
        const QJsonObject f = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(f.value("switches").toArray().size(), 40);
        for (const QJsonValue& x : f.value("findings").toArray())
            QVERIFY2(x.toObject().value("code").toString() != QLatin1String("fabric-source-conflict"),
                     qPrintable(x.toObject().value("message").toString()));
        QCOMPARE(f.value("links").toArray().first().toObject().value("expected_speed").toString(),
                 QStringLiteral("NDR"));
    }

    void cliHopsAndGroups() {
        const QString superpod = fixture(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt"));
        const Run hops =
            cli({QStringLiteral("fabric"), superpod, QStringLiteral("--hops"),
                 QStringLiteral("a08-p1-dgx-04-c16,b05-p1-dgx-05-c01"), QStringLiteral("--json")});
        QCOMPARE(hops.code, 0);
        QCOMPARE(QJsonDocument::fromJson(hops.out).object().value("switch_hops").toInt(), 3);
        const Run groups = cli({QStringLiteral("fabric"), superpod, QStringLiteral("--groups"),
                                QStringLiteral("4"), QStringLiteral("--of"),
                                QStringLiteral("a08-p1-dgx-04-c[01-08],nosuch01"), QStringLiteral("--json")});
        QCOMPARE(groups.code, 0);
        const QJsonObject g = QJsonDocument::fromJson(groups.out).object();
        QCOMPARE(g.value("groups").toArray().size(), 2);
        QCOMPARE(g.value("unplaced").toArray().first().toString(), QStringLiteral("nosuch01"));
        QCOMPARE(g.value("groups").toArray().first().toObject().value("max_switch_hops").toInt(), 1);
        QCOMPARE(cli({QStringLiteral("fabric"), superpod, QStringLiteral("--groups"), QStringLiteral("zero")})
                     .code,
                 2);
        QCOMPARE(
            cli({QStringLiteral("fabric"), superpod, QStringLiteral("--hops"), QStringLiteral("onlyone")})
                .code,
            2);
    }

    void cliBadInput() {
        const Run edr = cli({QStringLiteral("fabric"), QStringLiteral("--json"),
                             fixture(QStringLiteral("ibnetdiscover-edr-fdr-with-smp-error-line.txt"))});
        QCOMPARE(edr.code, 0);
        QStringList lineFindings;
        for (const QJsonValue& x : QJsonDocument::fromJson(edr.out).object().value("findings").toArray())
            if (x.toObject().value("code").toString() == QLatin1String("fabric-source-line"))
                lineFindings << x.toObject().value("message").toString();
        QCOMPARE(lineFindings.size(), 1);
        QVERIFY(lineFindings.first().contains(QStringLiteral("line 1")));
        const Run other = cli({QStringLiteral("fabric"), fixture(QStringLiteral("PROVENANCE.md")),
                               fixture(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt"))});
        QCOMPARE(other.code, 2);
        QVERIFY(other.err.contains("not a topology or fabric source")); // the inputs every face reads
        QVERIFY(other.out.contains("leaf (1)"));
        QCOMPARE(cli({QStringLiteral("fabric"), QStringLiteral("--export"), QStringLiteral("png"),
                      fixture(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt"))})
                     .code,
                 2);
        QCOMPARE(cli({QStringLiteral("fabric"), fixture(QStringLiteral("PROVENANCE.md"))}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestFabric)
#include "test_fabric.moc"
