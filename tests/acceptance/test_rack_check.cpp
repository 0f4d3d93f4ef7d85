// Rack acceptance over servers made of real parts (rack_hosts.h): eight servers, six of them with one fault
// each (a GPU link at x8, another driver, PFC off, a missing NIC, an MTU of 1500 among 9000s, a port at half
// rate). Every fault is found on its server and its check, and nothing else is reported. Then the
// expectation, the baseline, the CLI's JSON, JUnit (validated against the schema), and the HTML report opened
// in a real headless browser, and bad expectation and baseline files.
#include "rack_hosts.h"

#include "acceptance/check_output.h"
#include "acceptance/measured_checks.h"
#include "acceptance/rack_check.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

std::vector<RackHost> faultyRack() {
    std::vector<RackHost> rack;
    for (int i = 1; i <= 8; ++i)
        rack.push_back(rackHost(QStringLiteral("node%1").arg(i)));
    rack[2].narrowGpu = 3;
    rack[3].driver = QStringLiteral("550.90.07");
    rack[4].pfc = QStringLiteral("0,0,0,0,0,0,0,0");
    rack[5].missingNic = QStringLiteral("mlx5_9");
    rack[6].mtu = 1500;
    rack[7].halfRateNic = QStringLiteral("mlx5_4");
    return rack;
}

// What was found that is neither a pass nor an unknown, as "host check verdict subject".
QStringList problems(const RackCheck& rack) {
    QStringList out;
    for (const ServerCheck& s : rack.servers)
        for (const CheckResult& c : s.checks)
            for (const CheckItem& i : c.items)
                if (i.verdict == Verdict::Warn || i.verdict == Verdict::Fail)
                    out << QStringLiteral("%1 %2 %3 %4")
                               .arg(s.host, c.id, verdictName(i.verdict), i.subject)
                               .trimmed();
    out.sort();
    return out;
}

const CheckItem* firstBad(const RackCheck& rack, const QString& host, const QString& check) {
    for (const ServerCheck& s : rack.servers)
        if (s.host == host)
            if (const CheckResult* c = s.check(check))
                for (const CheckItem& i : c->items)
                    if (i.verdict != Verdict::Pass && i.verdict != Verdict::Unknown)
                        return &i;
    return nullptr;
}

