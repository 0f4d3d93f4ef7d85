// A server that is broken or only half described gets a verdict, never "No
// findings": GPUs on PCI that no driver serves, RDMA-capable NICs without an
// RDMA device, no GPUDirect prerequisite, no GPU at all, and sources that
// cannot state NVLink.
//
// The driverless GPU server is made of real parts: this machine's own agent
// (no NVIDIA driver, no RDMA driver, no peer-memory module: what it says,
// and why, is its real answer) carrying the hwloc XML of a real GPU server
// with its OS devices taken out, as lstopo writes it where no driver has
// bound them (PCI devices are read from sysfs; OS devices come from the
// drivers).
#include "test_support.h"

#include "analysis/findings.h"
#include "diagram/diagram.h"
#include "import/agent_snapshot_importer.h"
#include "import/topology_loader.h"
#include "report/inspect_report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

using namespace rackscope;
using namespace rackscope::test;

namespace {

// This machine's snapshot, from its own agent.
QJsonObject thisMachine() {
    QProcess agent;
    agent.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("collect")});
    if (!agent.waitForFinished(120000))
        return {};
    return QJsonDocument::fromJson(agent.readAllStandardOutput()).object();
}

QByteArray withoutOsDevices(QByteArray xml) {
    static const QRegularExpression osdev(QStringLiteral("<object type=\"OSDev\"[^>]*?(/>|>.*?</object>)"),
                                          QRegularExpression::DotMatchesEverythingOption);
    return QString::fromUtf8(xml).remove(osdev).toUtf8();
}

std::vector<Finding> findingsOf(const QJsonObject& snapshot) {
    ImportResult r = importAgentSnapshot(snapshot, QStringLiteral("test"));
    if (!r.host)
        qWarning("%s", qPrintable(r.error));
    return r.host ? findingsFor(*r.host, analyzeHost(*r.host)) : std::vector<Finding>{};
}

const Finding* withCode(const std::vector<Finding>& findings, const char* code) {
    for (const Finding& f : findings)
        if (f.code == QLatin1String(code))
            return &f;
    return nullptr;
}

} // namespace

class TestBlindSpots : public QObject {
    Q_OBJECT
    QJsonObject here_;

private slots:
    void initTestCase() {
        here_ = thisMachine();
        QCOMPARE(here_.value("type").toString(), QStringLiteral("rackscope-snapshot"));
        if (here_.value("gpus").toObject().value("available").toBool() ||
            here_.value("rdma").toObject().value("available").toBool())
            QSKIP("this machine has an NVIDIA or RDMA driver: the driverless server cannot be made of it");
    }

    void aGpuServerWithoutDrivers() {
        // 3 NVIDIA GPUs and a ConnectX on PCI; the XML as lstopo writes it without drivers.
        const QByteArray xml = withoutOsDevices(fixtureBytes(QStringLiteral("hwloc-24em64t-2n6c2t-pci.xml")));
        QVERIFY(!xml.contains("type=\"OSDev\""));
        QJsonObject s = here_;
        QJsonObject topology = s.value("topology").toObject();
        topology.insert("hwloc_xml", QString::fromUtf8(xml));
        s.insert("topology", topology);
        const std::vector<Finding> found = findingsOf(s);

        const QString nvmlReason = here_.value("gpus").toObject().value("reason").toString();
        const Finding* gpu = withCode(found, codes::kGpuDriverMissing);
        QVERIFY(gpu);
        QCOMPARE(gpu->severity, Severity::Error);
        QCOMPARE(gpu->target.devices,
                 (QStringList{QStringLiteral("GPU0"), QStringLiteral("GPU1"), QStringLiteral("GPU2")}));
        QVERIFY2(gpu->message.contains(nvmlReason), qPrintable(gpu->message)); // the agent's own reason

        const Finding* rdma = withCode(found, codes::kRdmaDriverMissing);
        QVERIFY(rdma);
        QCOMPARE(rdma->severity, Severity::Error);
        QCOMPARE(rdma->target.devices.size(), 1);
        QVERIFY2(rdma->message.contains(here_.value("rdma").toObject().value("reason").toString()),
                 qPrintable(rdma->message));
        QVERIFY(!withCode(found, codes::kHostNoGpu));

        // The server's card says what it lacks, and the Inspector gives the findings behind it.
        ImportResult r = importAgentSnapshot(s, QStringLiteral("test"));
        r.host->name = QStringLiteral("bare01");
        DiagramInput in;
        in.hosts.push_back({*r.host, analyzeHost(*r.host)});
        const Diagram d = buildDiagram(in);
        const DiagramItem& card = d.items[size_t(d.find(QStringLiteral("host:bare01")))];
        QVERIFY2(card.detail.startsWith(QStringLiteral("no GPU driver, no RDMA driver")),
                 qPrintable(card.detail));
        int problems = 0;
        for (const auto& [fact, value] : card.facts)
            problems += fact == QStringLiteral("problem");
        QVERIFY(problems >= 2);

        // The kernel here has DMA-BUF, so GPUDirect is not ruled out by its prerequisites; on an older kernel
        // without a peer-memory module it is.
        const bool dmabuf = here_.value("gpudirect")
                                .toObject()
                                .value("dmabuf")
                                .toObject()
                                .value("kernel_supports_rdma_dmabuf")
                                .toBool();
        QCOMPARE(withCode(found, codes::kGpuDirectPrerequisiteMissing) != nullptr, !dmabuf);
        QJsonObject gdr = s.value("gpudirect").toObject();
        QJsonObject db = gdr.value("dmabuf").toObject();
        db.insert("kernel_supports_rdma_dmabuf", false);
        gdr.insert("dmabuf", db);
        s.insert("gpudirect", gdr);
        const std::vector<Finding> oldKernel = findingsOf(s);
        const Finding* prerequisite = withCode(oldKernel, codes::kGpuDirectPrerequisiteMissing);
        QVERIFY(prerequisite);
        QCOMPARE(prerequisite->severity, Severity::Error);

        // NVML that sees fewer GPUs than PCI has (one fell off the bus, or lost to Xid 79).
        QJsonObject gpus{{"available", true},
                         {"gpus", QJsonArray{QJsonObject{{"pci", "0000:02:00.0"}, {"name", "Tesla"}}}}};
        s.insert("gpus", gpus);
        const std::vector<Finding> nvmlShort = findingsOf(s);
        const Finding* short_ = withCode(nvmlShort, codes::kGpuDriverMissing);
        QVERIFY(short_);
        QVERIFY2(short_->message.contains(QStringLiteral("NVML sees 1 of them")),
                 qPrintable(short_->message));
    }

