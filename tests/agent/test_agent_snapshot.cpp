// `rackscope-agent collect` on this machine and on replayed trees, and what
// its snapshot gives the analysis.
#include "agent/sysfs_builder.h"
#include "test_support.h"

#include "import/agent_snapshot_importer.h"
#include "import/hwloc_importer.h"
#include "report/inspect_report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QSysInfo>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QByteArray run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    p.waitForFinished(60000);
    return p.readAllStandardOutput();
}

QJsonObject collect(const QStringList& args = {}) {
    return QJsonDocument::fromJson(
               run(QStringLiteral(RACKSCOPE_AGENT), QStringList{QStringLiteral("collect")} + args))
        .object();
}

// A replayed tree for hwloc-32em64t-2n8c2t-pci-wholeio.xml's GPU 84:00.0 and
// ConnectX-4 04:00.0, both below root port 80:03.0 as in that file.
void buildWholeIoTree(SysfsBuilder& t, const QByteArray& kernel, bool peerMemory) {
    t.pciDevice({}, QStringLiteral("0000:80:03.0"), "0x060400");
    t.write(QStringLiteral("devices/pci0000:00/0000:80:03.0/config"),
            SysfsBuilder::configWithAcs(0x0015)); // ReqRedir on
    const QString gpu =
        t.pciDevice({QStringLiteral("0000:80:03.0")}, QStringLiteral("0000:84:00.0"), "0x030200");
    t.write(gpu + QStringLiteral("/current_link_speed"), "2.5 GT/s PCIe\n");
    t.write(gpu + QStringLiteral("/current_link_width"), "16\n");
    t.write(gpu + QStringLiteral("/max_link_speed"), "5.0 GT/s PCIe\n");
    t.write(gpu + QStringLiteral("/max_link_width"), "16\n");
    t.pciDevice({QStringLiteral("0000:80:03.0")}, QStringLiteral("0000:04:00.0"), "0x020700");
    t.write(QStringLiteral("proc/sys/kernel/osrelease"), kernel + "\n");
    if (peerMemory)
        t.write(QStringLiteral("module/nvidia_peermem/refcnt"), "0\n");
}

InspectedHost importReplay(const SysfsBuilder& t, const QString& hwlocFixture) {
    QJsonObject snap = collect({QStringLiteral("--sysfs-root"), t.root(), QStringLiteral("--proc-root"),
                                t.root() + QStringLiteral("/proc")});
    snap.insert("topology", QJsonObject{{"available", true},
                                        {"hwloc_xml", QString::fromUtf8(fixtureBytes(hwlocFixture))}});
    ImportResult r = importAgentSnapshot(snap, QStringLiteral("replay"));
    if (!r.host)
        qWarning("%s", qPrintable(r.error));
    HostAnalysis a = r.host ? analyzeHost(*r.host) : HostAnalysis{};
    return {r.host.value_or(HostTopology{}), a};
}

bool hasFinding(const InspectedHost& h, const QString& code, const QStringList& subjects) {
    for (const Finding& f : h.analysis.findings)
        if (f.code == code && f.subjects == subjects)
            return true;
    return false;
}

} // namespace

class TestAgentSnapshot : public QObject {
    Q_OBJECT
private slots:
    void liveMachine() {
        const QJsonObject s = collect();
        QCOMPARE(s.value("type").toString(), QStringLiteral("rackscope-snapshot"));
        QVERIFY(s.value("live").toBool());
        QVERIFY(s.value("topology").toObject().value("available").toBool());
        QVERIFY(s.value("topology")
                    .toObject()
                    .value("hwloc_xml")
                    .toString()
                    .contains(QStringLiteral("<topology")));
        if (!QFile::exists(QStringLiteral("/dev/nvidiactl"))) {
            QVERIFY(!s.value("gpus").toObject().value("available").toBool());
            QVERIFY(s.value("gpus").toObject().value("reason").toString().contains(QStringLiteral("NVML")));
        }
        if (!QFile::exists(QStringLiteral("/sys/class/infiniband")))
            QVERIFY(!s.value("rdma").toObject().value("available").toBool());
        const QJsonObject net = s.value("net").toObject();
        QVERIFY(net.value("available").toBool());
        QFile loMtu(QStringLiteral("/sys/class/net/lo/mtu"));
        QVERIFY(loMtu.open(QIODevice::ReadOnly));
        bool foundLo = false;
        for (const QJsonValue& i : net.value("interfaces").toArray())
            if (i["name"].toString() == QLatin1String("lo")) {
                foundLo = true;
                QCOMPARE(i["mtu"].toInt(), loMtu.readAll().trimmed().toInt());
                QVERIFY(
                    i["addresses"].toObject().value("ipv4").toArray().contains(QStringLiteral("127.0.0.1")));
            }
        QVERIFY(foundLo);
        QCOMPARE(s.value("versions").toObject().value("kernel").toString(), QSysInfo::kernelVersion());
        QVERIFY(s.value("duration_ms").toDouble() > 0);
    }

