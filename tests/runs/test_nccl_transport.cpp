// What NCCL_DEBUG=INFO says about the network, read from lines in the
// layout of NCCL's own format strings (src/debug.cc prefix; net.cc
// "Channel ... via NET/%s/%d%s%s%s"; net_ib "NET/IB : Using%s %s; OOB %s:%s";
// graph/paths.cc "GPU Direct RDMA Disabled for ..."), laid over a real
// topology dump (OCI BM.GPU.H100.8) to tell a missing GPUDirect the hardware
// allows from one it rules out.
#include "test_support.h"

#include "diagram/diagram.h"
#include "import/topology_loader.h"
#include "runs/nccl_transport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QStringList logLines() {
    return {
        QStringLiteral("gpu-a:4711:4711 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB "
                       "[2]mlx5_3:1/RoCE [RO]; OOB eth0:10.0.0.1<0>"),
        QStringLiteral("gpu-a:4712:4712 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB "
                       "[2]mlx5_3:1/RoCE [RO]; OOB eth0:10.0.0.1<0>"),
        QStringLiteral("gpu-a:4711:4711 [0] NCCL INFO Using network IB"),
        QStringLiteral(
            "gpu-a:4711:4720 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)"),
        QStringLiteral("gpu-a:4711:4720 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/IB/0"),
        QStringLiteral("gpu-a:4711:4720 [0] NCCL INFO Channel 00/0 : 2[0] -> 0[0] [receive] via NET/IB/0"),
        QStringLiteral(
            "gpu-a:4711:4720 [0] NCCL INFO Channel 01/0 : 0[0] -> 2[0] [send] via NET/IB/2(1)/Shared"),
        QStringLiteral("gpu-a:4711:4720 [0] NCCL INFO Channel 02/0 : 0[0] -> 1[1] via P2P/IPC"),
        QStringLiteral(
            "gpu-a:4712:4721 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/1/GDRDMA"),
        QStringLiteral("gpu-a:4712:4721 [1] NCCL INFO Channel 01/0 : 2[0] -> 1[1] [receive] via "
                       "NET/IB/1/GDRDMA(PCI)/Shared"),
        QStringLiteral(
            "gpu-b:5000:5000 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0> [1]eth1:10.0.1.2<0>"),
        QStringLiteral("gpu-b:5000:5000 [0] NCCL INFO Using network Socket"),
        QStringLiteral("gpu-b:5000:5010 [0] NCCL INFO Channel 00/0 : 2[0] -> 0[0] [send] via NET/Socket/1"),
        QStringLiteral("NCCL INFO a line without NCCL's prefix"),
        QStringLiteral("gpu-b:5000:5010 [0] NCCL INFO Channel 00/0 : garbled -> via"),
    };
}

std::vector<NcclTestsRank> ranks() {
    auto rank = [](int r, const char* host, int dev, const char* pci) {
        NcclTestsRank k;
        k.rank = r;
        k.host = QLatin1String(host);
        k.device = dev;
        k.pci = QLatin1String(pci);
        return k;
    };
    return {rank(0, "gpu-a", 0, "0000:0f:00"), rank(1, "gpu-a", 1, "0000:2d:00"),
            rank(2, "gpu-b", 0, "0000:0f:00")};
}

const Finding* find(const std::vector<Finding>& all, const char* code, const QString& subject) {
    for (const Finding& f : all)
        if (f.code == QLatin1String(code) && f.subjects.contains(subject))
            return &f;
    return nullptr;
}

} // namespace

