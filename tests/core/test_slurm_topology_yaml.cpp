// Slurm's topology.yaml: both official examples read (and what is not derived said, with its line), a
// discovered fabric and NVLink domains written and read back, a given topology checked against what was
// discovered, and groups kept inside an NVLink domain.
#include "nvl72_paste.h"
#include "test_support.h"

#include "analysis/fabric_placement.h"
#include "analysis/slurm_topology_check.h"
#include "import/fabric_loader.h"
#include "import/ibnetdiscover_importer.h"
#include "import/nvlink_inputs.h"
#include "import/slurm_topology_conf.h"
#include "import/slurm_topology_yaml.h"
#include "report/slurm_topology_writer.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

// The line of `text` that starts with `prefix`, from 1; the test's own reading of the file.
int lineOf(const QByteArray& text, const QString& prefix) {
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].startsWith(prefix))
            return i + 1;
    return 0;
}

QStringList switchMembers(const Fabric& f, const QString& sw, FabricNodeKind kind) {
    QStringList out;
    for (const FabricLink& l : f.links) {
        const QString other = l.a == sw ? l.b : l.b == sw ? l.a : QString();
        const FabricNode* n = other.isEmpty() ? nullptr : f.node(other);
        if (n && n->kind == kind && !(kind == FabricNodeKind::Switch && l.b == sw))
            out << other;
    }
    return out;
}

