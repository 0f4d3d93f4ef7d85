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
        const FabricImport r = importIbnetdiscover(fixtureBytes(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")), {});
        QVERIFY(r.fabric);
        const auto tiers = inferSwitchTiers(*r.fabric);
        int leaves = 0, spines = 0;
        for (const FabricNode& n : r.fabric->nodes) {
            if (n.kind != FabricNodeKind::Switch) continue;
            const QString expected = n.description.contains(QStringLiteral("IBLEAF")) ? QStringLiteral("leaf") : QStringLiteral("spine");
            QVERIFY2(n.description.contains(QStringLiteral("IBLEAF")) || n.description.contains(QStringLiteral("IBSPINE")), qPrintable(n.description));
            QCOMPARE(tierName(tiers.at(n.id)), expected);
            (expected == QLatin1String("leaf") ? leaves : spines)++;
        }
        QCOMPARE(leaves, 31);
        QCOMPARE(spines, 9);
    }

    void treeTopologyTiersMatchItsComments() {
        const SlurmTopologyImport r = importSlurmTopology(fixtureBytes(QStringLiteral("slurm-topology-conf-tree-topograph-expected.conf")), {});
        QVERIFY(r.fabric);
        const auto tiers = inferSwitchTiers(*r.fabric);
        for (const FabricNode& n : r.fabric->nodes) {
            if (n.kind != FabricNodeKind::Switch) continue;
            const QString expected = n.description.startsWith(QLatin1String("leaf")) ? QStringLiteral("leaf")
                                     : n.description.startsWith(QLatin1String("spine")) ? QStringLiteral("spine")
                                                                                        : QStringLiteral("core");
            QCOMPARE(tierName(tiers.at(n.id)), expected);
        }
    }

    void cliJsonAndExport() {
        const QString superpod = fixture(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt"));
        const Run r = cli({QStringLiteral("fabric"), QStringLiteral("--json"), superpod});
        QCOMPARE(r.code, 0);
        const QJsonObject f = QJsonDocument::fromJson(r.out).object().value("fabrics").toArray().first().toObject();
        QCOMPARE(f.value("switches").toArray().size(), 40);
        QCOMPARE(f.value("hosts").toArray().size(), 582);
        const QJsonObject link = f.value("links").toArray().first().toObject();
        for (const char* key : {"a", "a_port", "b", "b_port", "width", "speed", "state"}) QVERIFY2(link.contains(QLatin1String(key)), key);
        QCOMPARE(link.value("speed").toString(), QStringLiteral("NDR"));
        QVERIFY(f.value("findings").toArray().isEmpty());
        // A discovered fabric becomes a topology.conf for the scheduler, and reads back.
        const Run conf = cli({QStringLiteral("fabric"), QStringLiteral("--export"), QStringLiteral("topology.conf"), superpod});
        QCOMPARE(conf.code, 0);
        const SlurmTopologyImport back = importSlurmTopology(conf.out, {});
        QVERIFY2(back.fabric && back.fabric->diagnostics.empty(), qPrintable(back.error));
        int switches = 0;
        for (const FabricNode& n : back.fabric->nodes) switches += n.kind == FabricNodeKind::Switch;
        QCOMPARE(switches, 40);
        const auto tiers = inferSwitchTiers(*back.fabric);
        QCOMPARE(int(std::count_if(tiers.begin(), tiers.end(), [](const auto& t) { return t.second == 1; })), 31);
    }

    void cliBadInput() {
        const Run edr = cli({QStringLiteral("fabric"), QStringLiteral("--json"), fixture(QStringLiteral("ibnetdiscover-edr-fdr-with-smp-error-line.txt"))});
        QCOMPARE(edr.code, 0);
        const QJsonArray findings = QJsonDocument::fromJson(edr.out).object().value("fabrics").toArray().first().toObject().value("findings").toArray();
        QCOMPARE(findings.size(), 1);
        QVERIFY(findings.first().toObject().value("message").toString().contains(QStringLiteral("line 1")));
        const Run other = cli({QStringLiteral("fabric"), fixture(QStringLiteral("PROVENANCE.md")), fixture(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt"))});
        QCOMPARE(other.code, 2);
        QVERIFY(other.err.contains("not a fabric source"));
        QVERIFY(other.out.contains("leaf (1)"));
        QCOMPARE(cli({QStringLiteral("fabric"), QStringLiteral("--export"), QStringLiteral("png"), fixture(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt"))}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestFabric)
#include "test_fabric.moc"
