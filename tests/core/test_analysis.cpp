// Analysis rules on small hosts built in the test, where each verdict can be
// reasoned out from NCCL's own rules.
#include "test_support.h"

#include "analysis/findings.h"
#include "report/finding_json.h"

using namespace rackscope;

namespace {

Device gpu(int i, int node, std::optional<int> socket = {}) {
    Device d;
    d.kind = DeviceKind::Gpu;
    d.id = QStringLiteral("GPU%1").arg(i);
    d.cudaDevice = i;
    d.node = node;
    d.socket = socket;
    return d;
}

Device nic(int i, int node, std::optional<bool> rdma, std::optional<int> socket = {}) {
    Device d;
    d.kind = DeviceKind::Nic;
    d.id = QStringLiteral("NIC%1").arg(i);
    d.name = QStringLiteral("mlx5_%1").arg(i);
    d.node = node;
    d.rdma = rdma;
    d.rdmaEvidence = QStringLiteral("test");
    d.socket = socket;
    return d;
}

// Machine > package 0 > host bridge > root port > switch, plus package 1 > host bridge > root port.
HostTopology twoSocketHost() {
    HostTopology h;
    h.nodes = {{NodeKind::Machine, -1, {}, {}, {}},   // 0
               {NodeKind::Package, 0, 0u, {}, {}},    // 1
               {NodeKind::HostBridge, 1, {}, {}, {}}, // 2
               {NodeKind::RootPort, 2, {}, {}, {}},   // 3
               {NodeKind::PciSwitch, 3, {}, {}, {}},  // 4
               {NodeKind::Package, 0, 1u, {}, {}},    // 5
               {NodeKind::HostBridge, 5, {}, {}, {}}, // 6
               {NodeKind::RootPort, 6, {}, {}, {}}};  // 7
    for (int i = 0; i < 6; ++i)
        h.nodes.push_back({NodeKind::PciDevice, i < 4 ? 4 : 7, {}, {}, {}}); // 8..13
    return h;
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    void mirrorBitsIsNcclsBitReversal() {
        QCOMPARE(mirrorBits(0, 4), 0);
        QCOMPARE(mirrorBits(1, 4), 2);
        QCOMPARE(mirrorBits(2, 4), 1);
        QCOMPARE(mirrorBits(3, 4), 3);
        QCOMPARE(mirrorBits(3, 8), 6);
        QCOMPARE(mirrorBits(5, 2), 1); // only the low log2(pow2) bits count
        QCOMPARE(mirrorBits(7, 1), 0);
    }

    void pathTypeNames() {
        int links = 0;
        QCOMPARE(parsePathType(QStringLiteral("NV12"), &links), std::optional(PathType::NV));
        QCOMPARE(links, 12);
        QCOMPARE(parsePathType(QStringLiteral("SOC")), std::optional(PathType::SYS));
        QVERIFY(!parsePathType(QStringLiteral("NV")));
        QVERIFY(!parsePathType(QStringLiteral("NVx")));
        QCOMPARE(pathTypeName(PathType::NV, 4), QStringLiteral("NV4"));
        QCOMPARE(ncclRank(PathType::NODE), ncclRank(PathType::PHB));
    }

    void pathsAndSocketsFromTheTree() {
        HostTopology h = twoSocketHost();
        for (int i = 0; i < 3; ++i)
            h.gpus.push_back(gpu(i, 8 + i, 0));
        h.nics.push_back(nic(0, 11, true, 0)); // under the switch with GPU0-2: PIX for all three
        h.gpus.push_back(gpu(3, 12, 1));
        h.nics.push_back(nic(1, 13, true, 1)); // beside GPU3 under root port 7: PIX
        const HostAnalysis a = analyzeHost(h);
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->path, std::optional(PathType::PIX));
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC1"))->path, std::optional(PathType::SYS));
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC1"))->crossSocket,
                 std::optional<bool>(true));
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC1"))->crossSocketEvidence,
                 QStringLiteral("GPU0 on package 0, NIC1 on package 1"));
        const auto f = std::find_if(a.findings.begin(), a.findings.end(), [](const Finding& x) {
            return x.code == QLatin1String(codes::kNicSharedUnevenly);
        });
        QVERIFY(f != a.findings.end()); // 3 GPUs on NIC0, 1 on NIC1
    }

    void unevenSharingIsReported() {
        HostTopology h = twoSocketHost();
        h.name = QStringLiteral("node1");
        for (int i = 0; i < 4; ++i)
            h.gpus.push_back(gpu(i, 8 + i, 0));
        h.nics.push_back(nic(0, 4, true, 0));  // on the switch itself: PIX to all four GPUs
        h.nics.push_back(nic(1, 13, true, 1)); // other socket
        const HostAnalysis a = analyzeHost(h);
        for (int g = 0; g < 4; ++g)
            QCOMPARE(a.ncclNic[g].second, QStringLiteral("NIC0"));
        bool found = false;
        for (const Finding& f : a.findings)
            if (f.code == QLatin1String(codes::kNicSharedUnevenly)) {
                found = true;
                QVERIFY(f.subjects.contains(QStringLiteral("NIC0")));
                QVERIFY(f.message.contains(QStringLiteral("4 GPUs")));
                // Structured: the server and its devices it concerns, and the message's values.
                QCOMPARE(f.target.host, h.name);
                QVERIFY(f.target.devices.contains(QStringLiteral("NIC0")) &&
                        f.target.devices.contains(QStringLiteral("GPU3")));
                QCOMPARE(f.text.args.value(0), QStringLiteral("NIC0"));
                QCOMPARE(f.text.args.value(1), QStringLiteral("4"));
                QCOMPARE(f.message, fillText(QString::fromUtf8(f.text.source), f.text.args));
                // ... and so in JSON.
                const QJsonObject json = findingToJson(f);
                QCOMPARE(json.value("params").toArray().at(1).toString(), QStringLiteral("4"));
                QCOMPARE(json.value("target").toObject().value("host").toString(), h.name);
            }
        QVERIFY(found);
    }

    void findingTextsAreFilledInOnePass() {
        QCOMPARE(fillText(QStringLiteral("%1 of %2, %1 again"), {QStringLiteral("a"), QStringLiteral("b")}),
                 QStringLiteral("a of b, a again"));
        // A value that holds a marker stays as it is; %10 is the tenth value; a marker with no value stays.
        QCOMPARE(fillText(QStringLiteral("%1 %2"), {QStringLiteral("100%2"), QStringLiteral("x")}),
                 QStringLiteral("100%2 x"));
        QStringList ten;
        for (int i = 1; i <= 10; ++i)
            ten << QStringLiteral("v%1").arg(i);
        QCOMPARE(fillText(QStringLiteral("%10/%1/%3%"), ten), QStringLiteral("v10/v1/v3%"));
        QCOMPARE(fillText(QStringLiteral("%4 left"), {QStringLiteral("a")}), QStringLiteral("%4 left"));
        // No translator here: the sentence shown is the English message.
        const Finding f = makeFinding(Severity::Info, QStringLiteral("c"), {},
                                      {QT_TRANSLATE_NOOP("rackscope", "%1 port %2 is not active"),
                                       {QStringLiteral("sw1"), QStringLiteral("7")}});
        QCOMPARE(f.message, QStringLiteral("sw1 port 7 is not active"));
        QCOMPARE(findingText(f), f.message);
    }

    void gpudirectNeedsAnRdmaNicAndAShortPath() {
        HostTopology h = twoSocketHost();
        h.gpus.push_back(gpu(0, 8));
        h.nics.push_back(nic(0, 9, std::nullopt)); // PIX, RDMA unknown
        h.nics.push_back(nic(1, 10, false));       // PIX, no RDMA
        h.nics.push_back(nic(2, 11, true));        // PIX, RDMA
        h.nics.push_back(nic(3, 12, true));        // SYS
        Device gdrOff = nic(4, 13, true);
        gdrOff.ncclGdr = false;
        h.nics.push_back(gdrOff);
        const HostAnalysis a = analyzeHost(h);
        QVERIFY(!a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC0"))->gpudirect);
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC1"))->gpudirect,
                 std::optional<bool>(false));
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC2"))->gpudirect,
                 std::optional<bool>(true));
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC3"))->gpudirect,
                 std::optional<bool>(false));
        QVERIFY(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC3"))
                    ->gpudirectReason.contains(QStringLiteral("SYS")));
        QVERIFY(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC4"))
                    ->gpudirectReason.contains(QStringLiteral("gdr=0")));
        // Sockets unknown: the SYS path stands in, and says so.
        QCOMPARE(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC3"))->crossSocket,
                 std::optional<bool>(true));
        QVERIFY(a.pair(QStringLiteral("GPU0"), QStringLiteral("NIC3"))
                    ->crossSocketEvidence.contains(QStringLiteral("unknown")));
        QCOMPARE(a.ncclNic.front().second, QStringLiteral("NIC2")); // the only RDMA NIC at PIX
    }

    void degradedAndSlowLinks() {
        HostTopology h = twoSocketHost();
        for (int i = 0; i < 3; ++i) {
            Device g = gpu(i, 8 + i);
            g.vendorId = 0x10de;
            g.deviceId = 0x2330;
            g.linkCurrent.gbps = i == 2 ? 7.9 : 31.5;
            h.gpus.push_back(g);
        }
        Device n = nic(0, 11, true);
        n.linkCurrent = {16.0, 8, {}};
        n.linkMax = {32.0, 16, {}};
        h.nics.push_back(n);
        const HostAnalysis a = analyzeHost(h);
        auto has = [&](const char* code, const char* subject) { // the device the finding is about comes first
            return std::any_of(a.findings.begin(), a.findings.end(), [&](const Finding& f) {
                return f.code == QLatin1String(code) && f.subjects.value(0) == QLatin1String(subject);
            });
        };
        QVERIFY(has(codes::kPcieLinkBelowPeers, "GPU2"));
        QVERIFY(!has(codes::kPcieLinkBelowPeers, "GPU0"));
        QVERIFY(has(codes::kPcieLinkDegraded, "NIC0"));
    }

    void nothingInventedWithoutATree() {
        HostTopology h;
        h.gpus.push_back(gpu(0, -1));
        h.nics.push_back(nic(0, -1, true));
        const HostAnalysis a = analyzeHost(h);
        QVERIFY(!a.gpuNic.front().path);
        QVERIFY(!a.gpuNic.front().gpudirect);
        QVERIFY(!a.gpuNic.front().crossSocket);
        QVERIFY(a.ncclNic.empty());
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "test_analysis.moc"
