// NCCL topology XML: every nccl-topo-* fixture, with pairs worked out from
// each file by hand (which <pci> switch and which <cpu> each device sits in).
#include "test_support.h"

#include "analysis/findings.h"

#include <QRegularExpression>

using namespace rackscope;
using namespace rackscope::test;

class TestNcclXml : public QObject {
    Q_OBJECT
private slots:
    void everyFixtureLoads_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("nics");
        QTest::newRow("oci-h100 dump") << "nccl-topo-dump-oci-bm-gpu-h100-8.xml" << 8 << 16;
        QTest::newRow("oci-h100 k8s") << "nccl-topo-oci-bm-gpu-h100-8-kubernetes.xml" << 8 << 16;
        QTest::newRow("oci-a100 flattened") << "nccl-topo-oci-a100-flattened.xml" << 8 << 8;
        QTest::newRow("oci-a100 b4") << "nccl-topo-oci-a100-flattened-b4.xml" << 8 << 8;
        QTest::newRow("azure ndv4") << "nccl-topo-azure-ndv4.xml" << 8 << 8;
        QTest::newRow("azure ndv5") << "nccl-topo-azure-ndv5.xml" << 8 << 8;
        QTest::newRow("azure ndv2") << "nccl-topo-azure-ndv2.xml" << 8 << 1;
        QTest::newRow("azure ncv4") << "nccl-topo-azure-ncv4.xml" << 4 << 1;
        QTest::newRow("aws p4d") << "nccl-topo-aws-p4d-24xl.xml" << 8 << 4;
        QTest::newRow("aws p4de") << "nccl-topo-aws-p4de-24xl.xml" << 8 << 4;
        QTest::newRow("aws g5") << "nccl-topo-aws-g5-48xl.xml" << 0 << 0;
    }
    void everyFixtureLoads() {
        QFETCH(QString, file);
        QFETCH(int, gpus);
        QFETCH(int, nics);
        const Loaded l = load(file);
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.source.format, SourceFormat::NcclTopoXml);
        QCOMPARE(int(l.host.gpus.size()), gpus);
        QCOMPARE(int(l.host.nics.size()), nics);
        for (const Device& g : l.host.gpus)
            QVERIFY(!g.socket); // NCCL XML names NUMA nodes, not packages
    }

    void theListIsComplete() {
        // Every nccl-topo-* fixture must be in the table above.
        QCOMPARE(fixtures(QStringLiteral("nccl-topo-*.xml")).size(), 11);
    }

    // GB300 NVL72 trays as NCCL dumps them: NVLink to NVSwitches outside the node ("fffffff:ff:ff.0"), C2C
    // to Grace, arm64. Each pair of GPUs reads NV18 (18 links each into the one switch fabric, as nvidia-smi
    // prints it); GPUDirect RDMA to the NIC as NCCL's own log of these trays says.
    void gb300TraysWithC2cAndHiddenNvswitch() {
        const QString file = QStringLiteral("nccl-topo-dump-gb300-nvl72-1tray-4gpu-c2c-mnnvl.xml");
        const ImportResult r = importTopology(incomingBytes(file), file);
        QVERIFY2(r.host, qPrintable(r.error));
        const HostTopology& h = *r.host;
        QCOMPARE(h.arch, QStringLiteral("arm64"));
        QCOMPARE(h.gpus.size(), size_t(4));
        QCOMPARE(h.nics.size(), size_t(1));
        QVERIFY(h.nvlinkStated);
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j)
                QCOMPARE(h.nvlinks.at({i, j}), 18);
        for (const Device& g : h.gpus) {
            QCOMPARE(g.c2cLinks, std::optional<int>(5));
            QVERIFY(qAbs(*g.c2cGBps - 223.56) < 0.01); // NCCL's own log: C2C[223.6]
        }
        // NCCL's own account of this machine (its INFO log of a run on these trays): GPUs 2 and 3 sit on the
        // NIC's CPU and use GPUDirect RDMA over C2C (P2C); GPUs 0 and 1 relay through GPU2 over NVLink (PXN).
        // The test reads it from the log: "GPU Direct RDMA Enabled for GPU/0-<busId> (rank N) - NET/0-0
        // ( using PXN via GPU/0-<busId>, ...".
        const QByteArray log = incomingBytes(QStringLiteral(
            "nccl-debug-info_gb300-nvl72-2tray-topo-system-tree-c2c-nvl-pxn_lines279-363.log"));
        static const QRegularExpression enabled(
            QStringLiteral("GPU Direct RDMA Enabled for GPU/0-(\\d+) \\(rank \\d+\\) - NET/0-0 \\((?: using "
                           "PXN via GPU/0-(\\d+),)?"));
        auto busOf = [](const QString& decimal) { // NCCL's int64 bus id: the hex digits of "dddd:bb:dd.f"
            const QString hex = QStringLiteral("%1").arg(decimal.toLongLong(), 9, 16, QLatin1Char('0'));
            return QStringLiteral("%1:%2:%3.%4")
                .arg(hex.left(4), hex.mid(4, 2), hex.mid(6, 2), hex.mid(8, 1));
        };
        auto gpuAt = [&](const QString& bus) {
            for (const Device& g : h.gpus)
                if (g.pci->toString() == bus)
                    return g.id;
            return QString();
        };
        const HostAnalysis a = analyzeHost(h);
        int read = 0;
        for (auto it = enabled.globalMatch(QString::fromUtf8(log)); it.hasNext(); ++read) {
            const auto m = it.next();
            const GpuNicPair* p = a.pair(gpuAt(busOf(m.captured(1))), QStringLiteral("NIC0"));
            QVERIFY2(p, qPrintable(m.captured()));
            QCOMPARE(p->gpudirect, std::optional<bool>(true));
            if (m.captured(2).isEmpty()) {
                QCOMPARE(p->ncclPath, std::optional<PathType>(PathType::P2C));
            } else {
                QCOMPARE(p->ncclPath, std::optional<PathType>(PathType::PXN));
                QCOMPARE(p->relayGpu, gpuAt(busOf(m.captured(2))));
            }
        }
        QCOMPARE(read, 4); // host 0 of the log, the tray this dump is of
        for (const Finding& f : a.findings) {
            QVERIFY2(f.code != QLatin1String(codes::kNoGpuDirectNic), qPrintable(f.message));
            QVERIFY2(f.code != QLatin1String(codes::kNearestNicCrossSocket), qPrintable(f.message));
            QVERIFY2(f.code != QLatin1String(codes::kGpuDirectUnknown), qPrintable(f.message));
        }
    }

    // Two trays NCCL fused into one dump (MNNVL): the same bus ids under each host_hash. Each host is read on
    // its own, checked against the test's own reading of the file (the <gpu> elements under each hash's
    // CPUs).
    void aFusedDumpIsOneHostPerHostHash() {
        const QString fused = QStringLiteral("nccl-topo-dump-gb300-nvl72-2tray-8gpu-fused-mnnvl.xml");
        const QByteArray bytes = incomingBytes(fused);
        std::map<QString, QStringList> ranksByHash; // hash -> "dev/rank" of its GPUs, in file order
        QString hash;
        static const QRegularExpression cpu(QStringLiteral("<cpu host_hash=\"([^\"]+)\""));
        static const QRegularExpression gpu(
            QStringLiteral("<gpu dev=\"(\\d+)\" sm=\"\\d+\" rank=\"(\\d+)\""));
        for (const QString& line : QString::fromUtf8(bytes).split(QLatin1Char('\n'))) {
            if (const auto m = cpu.match(line); m.hasMatch())
                hash = m.captured(1);
            if (const auto m = gpu.match(line); m.hasMatch())
                ranksByHash[hash] << m.captured(1);
        }
        QCOMPARE(int(ranksByHash.size()), 2);

        const ImportResult r = importTopology(bytes, fused);
        QVERIFY2(r.host, qPrintable(r.error));
        QCOMPARE(int(r.moreHosts.size()), 1);
        for (const HostTopology* h : {&*r.host, &r.moreHosts.front()}) {
            QVERIFY(ranksByHash.count(h->hostHash));
            QStringList devs;
            for (const Device& g : h->gpus)
                devs << QString::number(g.cudaDevice.value_or(-1));
            QCOMPARE(devs, ranksByHash.at(h->hostHash));
            QCOMPARE(h->nics.size(), size_t(1));
            QCOMPARE(h->arch, QStringLiteral("arm64"));
            for (int i = 0; i < 4; ++i)
                for (int j = i + 1; j < 4; ++j)
                    QCOMPARE(h->nvlinks.at({i, j}), 18);
        }
        QVERIFY(r.host->hostHash != r.moreHosts.front().hostHash);

        // Opened as a workspace input: two servers, named by file and host_hash, the same again when
        // reopened.
        const LoadedSources loaded = loadSources({incoming(fused)});
        QVERIFY(loaded.failed.empty());
        QCOMPARE(int(loaded.input.hosts.size()), 2);
        QCOMPARE(loaded.input.hosts[0].host.name,
                 QStringLiteral("nccl-topo-dump-gb300-nvl72-2tray-8gpu-fused-mnnvl@0xHOSTHASH_B"));
        QCOMPARE(loaded.input.hosts[1].host.name,
                 QStringLiteral("nccl-topo-dump-gb300-nvl72-2tray-8gpu-fused-mnnvl@0xHOSTHASH_A"));
        const LoadedSources again = importSources(loaded.raw);
        QCOMPARE(again.input.hosts[1].host.name, loaded.input.hosts[1].host.name);
    }

    // What NCCL writes on machines it knows little of: numaid -1, an empty link_speed, a trimmed <gpu/>, a
    // NIC straight under <cpu>. Read without error, and -1 is an unknown node, not node -1.
    void sparseDumpsReadWithoutError() {
        const QByteArray xml =
            "<system version=\"1\">\n"
            "  <cpu numaid=\"-1\" affinity=\"\" arch=\"x86_64\" vendor=\"AuthenticAMD\">\n"
            "    <pci busid=\"0000:c1:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x20b5\" "
            "link_speed=\"\" link_width=\"0\">\n"
            "      <gpu dev=\"0\"/>\n"
            "    </pci>\n"
            "    <nic>\n"
            "      <net name=\"eth0\" dev=\"0\" speed=\"25000\" port=\"0\" guid=\"0x0\" gdr=\"0\"/>\n"
            "    </nic>\n"
            "  </cpu>\n"
            "</system>\n";
        const ImportResult r = importTopology(xml, QStringLiteral("sparse.xml"));
        QVERIFY2(r.host, qPrintable(r.error));
        QCOMPARE(r.host->gpus.size(), size_t(1));
        QCOMPARE(r.host->nics.size(), size_t(1));
        QVERIFY(!r.host->gpus[0].numa);
        QVERIFY(!r.host->gpus[0].linkMax.gts);
        QCOMPARE(r.host->gpus[0].cudaDevice, std::optional<int>(0));
        QCOMPARE(r.host->nics[0].name, QStringLiteral("eth0"));
    }

    void ociH100DumpSwitchesAndNvswitch() {
        const Loaded l = load(QStringLiteral("nccl-topo-dump-oci-bm-gpu-h100-8.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        // GPU0 0f:00.0 under switch 0d under 08; NIC 0c:00.0 (mlx5_0, mlx5_1) under 0a under 08.
        QCOMPARE(l.host.gpus[0].pci->toString(), QStringLiteral("0000:0f:00.0"));
        QCOMPARE(l.host.nics[0].name, QStringLiteral("mlx5_0"));
        QCOMPARE(l.host.nics[1].name, QStringLiteral("mlx5_1"));
        QCOMPARE(l.host.nics[1].pci->toString(), QStringLiteral("0000:0c:00.0"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("PXB"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC2")), QStringLiteral("PHB"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC8")), QStringLiteral("SYS"));
        // 5+5+4+4 links to the four NVSwitches: NV18, as nvidia-smi prints for H100.
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU7")), QStringLiteral("NV18"));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->gpudirect,
                 std::optional<bool>(true));
        // NIC2 is PHB from GPU0, but NCCL reaches it over NVLink through a GPU under NIC2's own switch (PXN)
        // and judges GPUDirect RDMA by that GPU's path.
        const GpuNicPair* relayed = l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC2"));
        QCOMPARE(relayed->ncclPath, std::optional<PathType>(PathType::PXN));
        QCOMPARE(l.path(relayed->relayGpu, QStringLiteral("NIC2")), QStringLiteral("PXB"));
        QCOMPARE(relayed->gpudirect, std::optional<bool>(true));
        QCOMPARE(l.host.nics[0].speedMbps, std::optional<double>(180000));
        QCOMPARE(l.host.gpus[3].cudaDevice, std::optional<int>(3));
        // GPU1 (dev 1) sees mlx5_3/mlx5_4 at PXB; mirrorBits(1, 2) = 1 picks the second.
        QCOMPARE(l.ncclNic(QStringLiteral("GPU0")), QStringLiteral("NIC0"));
        QCOMPARE(l.ncclNic(QStringLiteral("GPU1")), QStringLiteral("NIC3"));
        QCOMPARE(l.ncclNic(QStringLiteral("GPU2")), QStringLiteral("NIC4"));
        QCOMPARE(l.ncclNic(QStringLiteral("GPU3")), QStringLiteral("NIC7"));
    }

    void awsP4dTwoGpusAndOneEfaPerSwitch() {
        const Loaded l = load(QStringLiteral("nccl-topo-aws-p4d-24xl.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU1")), QStringLiteral("PIX"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU2")), QStringLiteral("PHB"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU4")), QStringLiteral("SYS"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("PIX"));
        QCOMPARE(l.host.nics[0].rdma, std::optional<bool>(true)); // EFA 1d0f:efa0
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->gpudirect,
                 std::optional<bool>(true));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC2"))->crossSocket,
                 std::optional<bool>(true));
        for (int g = 0; g < 8; ++g)
            QCOMPARE(l.ncclNic(QStringLiteral("GPU%1").arg(g)), QStringLiteral("NIC%1").arg(g / 2));
        QVERIFY(!l.hasFinding(QStringLiteral("nic-shared-unevenly"))); // two per NIC, evenly
        QCOMPARE(l.host.gpus[0].linkMax.gts, std::optional<double>(8));
    }

    void azureNdv4VirtualBusIds() {
        const Loaded l = load(QStringLiteral("nccl-topo-azure-ndv4.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        // PCI order: GPU0 = 0001:00:00.0 on numa 1, with NICs 0101 and 0102 under ffff:ff:02.0.
        QCOMPARE(l.host.gpus[0].pci->toString(), QStringLiteral("0001:00:00.0"));
        QCOMPARE(l.host.gpus[0].numa, std::optional<int>(1));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("PIX"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC1")), QStringLiteral("PIX"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC2")), QStringLiteral("SYS"));
        QCOMPARE(l.host.nics[0].rdma, std::optional<bool>(true)); // class 0x020700
        const QStringList expected = {"NIC0", "NIC1", "NIC2", "NIC3", "NIC4", "NIC5", "NIC6", "NIC7"};
        for (int g = 0; g < 8; ++g)
            QCOMPARE(l.ncclNic(QStringLiteral("GPU%1").arg(g)), expected[g]);
    }

    void azureNdv2GpusStraightUnderTheCpu() {
        const Loaded l = load(QStringLiteral("nccl-topo-azure-ndv2.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("PHB"));
        QCOMPARE(l.path(QStringLiteral("GPU4"), QStringLiteral("NIC0")), QStringLiteral("SYS"));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->gpudirect,
                 std::optional<bool>(false));
        QVERIFY(l.hasFinding(QStringLiteral("gpu-no-gpudirect-nic"), QStringLiteral("GPU0")));
        QVERIFY(l.hasFinding(QStringLiteral("gpu-nearest-nic-cross-socket"), QStringLiteral("GPU5")));
    }

    void azureNcv4SocketNicWithoutPci() {
        const Loaded l = load(QStringLiteral("nccl-topo-azure-ncv4.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.nics[0].name, QStringLiteral("eth0"));
        QVERIFY(!l.host.nics[0].pci);
        QVERIFY(!l.host.nics[0].rdma); // no GUID, not an RDMA name: unknown
        QCOMPARE(l.host.nics[0].ncclGdr, std::optional<bool>(false));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("PHB"));
        QCOMPARE(l.path(QStringLiteral("GPU1"), QStringLiteral("NIC0")), QStringLiteral("SYS"));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->gpudirect,
                 std::optional<bool>(false));
        QVERIFY(l.hasFinding(QStringLiteral("source-note"))); // the self-targeted NVLink lines
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU1")), QStringLiteral("SYS"));
    }

    void ociFlattenedRdmaUnknown() {
        const Loaded l = load(QStringLiteral("nccl-topo-oci-a100-flattened.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        // numa 3 bridge 01:00.0 holds GPUs 0f, 15 and NICs 0c, 16.
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("PIX"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC1")), QStringLiteral("PIX"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC2")), QStringLiteral("SYS"));
        const GpuNicPair* p = l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"));
        QVERIFY(!p->gpudirect); // class 0x020000 without vendor: RDMA unknown, so GPUDirect unknown
        QVERIFY(l.hasFinding(QStringLiteral("gpu-gpudirect-unknown"), QStringLiteral("GPU0")));
        QCOMPARE(l.ncclNic(QStringLiteral("GPU1")), QStringLiteral("NIC1"));
        QCOMPARE(l.ncclNic(QStringLiteral("GPU2")), QStringLiteral("NIC2"));
    }

    void g5WithoutClassesKnowsNothing() {
        const Loaded l = load(QStringLiteral("nccl-topo-aws-g5-48xl.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.others.size(), size_t(9));
        QVERIFY(l.hasFinding(QStringLiteral("source-note")));
    }
};

QTEST_GUILESS_MAIN(TestNcclXml)
#include "test_nccl_xml.moc"
