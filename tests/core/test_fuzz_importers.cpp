// Mutated real fixtures through every importer: each run ends in a host or
// a one-line error, never a crash (this test earns its keep under ASan/UBSan).
#include "test_support.h"

#include "analysis/fabric_merge.h"
#include "analysis/fabric_placement.h"
#include "import/fabric_file.h"
#include "import/fabric_loader.h"
#include "import/slurm_topology_conf.h"
#include "report/fabric_file_writer.h"
#include "report/fabric_report.h"
#include "report/inspect_report.h"
#include "report/slurm_topology_writer.h"
#include "workspace/sources.h"
#include <QTemporaryDir>

#include <QFile>
#include <QRandomGenerator>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QByteArray mutate(QByteArray in, QRandomGenerator& rng) {
    const int edits = 1 + int(rng.bounded(4));
    for (int e = 0; e < edits && !in.isEmpty(); ++e) {
        const qsizetype at = qsizetype(rng.bounded(quint32(in.size())));
        const qsizetype len = 1 + qsizetype(rng.bounded(quint32(qMin<qsizetype>(64, in.size() - at))));
        switch (rng.bounded(6)) {
        case 0:
            in[at] = char(rng.bounded(256));
            break; // flip a byte
        case 1:
            in.remove(at, len);
            break; // delete a run
        case 2:
            in.insert(at, in.mid(qsizetype(rng.bounded(quint32(in.size()))), len));
            break; // duplicate
        case 3:
            in.truncate(at);
            break; // truncate
        case 4:
            in.insert(at, QByteArray(int(len), char(rng.bounded(256))));
            break; // insert junk
        case 5: {  // replace a number with a huge or negative one
            const qsizetype digit = in.indexOf(char('0' + rng.bounded(10)), at);
            if (digit >= 0)
                in.replace(digit, 1, rng.bounded(2) ? "99999999999" : "-1");
            break;
        }
        }
    }
    return in;
}

} // namespace

class TestFuzzImporters : public QObject {
    Q_OBJECT
private slots:
    void mutatedFixtures_data() {
        QTest::addColumn<QString>("file");
        const QStringList files = fixtures(QStringLiteral("topo-m-*.txt")) +
                                  fixtures(QStringLiteral("nccl-topo-*.xml")) +
                                  fixtures(QStringLiteral("hwloc-*.xml"));
        QVERIFY(files.size() >= 26);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << fixture(f);
        for (const QString& f : {QStringLiteral("nccl-topo-dump-gb300-nvl72-1tray-4gpu-c2c-mnnvl.xml"),
                                 QStringLiteral("nccl-topo-dump-gb300-nvl72-2tray-8gpu-fused-mnnvl.xml"),
                                 QStringLiteral("topo-m-4xH100-gcp-a3-4gpu-slice-no-nic-gpu-numa-id-NA.txt")})
            QTest::newRow(qPrintable(f)) << incoming(f);
    }
    void mutatedFixtures() {
        QFETCH(QString, file);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray original = f.readAll();
        QRandomGenerator rng(quint32(qHash(file)));
        int hosts = 0, errors = 0;
        for (int i = 0; i < 120; ++i) {
            ImportResult r = importTopology(mutate(original, rng), file);
            if (r.host) {
                ++hosts;
                const HostAnalysis a = analyzeHost(*r.host);
                const QJsonObject json = inspectToJson({{*r.host, a}}, {});
                QVERIFY(json.contains(QStringLiteral("hosts")));
                QVERIFY(!inspectToText({{*r.host, a}}).isEmpty());
            } else {
                ++errors;
                QVERIFY(!r.error.isEmpty());
                QVERIFY2(!r.error.contains(QLatin1Char('\n')), qPrintable(r.error));
            }
        }
        QCOMPARE(hosts + errors, 120);
    }