class TestNcclTransport : public QObject {
    Q_OBJECT
private slots:
    void readsDevicesConnectionsAndFallbacks() {
        const NcclTransport t = readNcclTransport(logLines());
        QCOMPARE(t.channelLines, 7);
        QCOMPARE(t.devices.at(QStringLiteral("gpu-a")).size(), size_t(3));
        QCOMPARE(t.devices.at(QStringLiteral("gpu-a"))[2].name, QStringLiteral("mlx5_3"));
        QCOMPARE(t.devices.at(QStringLiteral("gpu-a"))[2].link, QStringLiteral("RoCE"));
        QCOMPARE(t.devices.at(QStringLiteral("gpu-b"))[1].name, QStringLiteral("eth1"));
        QCOMPARE(t.network.at(QStringLiteral("gpu-b")), QStringLiteral("Socket"));
        QCOMPARE(t.ranks.size(), size_t(3));
        const NcclRankNetwork& r0 = t.ranks[0];
        QCOMPARE(r0.host, QStringLiteral("gpu-a"));
        QCOMPARE(r0.nics, (QStringList{QStringLiteral("mlx5_0"), QStringLiteral("mlx5_3")}));
        QCOMPARE(r0.netConnections, 3);
        QCOMPARE(r0.gdrConnections, 0);
        const NcclRankNetwork& r1 = t.ranks[1];
        QCOMPARE(r1.nics, QStringList{QStringLiteral("mlx5_1")});
        QCOMPARE(r1.gdrConnections, 2);
        QCOMPARE(r1.cudaDevice, std::optional(1));
        QCOMPARE(t.ranks[2].nics, QStringList{QStringLiteral("eth1")});
        QVERIFY(t.ranks[2].transports.contains(QStringLiteral("Socket")));
        QVERIFY(t.gdrNotes.at(QStringLiteral("gpu-a")).first().contains(QStringLiteral("no module")));
    }

    void withoutTopologiesStillNamesTheRank() {
        const std::vector<Finding> f = ncclTransportFindings(readNcclTransport(logLines()), ranks());
        QVERIFY(find(f, codes::kNcclSocketFallback, QStringLiteral("gpu-b")));
        QVERIFY(find(f, codes::kNcclSocketFallback, QStringLiteral("gpu-b"))
                    ->message.contains(QStringLiteral("ranks 2")));
        const Finding* noGdr = find(f, codes::kNcclNoGdr, QStringLiteral("gpu-a"));
        QVERIFY(noGdr);
        QVERIFY(noGdr->message.contains(QStringLiteral("rank 0 on gpu-a reached mlx5_0")));
        QVERIFY(noGdr->message.contains(QStringLiteral("no module")));
        QVERIFY(!find(f, codes::kNcclGdrNotUsed, QStringLiteral("gpu-a"))); // nothing to compare with
        for (const Finding& x : f)
            QVERIFY2(!x.message.contains(QStringLiteral("rank 1 ")),
                     qPrintable(x.message)); // rank 1 had GDRDMA throughout
    }

