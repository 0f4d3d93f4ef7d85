// Host lists and Slurm topology.conf: both real forms read, and written back
// byte for byte; bad input reported with its line.
#include "test_support.h"

#include "import/slurm_topology_conf.h"
#include "model/hostlist.h"
#include "report/slurm_topology_writer.h"

#include <QFile>

using namespace rackscope;
using namespace rackscope::test;

class TestSlurmTopology : public QObject {
    Q_OBJECT
private slots:
    void hostsFile() {
        const HostlistResult r = parseHostsFile(
            QStringLiteral("# rack A\ngpu[01-03]  login\n\ngpu02 # again\nrack[1-2]-n1,bastion\n"));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.hosts,
                 QStringList({"gpu01", "gpu02", "gpu03", "login", "rack1-n1", "rack2-n1", "bastion"}));
        const HostlistResult bad = parseHostsFile(QStringLiteral("a\nb\ngpu[3-1]\n"));
        QVERIFY(bad.hosts.isEmpty());
        QVERIFY2(bad.error.startsWith(QStringLiteral("line 3:")), qPrintable(bad.error));
        QVERIFY(parseHostsFile(QString()).hosts.isEmpty());
    }

    void hostlists() {
        QCOMPARE(expandHostlist(QStringLiteral("gpu[001-003]")).hosts,
                 QStringList({"gpu001", "gpu002", "gpu003"}));
        QCOMPARE(expandHostlist(QStringLiteral("rack[1-2]-node[01-02]")).hosts,
                 QStringList({"rack1-node01", "rack1-node02", "rack2-node01", "rack2-node02"}));
        QCOMPARE(expandHostlist(QStringLiteral("a,b[1,3,5-6],c")).hosts,
                 QStringList({"a", "b1", "b3", "b5", "b6", "c"}));
        QCOMPARE(expandHostlist(QStringLiteral("gpu[001-128]")).hosts.size(), 128);
        QCOMPARE(expandHostlist(QStringLiteral("node[8-11]")).hosts.last(), QStringLiteral("node11"));
        for (const char* bad : {"gpu[3-1]", "gpu[1-", "gpu]1[", "gpu[a-b]", "a,,b", "n[1-2000000]", "x[[1]]"})
            QVERIFY2(!expandHostlist(QLatin1String(bad)).error.isEmpty(), bad);
        QVERIFY(expandHostlist(QStringLiteral("n[0-999],m[0-999],o[0-999]")).error.isEmpty());
        // What no host is called, in every command that takes a host list: ssh and mpirun would read
        // a leading '-' as an option.
        for (const char* bad : {"gpu[01-02],-Efoo", "-Fevil", "gpu01,-oProxyCommand=x", "a b", "a;b",
                                "a$(id)", "a/b", "a@b", ".hidden", "n\x01"}) {
            const HostlistResult r = expandHostlist(QLatin1String(bad));
            QVERIFY2(!r.error.isEmpty() && r.hosts.isEmpty(), bad);
        }
        QVERIFY(expandHostlist(QStringLiteral("-Fevil")).error.contains(QStringLiteral("begins with '-'")));
        QVERIFY(!parseHostsFile(QStringLiteral("gpu01\n-Fevil\n")).error.isEmpty());
        for (const char* good :
             {"gpu-01.rack_2.example.com", "10.0.0.1", "fd00::1", "fe80::1%eth0", "node[01-02]-ib"})
            QVERIFY2(expandHostlist(QLatin1String(good)).error.isEmpty(), good);
        QVERIFY(!expandHostlist(QStringLiteral("n[0-999][0-999][0-9]")).error.isEmpty()); // 10 million
        QCOMPARE(compressHostlist({"srv1101", "srv1102", "srv1103", "srv1105"}),
                 QStringLiteral("srv[1101-1103,1105]"));
        QCOMPARE(compressHostlist({"gpu001", "gpu002", "login", "x9"}),
                 QStringLiteral("gpu[001-002],login,x9"));
        QCOMPARE(compressHostlist({"s9", "s10", "s11"}), QStringLiteral("s[9-11]"));
        QCOMPARE(compressHostlist({"n08", "n09", "n10", "n9"}), QStringLiteral("n[08-10,9]"));
        QCOMPARE(compressHostlist({"c17", "c09"}), QStringLiteral("c[17,09]"));
        QStringList names{"node10", "node9", "node09x", "a2", "node1"};
        sortHostsNaturally(names);
        QCOMPARE(names, QStringList({"a2", "node1", "node9", "node10", "node09x"}));
        for (const char* list : {"gpu[001-128]", "a,b[1,3,5-6],c", "switch.2.[1-6]", "rack[1-2]-node[01-02]",
                                 "n[8-12],m[098-101]", "c[17,09,10-11]"}) {
            const QStringList hosts = expandHostlist(QLatin1String(list)).hosts;
            QCOMPARE(expandHostlist(compressHostlist(hosts)).hosts, hosts);
        }
    }

    void treeForm() {
        const QByteArray text =
            fixtureBytes(QStringLiteral("slurm-topology-conf-tree-topograph-expected.conf"));
        QVERIFY(looksLikeSlurmTopology(text));
        const SlurmTopologyImport r = importSlurmTopology(text, {});
        QVERIFY2(r.fabric, qPrintable(r.error));
        QVERIFY(r.fabric->diagnostics.empty());
        int switches = 0, hosts = 0;
        for (const FabricNode& n : r.fabric->nodes)
            (n.kind == FabricNodeKind::Switch ? switches : hosts)++;
        QCOMPARE(switches, int(text.count("SwitchName=")));
        QCOMPARE(hosts, 8 * int(text.count("Nodes=srv["))); // each leaf line holds srv[x101-x108]
        QCOMPARE(r.fabric->node(QStringLiteral("switch.2.1"))->description, QStringLiteral("spine-1"));
        QCOMPARE(QString::fromUtf8(text), writeSlurmTopology(*r.fabric)); // round trip, byte for byte
    }

    void blockForm() {
        const QByteArray text =
            fixtureBytes(QStringLiteral("slurm-topology-conf-block-topograph-expected.conf"));
        const SlurmTopologyImport r = importSlurmTopology(text, {});
        QVERIFY2(r.fabric, qPrintable(r.error));
        QCOMPARE(int(r.fabric->blocks.size()), int(text.count("BlockName=")));
        QCOMPARE(r.fabric->blocks[0].hosts.size(), 8);
        QCOMPARE(r.fabric->blockSizes, std::vector<int>({8, 16, 32}));
        QCOMPARE(QString::fromUtf8(text), writeSlurmTopology(*r.fabric));
    }

    void badInput() {
        const SlurmTopologyImport r = importSlurmTopology(
            "SwitchName=top Switches=leaf[1-2]\nSwitchName=leaf1 Nodes=n[1-2]\nSwitchName=leaf1 Nodes=n3\n"
            "SwitchName=leaf3 Nodes=n[4-\nhello world\nBlockSizes=8,x\n",
            {});
        QVERIFY(r.fabric);
        QStringList messages;
        for (const FabricDiagnostic& d : r.fabric->diagnostics)
            messages << QStringLiteral("%1: %2").arg(d.line).arg(d.message);
        QVERIFY2(messages.contains(QStringLiteral("3: switch leaf1 is declared twice")),
                 qPrintable(messages.join(QLatin1Char('|'))));
        QVERIFY(messages.filter(QStringLiteral("4: Nodes=:")).size() == 1);
        QVERIFY(messages.contains(QStringLiteral("5: not a topology.conf line")));
        QVERIFY(messages.filter(QStringLiteral("6: BlockSizes")).size() == 1);
        QVERIFY(
            messages.contains(QStringLiteral("1: switch top lists leaf2, which no SwitchName= declares")));
        QVERIFY(!importSlurmTopology("# nothing\n", {}).fabric);
    }
};

QTEST_GUILESS_MAIN(TestSlurmTopology)
#include "test_slurm_topology.moc"
