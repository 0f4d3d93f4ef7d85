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
        QVERIFY(!find(f, codes::kNcclGdrExpected, QStringLiteral("gpu-a"))); // nothing to compare with
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
        const Finding* expected = find(f, codes::kNcclGdrExpected, QStringLiteral("gpu-a/GPU0"));
        QVERIFY(expected);
        QVERIFY(expected->subjects.contains(QStringLiteral("gpu-a/NIC0")));
        QVERIFY(expected->message.contains(QStringLiteral("PXB")));
        QVERIFY(expected->message.contains(QStringLiteral("nvidia-peermem")));
        // mlx5_3 is across the host bridge (PHB) from GPU0, but NCCL reaches it over NVLink through the GPU
        // under its switch (PXN) and judges GPUDirect by that GPU's path: missing there too. It is not GPU0's
        // nearest NIC.
        const Finding* relayed = find(f, codes::kNcclGdrExpected, QStringLiteral("gpu-a/NIC2"));
        QVERIFY(relayed);
        QVERIFY2(relayed->message.contains(QStringLiteral("PXN through GPU")), qPrintable(relayed->message));
        const Finding* far = find(f, codes::kNcclNicNotNearest, QStringLiteral("gpu-a/NIC2"));
        QVERIFY(far);
        QVERIFY(far->message.contains(QStringLiteral("PXN")));
        QCOMPARE(int(std::count_if(f.begin(), f.end(),
                                   [](const Finding& x) { return x.severity == Severity::Error; })),
                 3); // GDR expected twice, sockets

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
                     codesSeen.contains(QLatin1String(codes::kNcclGdrExpected)),
                 qPrintable(codesSeen.join(',')));
        QProcess bad;
        bad.start(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("parse-nccl-tests"), file.fileName(),
                                                  QStringLiteral("--topology"), QStringLiteral("nohost")});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
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