    void laidOverTheTopology() {
        const ImportResult imported =
            loadTopologyFile(fixture(QStringLiteral("nccl-topo-dump-oci-bm-gpu-h100-8.xml")));
        QVERIFY(imported.host);
        const std::map<QString, HostTopology> topologies{{QStringLiteral("gpu-a"), *imported.host},
                                                         {QStringLiteral("gpu-b"), *imported.host}};
        const std::vector<Finding> f =
            ncclTransportFindings(readNcclTransport(logLines()), ranks(), topologies);
        // mlx5_0 sits under GPU0's PCIe switch: GPUDirect was possible, and missing.
        const Finding* expected = find(f, codes::kNcclGdrNotUsed, QStringLiteral("gpu-a/GPU0"));
        QVERIFY(expected);
        QVERIFY(expected->subjects.contains(QStringLiteral("gpu-a/NIC0")));
        QVERIFY(expected->message.contains(QStringLiteral("PXB")));
        QVERIFY(expected->message.contains(QStringLiteral("nvidia-peermem")));
        // mlx5_3 is across the host bridge (PHB) from GPU0, but NCCL reaches it over NVLink through the GPU
        // under its switch (PXN) and judges GPUDirect by that GPU's path: missing there too. It is not GPU0's
        // nearest NIC.
        const Finding* relayed = find(f, codes::kNcclGdrNotUsed, QStringLiteral("gpu-a/NIC2"));
        QVERIFY(relayed);
        QVERIFY2(relayed->message.contains(QStringLiteral("PXN through GPU")), qPrintable(relayed->message));
        const Finding* far = find(f, codes::kNcclNicDiffers, QStringLiteral("gpu-a/NIC2"));
        QVERIFY(far);
        QVERIFY(far->message.contains(QStringLiteral("PXN")));
        QCOMPARE(int(std::count_if(f.begin(), f.end(),
                                   [](const Finding& x) { return x.severity == Severity::Error; })),
                 1); // sockets; GPUDirect not used is a warning (twice), the NIC choice information
        QCOMPARE(far->severity, Severity::Info);
        QCOMPARE(expected->severity, Severity::Warning);
        // The likely cause, where the host's source shows one: ACS redirection on the path; without a
        // peer-memory module the topology itself no longer promises GPUDirect, and says why.
        std::map<QString, HostTopology> snapshot = topologies;
        const auto said = [&](const char* code) {
            const std::vector<Finding> g =
                ncclTransportFindings(readNcclTransport(logLines()), ranks(), snapshot);
            const Finding* x = find(g, code, QStringLiteral("gpu-a/GPU0"));
            return x ? x->message : QString();
        };
        snapshot[QStringLiteral("gpu-a")].gpus[0].acsBridges = {QStringLiteral("0000:0e:00.0")};
        QVERIFY2(said(codes::kNcclGdrNotUsed)
                     .contains(QStringLiteral("ACS redirects peer-to-peer traffic up to the root complex at "
                                              "0000:0e:00.0")),
                 qPrintable(said(codes::kNcclGdrNotUsed)));
        snapshot[QStringLiteral("gpu-a")].peerMemoryLoaded = false;
        snapshot[QStringLiteral("gpu-a")].kernelSupportsDmabuf = false;
        QVERIFY(said(codes::kNcclGdrNotUsed).isEmpty());
        QVERIFY2(said(codes::kNcclNoGdr).contains(QStringLiteral("no peer-memory module (nvidia_peermem)")),
                 qPrintable(said(codes::kNcclNoGdr)));

        // On the canvas: the rank's GPU and the NIC it used, joined, with NCCL's account.
        DiagramInput in;
        HostTopology a = *imported.host;
        a.name = QStringLiteral("gpu-a");
        in.hosts.push_back({a, analyzeHost(a)});
        in.runFindings = f;
        const Diagram d = buildDiagram(in);
        const int gpu = d.find(QStringLiteral("gpu-a/GPU0")), nic = d.find(QStringLiteral("gpu-a/NIC0"));
        QVERIFY(gpu >= 0 && nic >= 0);
        const auto drawn = std::find_if(d.highlights.begin(), d.highlights.end(), [&](const Highlight& h) {
            return h.kind == HighlightKind::RunTransport && h.items == std::vector<int>{gpu, nic};
        });
        QVERIFY(drawn != d.highlights.end());
        QCOMPARE(drawn->why, expected->message);
        // gpu-b is not drawn: its findings stay in the list, not on the canvas.
        for (const Highlight& h : d.highlights)
            for (int i : h.items)
                QCOMPARE(d.items[i].host, QStringLiteral("gpu-a"));
    }

    void streamedRunKeepsTheLines() {
        QByteArray text = fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"));
        const qsizetype table = text.indexOf("#       size");
        QVERIFY(table > 0);
        text.insert(table, logLines().join(QLatin1Char('\n')).toUtf8() + '\n');
        const NcclTestsRun run = parseNcclTestsOutput(text);
        QVERIFY(run.diagnostics.empty());
        QCOMPARE(readNcclTransport(run.ncclInfo).channelLines, 7);
    }