struct Run {
    int code;
    QByteArray out, err;
};
Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_CLI), args);
    p.waitForFinished(120000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestSlurmTopologyYaml : public QObject {
    Q_OBJECT
private slots:
    void slurm2505Example() {
        const QString name = QStringLiteral("slurm-topology-yaml_schedmd-man5-example_tree-block-flat.yaml");
        const QByteArray text = incomingBytes(name);
        QVERIFY(looksLikeSlurmTopologyYaml(text));
        const SlurmTopologyYamlImport r = importSlurmTopologyYaml(text, name);
        QVERIFY2(r.fabric, qPrintable(r.error));
        QCOMPARE(int(r.topologies.size()), 3);
        QCOMPARE(r.topologies[0].kind, QStringLiteral("tree"));
        QVERIFY(r.topologies[0].clusterDefault); // "True", capitalised
        QVERIFY(!r.topologies[1].clusterDefault);
        QCOMPARE(switchMembers(*r.fabric, QStringLiteral("sw_root"), FabricNodeKind::Host),
                 QStringList({"node01", "node02", "node03", "node04"}));
        QCOMPARE(int(r.fabric->blocks.size()), 4);
        QCOMPARE(r.fabric->blocks[3].hosts, QStringList({"node13", "node14", "node15", "node16"}));
        QCOMPARE(r.fabric->blockSizes, std::vector<int>({4, 16}));
        QCOMPARE(int(r.fabric->diagnostics.size()), 1);
        QCOMPARE(r.fabric->diagnostics[0].line, lineOf(text, QStringLiteral("- topology: topo3")));
        QVERIFY(r.fabric->diagnostics[0].message.contains(QLatin1String("flat")));
    }

    // 26.05: "---", lowercase booleans, children, flat as a mapping, ring and torus3d.
    void slurm2605Example() {
        const QString name = QStringLiteral(
            "slurm-topology-yaml_schedmd-26.05-docs-example_tree-block-flat-ring-torus3d.yaml");
        const QByteArray text = incomingBytes(name);
        const SlurmTopologyYamlImport r = importSlurmTopologyYaml(text, name);
        QVERIFY2(r.fabric, qPrintable(r.error));
        QCOMPARE(int(r.topologies.size()), 6);
        QCOMPARE(switchMembers(*r.fabric, QStringLiteral("sw_root"), FabricNodeKind::Switch),
                 QStringList({"s1", "s2"}));
        QCOMPARE(switchMembers(*r.fabric, QStringLiteral("s2"), FabricNodeKind::Host),
                 QStringList({"node03", "node04"}));
        QCOMPARE(int(r.fabric->blocks.size()), 4);
        QStringList notDerived;
        for (const FabricDiagnostic& d : r.fabric->diagnostics) {
            QVERIFY2(d.message.contains(QLatin1String("read, not derived")), qPrintable(d.message));
            notDerived << QString::number(d.line);
        }
        QCOMPARE(notDerived,
                 QStringList({QString::number(lineOf(text, QStringLiteral("- topology: topo3"))),
                              QString::number(lineOf(text, QStringLiteral("- topology: topo3a"))),
                              QString::number(lineOf(text, QStringLiteral("- topology: topo4"))),
                              QString::number(lineOf(text, QStringLiteral("- topology: topo5")))}));
        // Read through the loader every fabric command uses, chosen by content.
        const FabricLoad l = importFabric(text, name);
        QVERIFY2(l.fabric, qPrintable(l.error));
    }

    // A discovered fabric (the real SuperPOD) as topology.yaml, read back: the same tree as topology.conf.
    void roundTrip() {
        const FabricImport discovered = importIbnetdiscover(
            fixtureBytes(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")), {});
        QVERIFY(discovered.fabric);
        Fabric f = *discovered.fabric;
        f.blocks = {{QStringLiteral("nvl1"), QStringLiteral("NVLink domain a/1"), {"dgx01", "dgx02"}, 0}};
        const QString yaml = writeSlurmTopologyYaml(f);
        const SlurmTopologyYamlImport back =
            importSlurmTopologyYaml(yaml.toUtf8(), QStringLiteral("written"));
        QVERIFY2(back.fabric, qPrintable(back.error + QLatin1Char('\n') + yaml.left(2000)));
        QVERIFY2(back.fabric->diagnostics.empty(),
                 qPrintable(back.fabric->diagnostics.empty() ? QString()
                                                             : back.fabric->diagnostics.front().message));
        // The same switches, children, servers and blocks (names' descriptions are comments in YAML: not
        // read).
        const auto withoutComments = [](const QString& conf) {
            QStringList lines = conf.split(QLatin1Char('\n'));
            lines.removeIf([](const QString& l) { return l.startsWith(QLatin1Char('#')); });
            return lines;
        };
        QCOMPARE(withoutComments(writeSlurmTopology(*back.fabric)), withoutComments(writeSlurmTopology(f)));
        QVERIFY(back.topologies[1].clusterDefault); // the blocks are the default
        // And the 26.05 example, written and read back.
        const QByteArray example = incomingBytes(QStringLiteral(
            "slurm-topology-yaml_schedmd-26.05-docs-example_tree-block-flat-ring-torus3d.yaml"));
        const Fabric read = *importSlurmTopologyYaml(example, {}).fabric;
        const auto again = importSlurmTopologyYaml(writeSlurmTopologyYaml(read).toUtf8(), {});
        QVERIFY(again.fabric);
        QCOMPARE(withoutComments(writeSlurmTopology(*again.fabric)),
                 withoutComments(writeSlurmTopology(read)));
        // A name YAML would misread is quoted.
        Fabric odd;
        odd.blocks = {{QStringLiteral("a: b"), {}, {"n1"}, 0}};
        QCOMPARE(
            importSlurmTopologyYaml(writeSlurmTopologyYaml(odd).toUtf8(), {}).fabric->blocks.front().name,
            QStringLiteral("a: b"));
    }

    void badInput() {
        const SlurmTopologyYamlImport broken =
            importSlurmTopologyYaml("- topology: t\n  tree: [\n", QStringLiteral("x"));
        QVERIFY(!broken.fabric);
        QVERIFY2(broken.error.startsWith(QLatin1String("not valid YAML at line")), qPrintable(broken.error));
        QVERIFY(!importSlurmTopologyYaml("topology: t\n", {}).fabric);
        const SlurmTopologyYamlImport bad =
            importSlurmTopologyYaml("- topology: t\n  tree:\n    switches:\n      - switch: s1\n        "
                                    "nodes: n[3-1]\n      - switch: s2\n"
                                    "        children: s9\n        nodes: n1\n",
                                    QStringLiteral("x"));
        QVERIFY(bad.fabric);
        QStringList messages;
        for (const FabricDiagnostic& d : bad.fabric->diagnostics)
            messages << QStringLiteral("%1: %2").arg(d.line).arg(d.message);
        QVERIFY2(messages.filter(QStringLiteral("4: nodes:")).size() == 1, qPrintable(messages.join('|')));
        QVERIFY2(messages.contains(QStringLiteral("6: switch s2 lists s9, which no switch: declares")),
                 qPrintable(messages.join('|')));
        // Aliases of aliases cost what the document costs.
        QByteArray bomb = "a: &a [x, x]\n";
        for (char c = 'b'; c <= 'z'; ++c)
            bomb += QByteArray(1, c) + ": &" + QByteArray(1, c) + " [*" + QByteArray(1, char(c - 1)) + ", *" +
                    QByteArray(1, char(c - 1)) + "]\n";
        QVERIFY(!importSlurmTopologyYaml(bomb, {}).fabric);
        // Mutated examples: a fabric or a one-line error.
        const QByteArray original = incomingBytes(QStringLiteral(
            "slurm-topology-yaml_schedmd-26.05-docs-example_tree-block-flat-ring-torus3d.yaml"));
        QRandomGenerator rng(7);
        for (int i = 0; i < 300; ++i) {
            QByteArray m = original;
            const qsizetype at = qsizetype(rng.bounded(quint32(m.size())));
            switch (rng.bounded(3)) {
            case 0:
                m[at] = char(rng.bounded(256));
                break;
            case 1:
                m.remove(at, qsizetype(rng.bounded(40)));
                break;
            default:
                m.truncate(at);
            }
            const SlurmTopologyYamlImport r = importSlurmTopologyYaml(m, {});
            QVERIFY(r.fabric || (!r.error.isEmpty() && !r.error.contains(QLatin1Char('\n'))));
        }
    }

    // A topology.conf whose blocks cross the NVLink domains and whose leaf lists a server cabled elsewhere.
    void checkAgainstDiscovered() {
        const NvlinkInput nvlink = readNvlinkText(nvl72Paste(), QStringLiteral("pdsh"));
        QCOMPARE(int(nvlinkDomains(nvlink.fabric).size()), 2);
        const QByteArray discoveredConf =
            "SwitchName=leafA Nodes=tray[01-18]\nSwitchName=leafB Nodes=tray[19-36]\n";
        const Fabric discovered = *importSlurmTopology(discoveredConf, {}).fabric;
        const FabricAnalysis analysis = analyseFabric(discovered);
        const QByteArray given =
            "BlockName=r1 Nodes=tray[01-17],tray19\nBlockName=r2 Nodes=tray18,tray[20-35]\n"
            "SwitchName=s1 Nodes=tray[01-17],tray20\nSwitchName=s2 Nodes=tray19,tray[21-36]\n";
        const Fabric declared = *importSlurmTopology(given, {}).fabric;
        const std::vector<Finding> findings = checkSlurmTopology(declared, &analysis, &nvlink.fabric);
        QStringList seen;
        for (const Finding& f : findings)
            seen << f.code + QStringLiteral(": ") + f.message;
        const QString all = seen.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("slurm-block-spans-domains: Block r1 spans 2 NVLink domains")),
                 qPrintable(all));
        QVERIFY2(all.contains(
                     QLatin1String("slurm-server-wrong-block: tray18 is in block r2, but its NVLink domain "
                                   "dc6e40c4/2 is block r1's")),
                 qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("slurm-server-in-no-block: tray36 of NVLink domain dc6e40c4/3")),
                 qPrintable(all));
        QVERIFY2(all.contains(
                     QLatin1String("slurm-switch-members-differ: Switch s1 matches leaf leafA of the fabric, "
                                   "but tray20 are not under it; tray18 are under it but not listed")),
                 qPrintable(all));
        // What was written from the same discovery agrees with it.
        Fabric written = discovered;
        written.blocks = nvlinkDomainBlocks(nvlink.fabric);
        const Fabric back = *importSlurmTopologyYaml(writeSlurmTopologyYaml(written).toUtf8(), {}).fabric;
        QVERIFY(checkSlurmTopology(back, &analysis, &nvlink.fabric).empty());
    }

    // Groups of 8 stay in one NVLink domain before they stay under one leaf.
    void groupsInsideADomain() {
        const NvlinkInput nvlink = readNvlinkText(nvl72Paste(), QStringLiteral("pdsh"));
        // One leaf for all 36 trays: only the NVLink domain tells them apart.
        const Fabric f = *importSlurmTopology("SwitchName=leaf Nodes=tray[01-36]\n", {}).fabric;
        const FabricAnalysis a = analyseFabric(f);
        QStringList hosts;
        for (int t = 1; t <= 36; ++t)
            hosts << QStringLiteral("tray%1").arg(t, 2, 10, QLatin1Char('0'));
        const Placement p = proposeGroups(f, a, hosts, 8, hostDomains(nvlink.fabric));
        QCOMPARE(int(p.groups.size()),
                 4); // 2 per domain; the 2 + 2 left over make no group of 8 in one domain
        for (const PlacementGroup& g : p.groups)
            QVERIFY2(!g.nvlinkDomain.isEmpty(), qPrintable(g.hosts.join(',')));
        QCOMPARE(p.unplaced.size(), 4);
        // Without the domains, the leaf alone: 4 groups that cross the racks' boundary at tray16/17.
        const Placement flat = proposeGroups(f, a, hosts, 8);
        QVERIFY(std::any_of(flat.groups.begin(), flat.groups.end(), [](const PlacementGroup& g) {
            return g.hosts.contains(QStringLiteral("tray17")) && g.hosts.contains(QStringLiteral("tray19"));
        }));
    }

    void commandLine() {
        QTemporaryDir dir;
        QFile nvl(dir.filePath(QStringLiteral("nvl.txt")));
        QVERIFY(nvl.open(QIODevice::WriteOnly));
        nvl.write(nvl72Paste());
        nvl.close();
        const Run yaml = cli({QStringLiteral("fabric"), QStringLiteral("--nvlink"), nvl.fileName(),
                              QStringLiteral("--export"), QStringLiteral("topology.yaml")});
        QCOMPARE(yaml.code, 0);
        QVERIFY2(yaml.out.contains("- block: nvl2\n        nodes: tray[19-36]\n"), yaml.out.constData());
        QFile written(dir.filePath(QStringLiteral("topology.yaml")));
        QVERIFY(written.open(QIODevice::WriteOnly));
        written.write(yaml.out);
        written.close();
        const Run ok = cli({QStringLiteral("fabric"), QStringLiteral("--nvlink"), nvl.fileName(),
                            QStringLiteral("--verify-slurm"), written.fileName()});
        QCOMPARE(ok.code, 0);
        QVERIFY2(ok.out.contains("agrees"), ok.out.constData());
        const Run slurm =
            cli({QStringLiteral("fabric"),
                 incoming(QStringLiteral("slurm-topology-yaml_schedmd-man5-example_tree-block-flat.yaml")),
                 QStringLiteral("--json")});
        QCOMPARE(slurm.code, 0);
        const Run nv =
            cli({QStringLiteral("nvlink"), nvl.fileName(), QStringLiteral("--racks"), written.fileName()});
        QCOMPARE(nv.code, 0);
        QVERIFY2(nv.out.contains("NVLink domain dc6e40c4/3"), nv.out.constData());
        const Run bad =
            cli({QStringLiteral("nvlink"), fixture(fixtures(QStringLiteral("topo-m-*.txt")).front())});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("no NVLink fabric state"));
    }
};

QTEST_GUILESS_MAIN(TestSlurmTopologyYaml)
#include "test_slurm_topology_yaml.moc"