    // This machine as it is: no GPU, and the CLI says so (with the agent's reason) instead of "No findings".
    void thisMachineHasNoGpu() {
        const std::vector<Finding> found = findingsOf(here_);
        const Finding* none = withCode(found, codes::kHostNoGpu);
        QVERIFY(none);
        QCOMPARE(none->severity, Severity::Info);
        QVERIFY(none->message.contains(here_.value("gpus").toObject().value("reason").toString()));
        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("inspect"), QStringLiteral("--local")});
        QVERIFY(cli.waitForFinished(120000));
        const QByteArray out = cli.readAllStandardOutput();
        QVERIFY2(out.contains("[info] host-no-gpu: No GPU on this server"), out.constData());
    }

    // Whether each source can state NVLink: topo -m always does (NV# or a PCIe path in every GPU cell), NCCL
    // XML does where it has <nvlink>, hwloc XML only with its NVLinkBandwidth matrix. `undescribed`: how many
    // GPU pairs the source leaves NVLink unsaid for.
    void sourcesThatCannotStateNvlink_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("undescribed");
        // Its matrix gives GPU-to-NVSwitch links only: the two baseboards' switches are not said to meet.
        QTest::newRow("DGX-2 hwloc XML, 2 baseboards") << "hwloc-nvidiaDGX2.xml" << 8 * 8;
        QTest::newRow("hwloc XML without an NVLink matrix") << "hwloc-24em64t-2n6c2t-pci.xml" << 3;
        QTest::newRow("Azure NDv5 NCCL file, no <nvlink>") << "nccl-topo-azure-ndv5.xml" << 28;
        QTest::newRow("OCI H100 NCCL dump, with <nvlink>") << "nccl-topo-dump-oci-bm-gpu-h100-8.xml" << 0;
        QTest::newRow("topo -m, 8xH100") << "topo-m-8xH100-8nic-spaces.txt" << 0;
        QTest::newRow("topo -m, 4xK40m without NVLink") << "topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt" << 0;
    }
    void sourcesThatCannotStateNvlink() {
        QFETCH(QString, file);
        QFETCH(int, undescribed);
        const ImportResult r = importTopology(fixtureBytes(file), file);
        QVERIFY2(r.host, qPrintable(r.error));
        const InspectedHost h{*r.host, analyzeHost(*r.host)};
        const Finding* lacks = withCode(h.analysis.findings, codes::kSourceLacksNvlink);
        QCOMPARE(lacks != nullptr, undescribed > 0);
        if (lacks)
            QCOMPARE(lacks->severity, Severity::Info);
        int notes = 0;
        for (const QJsonValue& p : hostToJson(h).value("gpu_gpu").toArray()) {
            const QString note = p.toObject().value("note").toString();
            QVERIFY(note.isEmpty() ||
                    note == QStringLiteral("PCIe path; NVLink not described by this source"));
            notes += !note.isEmpty();
        }
        QCOMPARE(notes, undescribed);
        QCOMPARE(inspectToText({h}).contains(QStringLiteral("NVLink not described by this source")),
                 undescribed > 0);
    }
};

QTEST_GUILESS_MAIN(TestBlindSpots)
#include "test_blind_spots.moc"