    // Every fabric source, mutated, through the whole fabric path: import,
    // merge with the original, analysis, every report and export.
    void mutatedFabricSources() {
        QStringList files = fixtures(QStringLiteral("ibnetdiscover-*.txt")) +
                            fixtures(QStringLiteral("slurm-topology-conf-*.conf"));
        QCOMPARE(files.size(), 6);
        std::vector<std::pair<QString, QByteArray>> inputs;
        for (const QString& file : files)
            inputs.emplace_back(file, fixtureBytes(file));
        const FabricLoad superpod =
            importFabric(fixtureBytes(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")), {});
        QVERIFY(superpod.fabric);
        inputs.emplace_back(QStringLiteral("written fabric file"),
                            writeFabricFile(*superpod.fabric).left(20000).toUtf8());
        inputs.emplace_back(
            QStringLiteral("snapshot"),
            QByteArray("{\"type\":\"rackscope-snapshot\",\"format\":1,\"host\":\"node17\",\"rdma\":{"
                       "\"available\":true,\"devices\":[{\"name\":\"mlx5_0\","
                       "\"node_guid\":\"e09d:7303:007a:4bd8\",\"netdevs\":[\"ens1f0np0\"],\"ports\":[{"
                       "\"port\":\"1\",\"state\":{\"code\":1,\"name\":\"DOWN\"}}]}]},"
                       "\"net\":{\"available\":true,\"interfaces\":[{\"name\":\"ens1f0np0\",\"operstate\":"
                       "\"up\",\"mtu\":9000,\"speed_mbps\":400000}]},"
                       "\"lldp\":{\"available\":true,\"neighbors\":[{\"interface\":\"ens1f0np0\",\"system_"
                       "name\":\"leaf01\",\"chassis_id\":\"c6:ca:ad:02:80:71\","
                       "\"port_id\":\"swp1\",\"port_descr\":\"swp1\",\"mfs\":9216}]}}"));
        for (const auto& [file, original] : inputs) {
            const FabricLoad clean = importFabric(original, file);
            QVERIFY2(clean.fabric, qPrintable(file + QStringLiteral(": ") + clean.error));
            QRandomGenerator rng(quint32(qHash(file)));
            for (int i = 0; i < 40; ++i) {
                const FabricLoad r = importFabric(mutate(original, rng), file);
                QVERIFY(r.fabric || !r.error.isEmpty());
                if (!r.fabric)
                    continue;
                for (const FabricDiagnostic& d : r.fabric->diagnostics)
                    QVERIFY(d.line > 0 && !d.message.isEmpty());
                const Fabric merged = mergeFabrics({*clean.fabric, *r.fabric});
                const FabricAnalysis a = analyseFabric(merged);
                QVERIFY(fabricToJson(merged, a).contains(QStringLiteral("switches")));
                QVERIFY(!fabricToText(merged, a).isEmpty());
                QVERIFY(fabricToDot(merged, a).endsWith(QLatin1String("}\n")));
                QVERIFY(writeFabricFile(merged).startsWith(QLatin1String("rackscope-fabric 1")));
                writeSlurmTopology(merged);
                QStringList hosts;
                for (const FabricHost& h : a.hosts)
                    hosts << h.name;
                proposeGroups(merged, a, hosts.mid(0, 40), 4);
            }
        }
    }

    // The demo cluster mutated (its cluster file, its server topologies and its fabric file) through
    // loading and laying out a diagram: each run draws what could be read and names what could not.
    void mutatedClusterThroughTheDiagram() {
        QRandomGenerator rng(7);
        QTemporaryDir dir;
        const QStringList files{QStringLiteral("demo.cluster"), QStringLiteral("demo-rack.fabric"),
                                QStringLiteral("h100-8gpu-node.xml"),
                                QStringLiteral("h100-8gpu-node-two-nics-missing.xml"),
                                QStringLiteral("h100-8gpu-node-nics-on-one-socket.xml")};
        std::map<QString, QByteArray> originals;
        for (const QString& f : files) {
            QFile in(QStringLiteral(":/demo/") + f);
            QVERIFY(in.open(QIODevice::ReadOnly));
            originals[f] = in.readAll();
        }
        for (int round = 0; round < 60; ++round) {
            const QString victim = files[qsizetype(rng.bounded(quint32(files.size())))];
            for (const QString& f : files) {
                QFile out(dir.filePath(f));
                QVERIFY(out.open(QIODevice::WriteOnly));
                out.write(f == victim ? mutate(originals[f], rng) : originals[f]);
            }
            const LoadedSources s = loadSources({dir.filePath(QStringLiteral("demo.cluster"))});
            for (const FailedInput& f : s.failed)
                QVERIFY(!f.message.isEmpty());
            const Diagram d = buildDiagram(s.input);
            for (const DiagramItem& it : d.items)
                if (it.parent >= 0)
                    QVERIFY(d.items[it.parent].rect.contains(it.rect));
            for (const DiagramLink& l : d.links)
                QVERIFY(l.a >= 0 && l.b >= 0 && l.a < int(d.items.size()) && l.b < int(d.items.size()));
        }
    }

    void randomText() {
        QRandomGenerator rng(99);
        const QByteArray alphabet = "GPU0NIC1 X\tNV12PIXPXBSYSNODE<>/=\"system topology pci busid\n";
        for (int i = 0; i < 500; ++i) {
            QByteArray in;
            const int n = int(rng.bounded(400));
            for (int k = 0; k < n; ++k)
                in += alphabet[qsizetype(rng.bounded(quint32(alphabet.size())))];
            ImportResult r = importTopology(in, QStringLiteral("random"));
            if (r.host)
                analyzeHost(*r.host);
            else
                QVERIFY(!r.error.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzImporters)
#include "test_fuzz_importers.moc"
