// hwloc XML through libhwloc: every hwloc-*.xml fixture. Counts come from
// the XML text itself (pci_type attributes); pairs were worked out by hand
// from `lstopo-no-graphics --input FILE --whole-io`.
#include "test_support.h"

#include "analysis/device_paths.h"
#include "analysis/findings.h"
#include "import/hwloc_importer.h"

#include <QFile>
#include <QRegularExpression>

using namespace rackscope;
using namespace rackscope::test;

namespace {

int countInXml(const QString& file, const QString& pattern) {
    QFile f(fixture(file));
    f.open(QIODevice::ReadOnly);
    const QString text = QString::fromUtf8(f.readAll());
    return int(text.count(QRegularExpression(pattern)));
}

QString tree(const Loaded& l, const QString& a, const QString& b) {
    const auto t = treePath(l.host, *l.host.findDevice(a), *l.host.findDevice(b));
    return t ? pathTypeName(*t) : QStringLiteral("?");
}

} // namespace

class TestHwlocXml : public QObject {
    Q_OBJECT
private slots:
    void everyFixtureLoads_data() {
        QTest::addColumn<QString>("file");
        const QStringList files = fixtures(QStringLiteral("hwloc-*.xml"));
        QVERIFY2(files.size() >= 9, qPrintable(QStringLiteral("hwloc fixtures missing in ") + fixturesDir()));
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyFixtureLoads() {
        QFETCH(QString, file);
        const Loaded l = load(file);
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.source.format, SourceFormat::HwlocXml);
        // NVIDIA display/3D functions are GPUs; class 02xx, and InfiniBand as 0c06, are NICs.
        QCOMPARE(int(l.host.gpus.size()),
                 countInXml(file, QStringLiteral("type=\"PCIDev\"[^>]*pci_type=\"03[0-9a-f]{2} \\[10de:")));
        QCOMPARE(int(l.host.nics.size()),
                 countInXml(file, QStringLiteral("type=\"PCIDev\"[^>]*pci_type=\"(02[0-9a-f]{2}|0c06) ")));
        for (const Device& d : l.host.gpus)
            QVERIFY(d.pci);
        // Every GPU-NIC pair gets a path from the tree.
        for (const GpuNicPair& p : l.analysis.gpuNic)
            QVERIFY2(p.path, qPrintable(p.gpu + p.nic));
    }

    void dgx2SwitchTreeAndNvswitchPlanes() {
        const Loaded l = load(QStringLiteral("hwloc-nvidiaDGX2.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.gpus.size(), size_t(16));
        QCOMPARE(std::count_if(l.host.others.begin(), l.host.others.end(),
                               [](const Device& d) { return d.kind == DeviceKind::NvSwitch; }),
                 12);
        // 34:00 and 36:00 share the second-level PEX 9781 (32:00); 39:00 is under a sibling switch.
        QCOMPARE(l.host.gpus[0].pci->toString(), QStringLiteral("0000:34:00.0"));
        QCOMPARE(tree(l, QStringLiteral("GPU0"), QStringLiteral("GPU1")), QStringLiteral("PIX"));
        QCOMPARE(tree(l, QStringLiteral("GPU0"), QStringLiteral("GPU2")), QStringLiteral("PXB"));
        QCOMPARE(tree(l, QStringLiteral("GPU0"), QStringLiteral("GPU4")),
                 QStringLiteral("NODE")); // other host bridge, package 0
        QCOMPARE(tree(l, QStringLiteral("GPU0"), QStringLiteral("GPU8")), QStringLiteral("SYS"));
        // One 25 GB/s link to each of the six NVSwitches of its board.
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU7")), QStringLiteral("NV6"));
        QCOMPARE(l.path(QStringLiteral("GPU8"), QStringLiteral("GPU15")), QStringLiteral("NV6"));
        QCOMPARE(l.host.gpus[0].socket, std::optional<int>(0));
        QCOMPARE(l.host.gpus[8].socket, std::optional<int>(1));
        QCOMPARE(l.host.gpus[8].numa, std::optional<int>(1));
        QVERIFY(l.hasFinding(QStringLiteral("host-no-rdma-nic")));
    }

    void power8NvlinkBandwidthToLinks() {
        const Loaded l = load(QStringLiteral("hwloc-power8gpudistances.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.gpus.size(), size_t(4));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU1")),
                 QStringLiteral("NV2")); // 40000 MB/s NVLink 1.0
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU2")), QStringLiteral("SYS"));
        QCOMPARE(l.host.gpus[0].name, QStringLiteral("Tesla P100-SXM2-16GB"));
        QCOMPARE(l.host.gpus[0].linkCurrent.gbps.has_value(), true);
    }

    void wholeIoGpuNicPairs() {
        const Loaded l = load(QStringLiteral("hwloc-32em64t-2n8c2t-pci-wholeio.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.nics[0].name, QStringLiteral("mlx5_0"));
        QCOMPARE(l.host.nics[0].rdma, std::optional<bool>(true));
        QCOMPARE(l.host.nics[1].name, QStringLiteral("eth0"));
        QCOMPARE(l.host.nics[1].rdma, std::optional<bool>(false)); // a netdev, no OpenFabrics device
        QCOMPARE(l.host.gpus[2].name, QStringLiteral("Tesla K40m"));
        QCOMPARE(l.path(QStringLiteral("GPU2"), QStringLiteral("NIC0")),
                 QStringLiteral("PIX")); // both under root port 80:03.0
        QCOMPARE(l.path(QStringLiteral("GPU1"), QStringLiteral("NIC0")),
                 QStringLiteral("PHB")); // same host bridge
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("SYS"));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->crossSocket,
                 std::optional<bool>(true));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU2"), QStringLiteral("NIC0"))->gpudirect,
                 std::optional<bool>(true));
        QCOMPARE(l.analysis.pair(QStringLiteral("GPU2"), QStringLiteral("NIC1"))->gpudirect,
                 std::optional<bool>(false));
        QVERIFY(l.hasFinding(QStringLiteral("gpu-nearest-nic-cross-socket"), QStringLiteral("GPU0")));
        QCOMPARE(l.ncclNic(QStringLiteral("GPU0")), QStringLiteral("NIC0")); // the only RDMA NIC
    }