    void cliOverlay() {
        QByteArray text = fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"));
        text.insert(text.indexOf("#       size"), logLines().join(QLatin1Char('\n')).toUtf8() + '\n');
        // The fixture's ranks run on its own hosts; name one of them gpu-a's way.
        const QString host = parseNcclTestsOutput(text).ranks.front().host;
        text.replace("gpu-a:", host.toUtf8() + ':');
        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(text);
        file.close();
        QProcess p;
        p.start(
            QStringLiteral(RACKSCOPE_CLI),
            {QStringLiteral("parse-nccl-tests"), file.fileName(), QStringLiteral("--json"),
             QStringLiteral("--topology"),
             host + QStringLiteral("=") + fixture(QStringLiteral("nccl-topo-dump-oci-bm-gpu-h100-8.xml"))});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject transport =
            QJsonDocument::fromJson(p.readAllStandardOutput()).object().value("transport").toObject();
        QCOMPARE(transport.value("hosts").toObject().value(host).toObject().value("network").toString(),
                 QStringLiteral("IB"));
        QStringList codesSeen;
        for (const QJsonValue& f : transport.value("findings").toArray())
            codesSeen << f.toObject().value("code").toString();
        QVERIFY2(codesSeen.contains(QLatin1String(codes::kNcclSocketFallback)),
                 qPrintable(codesSeen.join(',')));
        QVERIFY2(codesSeen.contains(QLatin1String(codes::kNcclNoGdr)) ||
                     codesSeen.contains(QLatin1String(codes::kNcclGdrNotUsed)),
                 qPrintable(codesSeen.join(',')));
        QProcess bad;
        bad.start(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("parse-nccl-tests"), file.fileName(),
                                                  QStringLiteral("--topology"), QStringLiteral("nohost")});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
    }

    // Real NCCL_DEBUG=INFO logs of several generations (../shared/fixtures/incoming): every channel line
    // read, peers by CUDA device or the old bus id, plugins, interleaved processes, init lines' bus ids,
    // MNNVL.
    void realLogsOfEveryGeneration() {
        const auto linesOf = [](const char* name) {
            return QString::fromUtf8(incomingBytes(QString::fromLatin1(name))).split(QLatin1Char('\n'));
        };
        const auto channelLines = [](const QStringList& lines) {
            return int(std::count_if(lines.begin(), lines.end(), [](const QString& l) {
                return l.contains(QLatin1String("NCCL INFO Channel")) && l.contains(QLatin1String(" via "));
            }));
        };
        const auto rank = [](const NcclTransport& t, const char* host, int r) -> const NcclRankNetwork* {
            for (const NcclRankNetwork& n : t.ranks)
                if (n.host == QLatin1String(host) && n.rank == r)
                    return &n;
            return nullptr;
        };

        // Before NCCL 2.12: "Channel 02 : 14[e1000] -> 13[a7000]", peers by bus id; two hosts interleaved.
        QStringList lines =
            linesOf("nccl-debug-info_transport-lines_old-busid-format-2node-gdrdma_nccl629_excerpt.log");
        NcclTransport t = readNcclTransport(lines);
        QCOMPARE(t.channelLines, channelLines(lines));
        const NcclRankNetwork* r14 = rank(t, "A03-R28-I49-3-9000018", 14);
        QVERIFY(r14);
        QVERIFY(r14->channels.at(QStringLiteral("P2P/direct pointer/read")) >= 2);
        const NcclRankNetwork* r13 = rank(t, "A03-R28-I49-3-9000018", 13);
        QVERIFY(r13 && r13->netConnections > 0 && r13->gdrConnections == r13->netConnections);

        // NCCL 2.19 with GPUDirect RDMA and P2P over cuMem: every network channel says GDRDMA.
        lines =
            linesOf("nccl-debug-info_transport-lines_h20-2node-gdrdma-and-p2p-cumem_nccl1189_excerpt.log");
        t = readNcclTransport(lines);
        QCOMPARE(t.channelLines, channelLines(lines));
        for (const NcclRankNetwork& r : t.ranks)
            QCOMPARE(r.gdrConnections, r.netConnections);
        QVERIFY(rank(t, "H20-GPU-05", 1)->channels.at(QStringLiteral("P2P/CUMEM")) == 4);
        QVERIFY(ncclTransportFindings(t, {}).empty());

        // NET/IB without GDRDMA: the "silently slower" case is named per rank.
        lines =
            linesOf("nccl-debug-info_transport-lines_net-ib-without-gdrdma-p2p-direct_nccl1412_excerpt.log");
        t = readNcclTransport(lines);
        QCOMPARE(t.channelLines, channelLines(lines));
        const NcclRankNetwork* r5 = rank(t, "swat1-04", 5);
        QVERIFY(r5 && r5->netConnections == 2 && r5->gdrConnections == 0);
        QVERIFY(r5->channels.at(QStringLiteral("NET/IB")) == 2);
        QVERIFY(find(ncclTransportFindings(t, {}), codes::kNcclNoGdr, QStringLiteral("swat1-04")));

        // A net plugin (IBext_v8): its name is the transport; NICs unnamed where the log lists none.
        lines = linesOf("nccl-debug-info_transport-lines_net-IBext_v8-plugin_nccl1814_excerpt.log");
        t = readNcclTransport(lines);
        QCOMPARE(t.channelLines, channelLines(lines));
        for (const NcclRankNetwork& r : t.ranks)
            QVERIFY(r.transports.contains(QStringLiteral("IBext_v8")));

        // No RDMA device: NET/Socket, GPUDirect RDMA disabled as NCCL says; rank 0's GPU from its init line.
        lines = linesOf(
            "nccl-debug-info_2node-16xH100-gcp-a3-net-socket-fallback-gdr-disabled_rank0_lines1-96.log");
        t = readNcclTransport(lines);
        QCOMPARE(t.channelLines, channelLines(lines));
        const QString gke = QStringLiteral("gke-hypercomputer-a3-a3-h100-dws-pool-16664d9c-hv7m");
        QCOMPARE(t.network.at(gke), QStringLiteral("Socket"));
        QCOMPARE(t.devices.at(gke).front().name, QStringLiteral("eth0"));
        QCOMPARE(rank(t, qPrintable(gke), 0)->busId, QStringLiteral("0000:04:00"));
        QVERIFY(t.gdrNotes.at(gke).join(' ').contains(
            QLatin1String("GPU Direct RDMA Disabled for HCA 0 'eth0'")));
        QVERIFY(find(ncclTransportFindings(t, ranksFromInitLines(t)), codes::kNcclSocketFallback, gke));

        // GB300 NVL72, NCCL 2.29: two trays' 8 ranks interleaved, each rank's GPU, each GPU's MNNVL clique.
        lines = linesOf("nccl-debug-info_gb300-nvl72-2tray-mnnvl-init_lines1-189.log");
        t = readNcclTransport(lines);
        QCOMPARE(int(t.ranks.size()), 8);
        QCOMPARE(int(rank(t, "pod4-gb300-3-tray04-f3", 7) != nullptr) +
                     int(rank(t, "pod4-gb300-3-tray05-f3", 7) != nullptr),
                 1); // a rank is on one tray
        for (const NcclRankNetwork& r : t.ranks)
            QVERIFY2(QStringList({"0008:06:00", "0009:06:00", "0018:06:00", "0019:06:00"}).contains(r.busId),
                     qPrintable(r.busId));
        QCOMPARE(int(t.mnnvl.size()), 8); // 4 GPUs on each of the two trays
        for (const GpuFabricState& g : t.mnnvl) {
            QCOMPARE(g.cliqueId, std::optional<quint64>(0xd26));
            QCOMPARE(g.state, QStringLiteral("Completed")); // NVML state 3
            QCOMPARE(g.healthMask, std::optional<quint32>(0x1aa));
            QVERIFY2(g.healthConditions.isEmpty(), qPrintable(g.healthConditions.join(','))); // all "false"
            QCOMPARE(g.clusterUuid, QStringLiteral("REDACTED_FABRIC_UUID")); // kept as written
        }
        QCOMPARE(t.devices.at(QStringLiteral("pod4-gb300-3-tray04-f3")).front().name,
                 QStringLiteral("mlx5_bond_0"));
    }

    // A launcher's prefix before NCCL's own is passed over; the bus id converts as NCCL wrote it.
    void prefixesAndBusIds() {
        const NcclTransport t = readNcclTransport(
            {QStringLiteral(
                 "[1,3]<stdout>:node7:100:101 [3] NCCL INFO Channel 00/0 : 3[3] -> 11[3] [send] via "
                 "NET/IB/3/GDRDMA"),
             QStringLiteral(
                 "3: node7:100:101 [3] NCCL INFO ncclCommInitRank comm 0x1 rank 3 nranks 16 cudaDev 3 "
                 "busId c1000 commId 0x2 - Init COMPLETE")});
        QCOMPARE(t.ranks.size(), size_t(1));
        QCOMPARE(t.ranks[0].host, QStringLiteral("node7"));
        QCOMPARE(t.ranks[0].busId, QStringLiteral("0000:c1:00"));
        QCOMPARE(ncclBusIdToPci(QStringLiteral("1906000")), QStringLiteral("0019:06:00"));
        QVERIFY(ncclBusIdToPci(QStringLiteral("xyz")).isEmpty());
    }

    // rackscope-cli nccl-log: several files as one job, text and JSON; a file with nothing of NCCL's is
    // refused.
    void ncclLogCommand() {
        const QString h20 = incoming(QStringLiteral(
            "nccl-debug-info_transport-lines_h20-2node-gdrdma-and-p2p-cumem_nccl1189_excerpt.log"));
        const QString nogdr = incoming(QStringLiteral(
            "nccl-debug-info_transport-lines_net-ib-without-gdrdma-p2p-direct_nccl1412_excerpt.log"));
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("nccl-log"), h20, nogdr});
        QVERIFY(p.waitForFinished(30000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(text.contains(QLatin1String("P2P/CUMEM x4")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("GPUDirect RDMA on 0 of 2 network connections")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("[warning] nccl-no-gdrdma")), qPrintable(text));
        p.start(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("nccl-log"), h20, QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(doc.value("channel_lines").toInt(), 14);
        QVERIFY(doc.value("ranks").toArray().first().toObject().contains("channels"));
        // A training job's log: PyTorch's watchdog said what failed, NCCL which peer closed the connection.
        p.start(
            QStringLiteral(RACKSCOPE_CLI),
            {QStringLiteral("nccl-log"), QStringLiteral("--json"),
             incoming(QStringLiteral(
                 "pytorch-nccl-watchdog_24rank-3node-nodeloss-ncclRemoteError_survivor-rank0_gcp-a3.log"))});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject job = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(job.value("watchdog")
                     .toObject()
                     .value("failures")
                     .toArray()
                     .first()
                     .toObject()
                     .value("seq_num")
                     .toInt(),
                 89);
        QCOMPARE(job.value("findings").toArray().first().toObject().value("code").toString(),
                 QStringLiteral("torch-nccl-remote-error"));
        // A saved ncclras answer beside the logs: its problems are findings, the invalid 2.28.9 JSON said so.
        p.start(
            QStringLiteral(RACKSCOPE_CLI),
            {QStringLiteral("nccl-log"),
             incoming(QStringLiteral("ncclras-json_4xA10G-4host-allreduce-count-mismatch_nccl2.28.9.json")),
             incoming(QStringLiteral(
                 "ncclras-json_missing-rank-unresponsive_INVALID-JSON-missing-comma_nccl2.28.9.json"))});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QString ras = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(ras.contains(QLatin1String("rank 1 (on 10.0.109.86) is 1 AllReduce behind the other 3")),
                 qPrintable(ras));
        QVERIFY2(ras.contains(QLatin1String("[error] nccl-ras-rank-missing")), qPrintable(ras));
        QVERIFY(p.readAllStandardError().contains("comma put back"));
        QProcess bad;
        bad.start(QStringLiteral(RACKSCOPE_CLI),
                  {QStringLiteral("nccl-log"), fixture(QStringLiteral("nccl-topo-aws-p4d-24xl.xml"))});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("no NCCL_DEBUG=INFO lines"));
    }

    void badInput() {
        QStringList junk;
        for (int i = 0; i < 2000; ++i)
            junk << QStringLiteral("h:1:1 [0] NCCL INFO Channel %1/0 : %2[0] -> [x] via NET/")
                        .arg(i)
                        .arg(i * 7);
        junk << QStringLiteral("h:1:1 [0] NCCL INFO NET/IB : Using")
             << QStringLiteral("h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/99/GDRDMA");
        const NcclTransport t = readNcclTransport(junk);
        QCOMPARE(t.ranks.size(), size_t(1));
        QCOMPARE(t.ranks[0].nics, QStringList{QStringLiteral("NET device 99")}); // never a made-up name
    }
};

QTEST_GUILESS_MAIN(TestNcclTransport)
#include "test_nccl_transport.moc"