    void sameAnalysisAsLstopoXml() {
        const QString lstopo = QStandardPaths::findExecutable(QStringLiteral("lstopo-no-graphics"));
        QVERIFY2(!lstopo.isEmpty(), "lstopo-no-graphics (Debian hwloc-nox) is needed");
        ImportResult viaAgent = importAgentSnapshot(collect(), QStringLiteral("agent"));
        ImportResult viaLstopo = importHwlocXml(run(lstopo, {QStringLiteral("--of"), QStringLiteral("xml")}),
                                                QStringLiteral("lstopo"));
        QVERIFY2(viaAgent.host, qPrintable(viaAgent.error));
        QVERIFY2(viaLstopo.host, qPrintable(viaLstopo.error));
        const QJsonObject a = hostToJson({*viaAgent.host, analyzeHost(*viaAgent.host)});
        const QJsonObject b = hostToJson({*viaLstopo.host, analyzeHost(*viaLstopo.host)});
        for (const char* key : {"gpus", "nics", "gpu_gpu", "gpu_nic", "nccl_nic"})
            QVERIFY2(a.value(QLatin1String(key)) == b.value(QLatin1String(key)), key);
        QCOMPARE(a.value("source").toObject().value("format").toString(), QStringLiteral("agent-snapshot"));
    }

    void capturedInfinibandTreeReplays() {
        SysfsBuilder t;
        t.link(QStringLiteral("class/infiniband"),
               fixture(QStringLiteral("gpud_sys-class-infiniband_h100-8xCX7-NDR-plus-BF3-bond")));
        const QJsonObject s =
            collect({QStringLiteral("--sysfs-root"), t.root(), QStringLiteral("--proc-root"), t.root()});
        QVERIFY(!s.value("live").toBool());
        QCOMPARE(s.value("rdma").toObject().value("devices").toArray().size(), 9);
        QVERIFY(
            s.value("topology").toObject().value("reason").toString().contains(QStringLiteral("captured")));
        QVERIFY(!s.value("lldp").toObject().value("available").toBool());
        // Without a topology a snapshot cannot be inspected, and says why.
        const ImportResult r = importAgentSnapshot(s, QStringLiteral("x"));
        QVERIFY(!r.host);
        QVERIFY(r.error.contains(QStringLiteral("no topology")));
    }

    void degradedLinkAcsAndMissingPeerMemoryReachTheVerdicts() {
        SysfsBuilder t;
        buildWholeIoTree(t, "5.4.0-150-generic", false);
        const InspectedHost h = importReplay(t, QStringLiteral("hwloc-32em64t-2n8c2t-pci-wholeio.xml"));
        QCOMPARE(h.host.gpus.size(), size_t(3));
        QCOMPARE(h.host.gpus[2].pci->toString(), QStringLiteral("0000:84:00.0"));
        QCOMPARE(h.host.gpus[2].linkMax.gts, std::optional<double>(5.0));
        QVERIFY(hasFinding(h, QStringLiteral("pcie-link-degraded"), {QStringLiteral("GPU2")}));
        QVERIFY(hasFinding(h, QStringLiteral("pcie-acs-enabled"),
                           {QStringLiteral("0000:80:03.0"), QStringLiteral("GPU2"), QStringLiteral("NIC0")}));
        const GpuNicPair* p = h.analysis.pair(QStringLiteral("GPU2"), QStringLiteral("NIC0"));
        QVERIFY(p);
        QCOMPARE(p->path, std::optional(PathType::PIX));
        QCOMPARE(p->gpudirect, std::optional<bool>(false));
        QVERIFY2(p->gpudirectReason.contains(QStringLiteral("peer-memory")), qPrintable(p->gpudirectReason));
    }

    void newerKernelLeavesGpuDirectOpenToDmabuf() {
        SysfsBuilder t;
        buildWholeIoTree(t, "6.1.0-18-amd64", false);
        const InspectedHost h = importReplay(t, QStringLiteral("hwloc-32em64t-2n8c2t-pci-wholeio.xml"));
        const GpuNicPair* p = h.analysis.pair(QStringLiteral("GPU2"), QStringLiteral("NIC0"));
        QVERIFY(p && !p->gpudirect);
        QVERIFY2(p->gpudirectReason.contains(QStringLiteral("DMA-BUF")), qPrintable(p->gpudirectReason));
    }

    void withPeerMemoryGpuDirectHolds() {
        SysfsBuilder t;
        buildWholeIoTree(t, "5.4.0-150-generic", true);
        const InspectedHost h = importReplay(t, QStringLiteral("hwloc-32em64t-2n8c2t-pci-wholeio.xml"));
        QCOMPARE(h.analysis.pair(QStringLiteral("GPU2"), QStringLiteral("NIC0"))->gpudirect,
                 std::optional<bool>(true));
    }

    void cliInspectsASavedSnapshot() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("node.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(run(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("collect")}));
        f.close();
        const QJsonObject doc =
            QJsonDocument::fromJson(run(QStringLiteral(RACKSCOPE_CLI),
                                        {QStringLiteral("inspect"), QStringLiteral("--json"), path}))
                .object();
        const QJsonObject host = doc.value("hosts").toArray().first().toObject();
        QCOMPARE(host.value("source").toObject().value("format").toString(),
                 QStringLiteral("agent-snapshot"));
        QCOMPARE(host.value("name").toString(), QSysInfo::machineHostName());
    }
};

QTEST_GUILESS_MAIN(TestAgentSnapshot)
#include "test_agent_snapshot.moc"