    void oldConnectXAsSerialBusInfiniband() {
        const Loaded l = load(QStringLiteral("hwloc-24em64t-2n6c2t-pci.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.nics[2].name, QStringLiteral("mlx4_0"));
        QCOMPARE(l.host.nics[2].netdevs, QStringList({QStringLiteral("eth2"), QStringLiteral("ib0")}));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC2")), QStringLiteral("PHB"));
        QCOMPARE(l.path(QStringLiteral("GPU1"), QStringLiteral("NIC2")), QStringLiteral("SYS"));
        QCOMPARE(l.host.gpus[0].linkCurrent.gbps, std::optional<double>(4.0));
    }

    void manyVirtualFunctions() {
        const Loaded l = load(QStringLiteral("hwloc-16intel64-manyVFs.xml"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        int rdma = 0;
        for (const Device& n : l.host.nics)
            rdma += n.rdma.value_or(false);
        QCOMPARE(rdma, countInXml(QStringLiteral("hwloc-16intel64-manyVFs.xml"),
                                  QStringLiteral("osdev_type=\"3\"")));
    }

    // hwloc's own test data holds the same DGX-2 in both formats: the 3.0 file reads to the same devices,
    // paths and verdicts as the 2.x one, and says how it was read.
    void version3ReadsAsItsVersion2Twin() {
        auto reading = [](const Loaded& l) {
            QStringList out;
            for (const auto* devices : {&l.host.gpus, &l.host.nics, &l.host.others})
                for (const Device& d : *devices)

                    out << d.id + QLatin1Char(' ') + d.name + QLatin1Char(' ') +
                               (d.pci ? d.pci->toString() : QString()) + QStringLiteral(" numa ") +
                               QString::number(d.numa.value_or(-1));
            for (const GpuPair& p : l.analysis.gpuGpu)
                out << p.a + QLatin1Char('-') + p.b + QLatin1Char('=') + l.path(p.a, p.b);
            for (const GpuNicPair& p : l.analysis.gpuNic)
                out << p.gpu + QLatin1Char('-') + p.nic + QLatin1Char('=') + l.path(p.gpu, p.nic) +
                           QString::number(p.gpudirect.value_or(-1));
            for (const Finding& f : l.analysis.findings)
                if (f.code != QLatin1String(codes::kSourceNote))
                    out << f.code + QLatin1Char(' ') + f.message;
            return out;
        };
        const Loaded v2 = load(QStringLiteral("hwloc-nvidiaDGX2.xml"));
        const Loaded v3 = load(QStringLiteral("hwloc-nvidiaDGX2.v3.xml"));
        QVERIFY2(v3.ok(), qPrintable(v3.error));
        QCOMPARE(v3.host.gpus.size(), size_t(16));
        QCOMPARE(reading(v3), reading(v2));
        QVERIFY(v3.host.notes.join(QLatin1Char('\n')).contains(QStringLiteral("hwloc XML format 3.0")));

        // A format newer than that is refused with what to do.
        QByteArray v4 = fixtureBytes(QStringLiteral("hwloc-nvidiaDGX2.v3.xml"));
        v4.replace("<topology version=\"3.0\">", "<topology version=\"4.0\">");
        const ImportResult r = importTopology(v4, QStringLiteral("v4.xml"));
        QVERIFY(!r.host);
        QVERIFY2(r.error.contains(QStringLiteral("4.0")), qPrintable(r.error));
        QVERIFY2(r.error.contains(hwlocRuntimeVersion()), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("lstopo")), qPrintable(r.error));
    }
};

QTEST_GUILESS_MAIN(TestHwlocXml)
#include "test_hwloc_xml.moc"