struct Run {
    int code;
    QByteArray out, err;
};
Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_CLI), args);
    p.waitForFinished(180000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

class TestRackCheck : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::map<QString, QJsonObject> snapshots_; // by host: the faulty rack's
    std::map<QString, QJsonObject> clean_;     // the same servers without their faults

    Workspace rackOf(const std::map<QString, QJsonObject>& snapshots, const QStringList& hosts = {}) {
        Workspace ws;
        for (const auto& [name, s] : snapshots)
            if (hosts.isEmpty() || hosts.contains(name))
                [&] {
                    QCOMPARE(ws.takeAgentAnswer(QStringLiteral("ssh://") + name, s, Workspace::Mode::Add),
                             QString());
                }();
        return ws;
    }
    QString snapshotFile(const QString& host, const QJsonObject& s) {
        const QString path = dir_.filePath(host + QStringLiteral(".json"));
        writeText(path, QJsonDocument(s).toJson(QJsonDocument::Compact));
        return path;
    }

private slots:
    void initTestCase() {
        for (const RackHost& h : faultyRack()) {
            snapshots_[h.name] = rackHostSnapshot(h, dir_.path());
            QVERIFY2(!snapshots_[h.name].isEmpty(), qPrintable(h.name));
            clean_[h.name] = rackHostSnapshot(rackHost(h.name), dir_.filePath(QStringLiteral("clean")));
            QVERIFY(!clean_[h.name].isEmpty());
        }
        QVERIFY(snapshots_["node1"].value("gpus").toObject().value("available").toBool());
        QVERIFY(snapshots_["node1"].value("rdma").toObject().value("available").toBool());
    }

    void everyFaultOnItsServerAndNothingElse() {
        const RackCheck rack = checkRack(rackOf(snapshots_), {});
        QCOMPARE(rack.servers.size(), size_t(8));
        QCOMPARE(problems(rack), (QStringList{
                                     QStringLiteral("node3 pcie-links fail GPU3"),
                                     QStringLiteral("node4 versions warn"),
                                     QStringLiteral("node5 roce-qos fail ens1f0np0"),
                                     QStringLiteral("node6 nic-inventory fail"),
                                     QStringLiteral("node7 mtu fail ens1f0np0"),
                                     QStringLiteral("node8 rdma-ports fail mlx5_4 port 1"),
                                 }));
        // Each says what it saw, against what, and where from.
        QCOMPARE(
            firstBad(rack, "node3", "pcie-links")->evidence,
            QStringLiteral("GPU3 (NVIDIA H100 80GB HBM3) runs its PCIe link at x8 of the x16 it can (NVML)"));
        QCOMPARE(firstBad(rack, "node4", "versions")->evidence,
                 QStringLiteral("1 of 8 servers run NVIDIA driver 550.90.07; the other 7 run NVIDIA driver "
                                "570.86.15 (node4)"));
        QVERIFY(
            firstBad(rack, "node5", "roce-qos")
                ->evidence.startsWith(QStringLiteral(
                    "1 of 8 servers have PFC 0,0,0,0,0,0,0,0 on ens1f0np0; the other 7 have PFC 0,0,0,1")));
        QCOMPARE(firstBad(rack, "node6", "nic-inventory")->evidence,
                 QStringLiteral("1 of 8 servers have 8 RDMA NICs; the other 7 have 9 RDMA NICs (node6)"));
        QCOMPARE(firstBad(rack, "node7", "mtu")->evidence,
                 QStringLiteral("1 of 8 servers have MTU 1500 on ens1f0np0; the other 7 have MTU 9000 on "
                                "ens1f0np0 (node7)"));
        QCOMPARE(
            firstBad(rack, "node8", "rdma-ports")->evidence,
            QStringLiteral("mlx5_4 port 1 runs at 200 Gb/sec (4X HDR), below the 400 Gb/sec (4X NDR) most "
                           "InfiniBand ports of the rack run at"));
        QVERIFY(!firstBad(rack, "node8", "rdma-ports")->action.isEmpty());
        // The servers' verdicts and the exit status follow the worst.
        QCOMPARE(rack.servers[0].verdict, Verdict::Unknown); // no GPU–NIC pair in this machine's topology
        QCOMPARE(rack.servers[3].verdict, Verdict::Warn);
        QCOMPARE(rack.servers[2].verdict, Verdict::Fail);
        QCOMPARE(rack.exitStatus(), 2);
        // Drift, at the rack's level: the driver's odd one out by the majority.
        const auto driver = std::find_if(rack.drift.begin(), rack.drift.end(), [](const Drift& d) {
            return d.key == QLatin1String("version.nvidia_driver");
        });
        QVERIFY(driver != rack.drift.end());
        QVERIFY(driver->majority);
        QCOMPARE(driver->groups.front().first, QStringLiteral("570.86.15"));
        QCOMPARE(driver->groups.back().second, QStringList{QStringLiteral("node4")});
    }

    void aCleanRackPasses() {
        const RackCheck rack = checkRack(rackOf(clean_), {});
        QCOMPARE(problems(rack), QStringList());
        QVERIFY(rack.drift.empty());
        // What the checks rest on is said as evidence.
        const CheckResult* gpus = rack.servers[0].check(QStringLiteral("gpu-inventory"));
        QCOMPARE(gpus->verdict, Verdict::Pass);
        QVERIFY2(gpus->items.front().evidence.contains(QLatin1String("gpu.count 8")),
                 qPrintable(gpus->items.front().evidence));
    }

    void aGpuOffTheBus() {
        // A real server's hwloc XML with 3 NVIDIA GPUs on PCI, and NVML listing 2 of them (one fell off the
        // bus).
        RackHost h = rackHost(QStringLiteral("gpu17"));
        h.gpus = 2;
        QJsonObject s = rackHostSnapshot(h, dir_.filePath(QStringLiteral("offbus")));
        QJsonObject topology = s.value("topology").toObject();
        topology.insert("hwloc_xml",
                        QString::fromUtf8(fixtureBytes(QStringLiteral("hwloc-24em64t-2n6c2t-pci.xml"))));
        s.insert("topology", topology);
        const RackCheck rack = checkRack(rackOf({{QStringLiteral("gpu17"), s}}), {});
        const CheckItem* i = firstBad(rack, "gpu17", "gpu-inventory");
        QVERIFY(i);
        QCOMPARE(i->verdict, Verdict::Fail);
        // The topology's own finding, on the check it answers.
        QCOMPARE(i->evidence,
                 QStringLiteral("3 NVIDIA GPUs are on PCI (GPU0, GPU1, GPU2) but the driver does not "
                                "serve them: NVML sees 2 of them. Without it there is no CUDA, NCCL "
                                "or GPUDirect here."));
    }

    // A GB200 tray whose GPU0 the NVLink fabric did not take (NVML replaying the real capture): the nvlink
    // check fails with NVML's words, and the server's other checks are untouched.
    void aGpuTheFabricDidNotTake() {
        RackHost h = rackHost(QStringLiteral("tray05"));
        h.fabricCapture =
            incoming(QStringLiteral("nvidia-smi-q-fabric_insufficient-resources-zero-clusteruuid.txt"));
        const QJsonObject s = rackHostSnapshot(h, dir_.filePath(QStringLiteral("nvl")));
        QVERIFY(!s.isEmpty());
        const RackCheck rack = checkRack(rackOf({{h.name, s}}), {});
        const CheckItem* i = firstBad(rack, "tray05", "nvlink");
        QVERIFY2(i, qPrintable(problems(rack).join('\n')));
        QCOMPARE(i->verdict, Verdict::Fail);
        QVERIFY2(i->evidence.contains(QLatin1String("status Insufficient Resources")),
                 qPrintable(i->evidence));
        QCOMPARE(problems(rack), QStringList{QStringLiteral("tray05 nvlink fail tray05 GPU0")});
    }

    void noMajorityIsSaid() {
        std::map<QString, QJsonObject> two{{"node4", snapshots_["node4"]}, {"node1", snapshots_["node1"]}};
        const RackCheck rack = checkRack(rackOf(two), {});
        const CheckItem* i = firstBad(rack, "node1", "versions");
        QVERIFY(i);
        QCOMPARE(i->verdict, Verdict::Warn);
        QVERIFY2(i->evidence.contains(QLatin1String("no value is held by more than half")),
                 qPrintable(i->evidence));
        QVERIFY(firstBad(rack, "node4", "versions"));
    }

    void theExpectation() {
        QString error;
        const auto e = readExpectation(
            R"json({"gpu.count": 8, "gpu.model": "NVIDIA H100*", "version.nvidia_driver": ["570.86.15", "570.124.06"],
                                          "mtu.ens*": 9000, "nic.count": 9, "port.rate": ["400 Gb/sec*", "200 Gb/sec (2X NDR)"],
                                          "lldp.ens1f0np0": "leaf-*"})json",
            QStringLiteral("rack.json"), &error);
        QVERIFY2(e, qPrintable(error));
        CheckOptions o;
        o.expect = e;
        const RackCheck rack = checkRack(rackOf(snapshots_), o);
        const QStringList found = problems(rack);
        // Beside the drift, each fault that breaks the expectation is said once more, against it.
        for (const char* line : {"node4 versions warn", "node6 nic-inventory fail",
                                 "node7 mtu fail ens1f0np0", "node8 rdma-ports fail"})
            QVERIFY2(found.count(QLatin1String(line)) >= 1, line);
        bool againstExpectation = false;
        for (const CheckItem& i : rack.servers[3].check(QStringLiteral("versions"))->items)
            againstExpectation |=
                i.evidence ==
                QStringLiteral(
                    "version.nvidia_driver is 550.90.07; rack.json expects 570.86.15 or 570.124.06");
        QVERIFY(againstExpectation);
        // LLDP was not read here: the expected cabling is unknown, not passed.
        const CheckResult* cabling = rack.servers[0].check(QStringLiteral("cabling"));
        QCOMPARE(cabling->verdict, Verdict::Unknown);
        QVERIFY(cabling->items.front().evidence.contains(QLatin1String("LLDP")));
        // node1 meets everything it states.
        QVERIFY(!found.join(u'\n').contains(QLatin1String("node1")));
    }

    void badExpectations() {
        QString error;
        QVERIFY(!readExpectation("{\"gpu.cnt\": 8}", QStringLiteral("e.json"), &error));
        QCOMPARE(error, QStringLiteral(
                            "e.json: \"gpu.cnt\" is not a fact rackscope checks (see docs/acceptance.md)"));
        QVERIFY(!readExpectation("{\"gpu.count\": {\"a\": 1}}", QStringLiteral("e.json"), &error));
        QVERIFY(error.contains(QLatin1String("give a number, a string or a list")));
        QVERIFY(!readExpectation("[1,2]", QStringLiteral("e.json"), &error));
        QVERIFY(!readExpectation("{\"gpu.count\": 8", QStringLiteral("e.json"), &error));
        QVERIFY(error.startsWith(QLatin1String("e.json: not JSON")));
        QVERIFY(!readBaseline("{\"type\":\"rackscope-snapshot\"}", QStringLiteral("b.json"), &error));
        QVERIFY(error.contains(QLatin1String("not a rackscope baseline")));
        QVERIFY(!readBaseline("{\"type\":\"rackscope-baseline\",\"format\":2}", QStringLiteral("b.json"),
                              &error));
        QVERIFY(error.contains(QLatin1String("format 2")));
        // Random and truncated bytes: an error, never a crash.
        QRandomGenerator rng(25);
        const QByteArray good = R"({"gpu.count": 8, "mtu.ens*": [9000, 4200], "version.nccl": "2.2*"})";
        for (int i = 0; i < 300; ++i) {
            QByteArray junk = good.left(qsizetype(rng.bounded(good.size() + 1)));
            for (int k = 0; k < 3; ++k)
                if (!junk.isEmpty())
                    junk[qsizetype(rng.bounded(junk.size()))] = char(rng.bounded(256));
            readExpectation(junk, QStringLiteral("x"), &error);
            readBaseline(junk, QStringLiteral("x"), &error);
        }
        QVERIFY(readExpectation(good, QStringLiteral("x"), &error));
    }

    void theBaseline() {
        // Saved on the clean rack, then compared with the faulty one less node8.
        CheckOptions none;
        const RackCheck before = checkRack(rackOf(clean_), none);
        QString error;
        const auto b = readBaseline(
            baselineToJson(before.facts, {}, QDateTime(QDate(2026, 12, 1), QTime(9, 0), Qt::UTC)),
            QStringLiteral("rack-baseline.json"), &error);
        QVERIFY2(b, qPrintable(error));
        CheckOptions o;
        o.baseline = b;
        QStringList seven = {"node1", "node2", "node3", "node4", "node5", "node6", "node7"};
        const RackCheck after = checkRack(rackOf(snapshots_, seven), o);
        const CheckResult* versions = after.servers[3].check(QStringLiteral("versions"));
        bool said = false;
        for (const CheckItem& i : versions->items)
            said |= i.evidence == QStringLiteral("version.nvidia_driver is 550.90.07; it was 570.86.15 in "
                                                 "the baseline of 2026-12-01 09:00 UTC");
        QVERIFY(said);
        const CheckItem* nics = firstBad(after, "node6", "nic-inventory");
        QVERIFY(nics);
        QCOMPARE(after.notes, QStringList{QStringLiteral("node8 is in the baseline but was not checked")});
        QCOMPARE(after.servers[0].check(QStringLiteral("baseline"))->verdict, Verdict::Pass);
        // A server the baseline does not name is a warn of its own.
        CheckOptions other;
        other.baseline =
            readBaseline(baselineToJson({before.facts[0]}, {}, QDateTime::currentDateTimeUtc()), "b", &error);
        const RackCheck two = checkRack(rackOf(clean_, {"node1", "node2"}), other);
        QCOMPARE(two.servers[1].check(QStringLiteral("baseline"))->verdict, Verdict::Warn);
    }

    // The ring of ib_write_bw pairs: every neighbour pair once, no server twice in a round.
    void rdmaRoundsOfARing() {
        for (int n = 0; n <= 7; ++n) {
            std::vector<RdmaEndpoint> servers;
            for (int i = 0; i < n; ++i)
                servers.push_back({QStringLiteral("n%1").arg(i), {}, {"mlx5_0", "mlx5_1"}, {}});
            servers.push_back({QStringLiteral("no-rdma"), {}, {}, {}}); // left out
            const auto rounds = planRdmaRounds(servers);
            std::set<std::pair<QString, QString>> edges;
            for (const auto& round : rounds) {
                std::map<QString, std::set<std::pair<QString, QString>>> pairsOf;
                for (const RdmaPairTest& t : round) {
                    QCOMPARE(t.clientDevice, t.serverDevice);
                    pairsOf[t.client].insert({t.client, t.server});
                    pairsOf[t.server].insert({t.client, t.server});
                    edges.insert({t.client, t.server});
                }
                for (const auto& [host, pairs] : pairsOf)
                    QVERIFY2(pairs.size() == 1, qPrintable(host)); // one partner per round
                QCOMPARE(round.size() % 2, size_t(0));             // both devices of each pair
            }
            QCOMPARE(edges.size(), size_t(n < 2 ? 0 : n == 2 ? 1 : n));
            QVERIFY(rounds.size() <= 3);
        }
    }

    // Who is paired and how: the servers over SSH, their devices with a port up in number order, the
    // address the SSH config gives, and the GPU under the same PCIe switch as each NIC for --use_cuda.
    void rdmaEndpointsFromTheWorkspace() {
        QJsonObject s = thisMachine();
        QJsonObject topology = s.value("topology").toObject();
        topology.insert("hwloc_xml", QString::fromUtf8(fixtureBytes(
                                         QStringLiteral("hwloc-32em64t-2n8c2t-pci-normalio.xml"))));
        s.insert("topology", topology);
        const auto device = [](const char* name, const char* state) {
            return QJsonObject{
                {"name", name},
                {"ports", QJsonArray{QJsonObject{{"port", "1"}, {"state", QJsonObject{{"name", state}}}}}}};
        };
        s.insert("rdma", QJsonObject{{"available", true},
                                     {"devices",
                                      QJsonArray{device("mlx5_0", "ACTIVE"), device("mlx5_1", "DOWN"),
                                                 device("mlx5_10", "ACTIVE"), device("mlx5_2", "ACTIVE")}}});
        Workspace ws;
        QVERIFY2(ws.takeAgentAnswer(QStringLiteral("ssh://node1"), s, Workspace::Mode::Add).isEmpty(),
                 "taken");
        ws.open({fixture(QStringLiteral("nccl-topo-azure-ndv4.xml"))}, Workspace::Mode::Add); // not over SSH
        const std::vector<RdmaEndpoint> e =
            rdmaEndpoints(ws, SshConfig::fromText(QStringLiteral("Host node1\n  HostName 10.1.2.3\n")));
        QCOMPARE(e.size(), size_t(1));
        QCOMPARE(e[0].host, QStringLiteral("node1"));
        QCOMPARE(e[0].address, QStringLiteral("10.1.2.3"));
        QCOMPARE(e[0].devices, (QStringList{"mlx5_0", "mlx5_2", "mlx5_10"}));
        // mlx5_0's NIC shares a PCIe switch (PIX) with the third GPU only.
        const HostTopology& h = ws.hosts().front().host;
        QCOMPARE(h.gpus.size(), size_t(3));
        QCOMPARE(e[0].nearestGpu.at(QStringLiteral("mlx5_0")), h.gpus[2].cudaDevice.value_or(2));
    }

    // A slow end is told from its partners; a failed test, a missing perftest and a lone server are said.
    void rdmaVerdicts() {
        const auto pair = [](const char* c, const char* s, std::optional<double> gbps, QString error = {},
                             bool unavailable = false) {
            RdmaPairResult r;
            r.test = {0, QString::fromLatin1(c), QStringLiteral("mlx5_0"), QString::fromLatin1(s),
                      QStringLiteral("mlx5_0")};
            r.gbps = gbps;
            r.error = error;
            r.unavailable = unavailable;
            return r;
        };
        const std::vector<RdmaPairResult> ring = {pair("a", "b", 390), pair("b", "c", 190),
                                                  pair("c", "d", 195), pair("d", "a", 391)};
        std::map<QString, double> figures;
        const auto itemsOf = [&](const QString& host, const std::vector<RdmaPairResult>& pairs,
                                 const MeasuredJudge& judge = {}) {
            figures.clear();
            return rdmaBandwidthItems(host, pairs, judge, &figures);
        };
        auto c = itemsOf(QStringLiteral("c"), ring);
        QCOMPARE(c.size(), size_t(1));
        QCOMPARE(c[0].verdict, Verdict::Fail);
        QVERIFY2(c[0].evidence.contains(QLatin1String("190.0 Gb/s with b mlx5_0; 195.0 Gb/s with d mlx5_0")),
                 qPrintable(c[0].evidence));
        QCOMPARE(figures.at(QStringLiteral("rdma.mlx5_0")), 195.0);
        auto b = itemsOf(QStringLiteral("b"), ring);
        QCOMPARE(b[0].verdict, Verdict::Pass); // its slow pair is c's fault
        QVERIFY(b[0].evidence.contains(QLatin1String("other end is slow with every peer")));

        // One slow pair between two ends that are fine elsewhere: a warn on both, the fault not placed.
        const std::vector<RdmaPairResult> onePair = {pair("a", "b", 390), pair("b", "c", 150),
                                                     pair("c", "d", 392), pair("d", "a", 391)};
        QCOMPARE(itemsOf(QStringLiteral("b"), onePair)[0].verdict, Verdict::Warn);
        QCOMPARE(itemsOf(QStringLiteral("c"), onePair)[0].verdict, Verdict::Warn);

        // A test that failed counts as slow; perftest missing is unknown; a lone server is unknown.
        const std::vector<RdmaPairResult> broken = {
            pair("a", "b", std::nullopt, QStringLiteral("a: perftest stopped")),
            pair("b", "a", std::nullopt, QStringLiteral("b: Couldn't connect"))};
        QCOMPARE(itemsOf(QStringLiteral("a"), broken)[0].verdict, Verdict::Fail);
        QVERIFY(itemsOf(QStringLiteral("a"), broken)[0].evidence.contains(QLatin1String("Couldn't connect")));
        const std::vector<RdmaPairResult> missing = {
            pair("a", "b", std::nullopt, QStringLiteral("b: ib_write_bw (perftest) is not installed"), true)};
        QCOMPARE(itemsOf(QStringLiteral("a"), missing)[0].verdict, Verdict::Unknown);
        QVERIFY(figures.empty());
        QCOMPARE(itemsOf(QStringLiteral("z"), ring)[0].verdict, Verdict::Unknown);

        // Below the baseline by more than the tolerance.
        Baseline base;
        base.measured[QStringLiteral("a")][QStringLiteral("rdma.mlx5_0")] = 400;
        QCOMPARE(itemsOf(QStringLiteral("a"), ring, {&base, 0.10, QStringLiteral("a")}).size(), size_t(1));
        base.measured[QStringLiteral("a")][QStringLiteral("rdma.mlx5_0")] = 440;
        const auto below = itemsOf(QStringLiteral("a"), ring, {&base, 0.10, QStringLiteral("a")});
        QCOMPARE(below.size(), size_t(2));
        QCOMPARE(below[1].verdict, Verdict::Fail);
        QVERIFY2(below[1].evidence.contains(
                     QLatin1String("391.0 Gb/s, below the baseline's 440.0 Gb/s by more than 10 %")),
                 qPrintable(below[1].evidence));
    }

    // Each collective alone against the rack's median, and the pairwise hunt's verdict.
    void ncclVerdicts() {
        NcclAcceptance n;
        for (const char* h : {"a", "b", "c", "d"}) {
            n.servers.push_back({QString::fromLatin1(h), 8});
            for (const Collective c : acceptanceCollectives())
                n.single.push_back({QString::fromLatin1(h), c, *h == 'c' ? 50.0 : 200.0, {}, {}});
        }
        n.single.back().busbw.reset();
        n.single.back().error = QStringLiteral("exit status 1");
        n.single.back().command = QStringLiteral("mpirun ...");
        std::vector<PairBandwidth> pairs;
        for (const char* p : {"ab", "ac", "ad", "bc", "bd", "cd"})
            pairs.push_back({QString(QLatin1Char(p[0])), QString(QLatin1Char(p[1])),
                             p[0] == 'c' || p[1] == 'c' ? 40.0 : 180.0});
        n.verdict = findStragglers(pairs);
        std::map<QString, double> figures;
        const auto c = ncclBandwidthItems(QStringLiteral("c"), n, {}, &figures);
        QStringList failed;
        for (const MeasuredItem& m : c)
            if (m.verdict == Verdict::Fail)
                failed << m.subject;
        QCOMPARE(failed, (QStringList{"all_reduce alone", "all_gather alone", "alltoall alone",
                                      "all_reduce in pairs"}));
        QCOMPARE(figures.at(QStringLiteral("nccl.alltoall")), 50.0);
        const auto d = ncclBandwidthItems(QStringLiteral("d"), n, {}, &figures);
        QCOMPARE(std::count_if(d.begin(), d.end(),
                               [](const MeasuredItem& m) { return m.verdict == Verdict::Fail; }),
                 1);
        QVERIFY(d[2].evidence.contains(QLatin1String("exit status 1")));
        QCOMPARE(ncclBandwidthItems(QStringLiteral("gpuless"), n, {}, &figures)[0].verdict, Verdict::Unknown);
    }

    // The active checks' options, refused with a reason before anything is read or run.
    void activeOptionsRefused() {
        const QString file = snapshotFile(snapshots_.begin()->first, snapshots_.begin()->second);
        const QList<QPair<QStringList, QString>> cases = {
            {{"--active", "bogus", "--hosts", "n1"}, "--active takes nccl and rdma, not bogus"},
            {{"--active", "rdma", file}, "--active measures servers over SSH: give --hosts"},
            {{"--tolerance", "150", file}, "--tolerance takes a percentage"},
            {{"--rdma-seconds", "0", file}, "--rdma-seconds takes 1 to 600"},
            {{"--rdma-port", "22", file}, "--rdma-port takes 1024 to 65535"},
            {{"--nccl-env", "NCCL_DEBUG", file}, "--nccl-env takes NAME=VALUE, not 'NCCL_DEBUG'"},
            {{"--launcher", "pbs", file}, "--launcher is mpirun or srun"},
            {{"--nccl-max-bytes", "lots", file}, "--nccl-max-bytes takes a size"},
        };
        for (const auto& [args, why] : cases) {
            const Run r = cli(QStringList{QStringLiteral("check")} + args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(why.toUtf8()), r.err.constData());
        }
    }

    void theCommandItsFilesAndTheBrowser() {
        QStringList files;
        for (const auto& [host, s] : snapshots_)
            files << snapshotFile(host, s);
        const QString junit = dir_.filePath(QStringLiteral("check.xml")),
                      html = dir_.filePath(QStringLiteral("check.html")),
                      pdf = dir_.filePath(QStringLiteral("check.pdf")),
                      base = dir_.filePath(QStringLiteral("base.json"));
        Run r = cli(QStringList{QStringLiteral("check"), QStringLiteral("--json"), QStringLiteral("--junit"),
                                junit, QStringLiteral("--report"), html, QStringLiteral("--save-baseline"),
                                base} +
                    files);
        QCOMPARE(r.code, 2);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value("verdict").toString(), QStringLiteral("fail"));
        QCOMPARE(doc.value("servers").toArray().size(), 8);
        const QJsonObject node7 = doc.value("servers").toArray().at(6).toObject();
        QCOMPARE(node7.value("host").toString(), QStringLiteral("node7"));
        bool mtu = false;
        for (const QJsonValue& c : node7.value("checks").toArray())
            mtu |= c.toObject().value("id") == QLatin1String("mtu") &&
                   c.toObject().value("verdict") == QLatin1String("fail") &&
                   c.toObject().value("severity") == QLatin1String("error");
        QVERIFY(mtu);

        // JUnit, validated against the schema CI tools read.
        QProcess lint;
        lint.start(QStringLiteral("xmllint"), {QStringLiteral("--noout"), QStringLiteral("--schema"),
                                               QStringLiteral(RACKSCOPE_JUNIT_XSD), junit});
        QVERIFY2(lint.waitForFinished(60000) && lint.exitCode() == 0,
                 lint.readAllStandardError().constData());
        QFile j(junit);
        QVERIFY(j.open(QIODevice::ReadOnly));
        const QByteArray xml = j.readAll();
        QCOMPARE(xml.count("<failure"), 5); // node3, 5, 6, 7, 8 fail; node4's warn passes
        QVERIFY(xml.contains("<testsuite name=\"node4\""));

        // The baseline saved by the command reads back, and the next check compares with it.
        r = cli(QStringList{QStringLiteral("check"), QStringLiteral("--baseline"), base} + files);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.contains("baseline: " + base.toUtf8()), r.out.constData());

        // The HTML report in a real browser: its sections and the rack drawn inline.
        const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        if (chromium.isEmpty())
            QFAIL("needs Debian's chromium (packaging/debian-build-deps.txt) to open the report");
        QProcess browser;
        browser.start(chromium, {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                                 QStringLiteral("--disable-gpu"), QStringLiteral("--dump-dom"),
                                 QUrl::fromLocalFile(html).toString()});
        QVERIFY(browser.waitForFinished(120000));
        const QByteArray dom = browser.readAllStandardOutput();
        for (const char* section : {"id=\"summary\"", "id=\"checklist\"", "id=\"drift\"", "id=\"rack\"",
                                    "id=\"servers\"", "id=\"server-node8\"", "<svg"})
            QVERIFY2(dom.contains(section), section);
        QVERIFY(dom.contains("1 of 8 servers run NVIDIA driver 550.90.07"));
        QVERIFY(!dom.contains("http://") || !dom.contains("src=\"http")); // nothing fetched from a network

        // The PDF.
        r = cli(QStringList{QStringLiteral("check"), QStringLiteral("--report"), pdf} + files);
        QCOMPARE(r.code, 2);
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.read(5) == "%PDF-");
        QVERIFY(p.size() > 20000);

        // Bad options: a clear error, exit 2.
        writeText(dir_.filePath(QStringLiteral("bad.json")), "{\"gpu.cnt\": 8}");
        r = cli({QStringLiteral("check"), QStringLiteral("--expect"),
                 dir_.filePath(QStringLiteral("bad.json")), files.front()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is not a fact rackscope checks"), r.err.constData());
        r = cli({QStringLiteral("check"), QStringLiteral("--report"), dir_.filePath(QStringLiteral("r.txt")),
                 files.front()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("FILE.html or FILE.pdf"));
    }
};

QTEST_GUILESS_MAIN(TestRackCheck)
#include "test_rack_check.moc"
