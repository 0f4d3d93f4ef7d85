// NCCL topology XML: every nccl-topo-* fixture, with pairs worked out from
// each file by hand (which <pci> switch and which <cpu> each device sits in).
#include "test_support.h"

#include "analysis/findings.h"

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
    // prints it); GPUDirect to the NIC is unknown, with C2C named as the reason, never "staged through host
    // memory". A dump fused from two hosts is refused with the line and what to do.
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
        const HostAnalysis a = analyzeHost(h);
        for (const Finding& f : a.findings) {
            QVERIFY2(f.code != QLatin1String(codes::kNoGpuDirectNic), qPrintable(f.message));
            QVERIFY2(f.code != QLatin1String(codes::kNearestNicCrossSocket), qPrintable(f.message));
            if (f.code == QLatin1String(codes::kSourceNote)) // <c2c> is read, not noted as unmodelled
                QVERIFY2(f.message.contains(QStringLiteral("names no host")), qPrintable(f.message));
        }
        int unknown = 0;
        for (const Finding& f : a.findings)
            unknown += f.code == QLatin1String(codes::kGpuDirectUnknown) &&
                       f.message.contains(QStringLiteral("C2C"));
        QCOMPARE(unknown, 4);

        const QString fused = QStringLiteral("nccl-topo-dump-gb300-nvl72-2tray-8gpu-fused-mnnvl.xml");
        const ImportResult two = importTopology(incomingBytes(fused), fused);
        QVERIFY(!two.host);
        QVERIFY2(two.error.contains(QStringLiteral("fused from several hosts")), qPrintable(two.error));
        QVERIFY(two.error.startsWith(QStringLiteral("line ")));
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
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC2"))->gpudirect,
                 std::optional<bool>(false));
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
