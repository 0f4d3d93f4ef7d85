// The NVLink fabric readers against every real capture (each checked against the test's own reading of
// the file), the verdicts on them, and racks assembled from the real captures' own lines.
#include "test_support.h"

#include "analysis/nvlink_findings.h"
#include "import/nvlink_inputs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

NvlinkInput readIncoming(const char* name, const QString& host = {}) {
    return readNvlinkText(incomingBytes(QString::fromLatin1(name)), QString::fromLatin1(name), host);
}

int countMatching(const QByteArray& text, const char* pattern) {
    const QRegularExpression re(QString::fromLatin1(pattern), QRegularExpression::MultilineOption);
    int n = 0;
    for (auto it = re.globalMatch(QString::fromUtf8(text)); it.hasNext(); it.next())
        ++n;
    return n;
}

const Finding* findingOf(const std::vector<Finding>& findings, const char* code, const QString& about = {}) {
    for (const Finding& f : findings)
        if (f.code == QLatin1String(code) && (about.isEmpty() || f.message.contains(about)))
            return &f;
    return nullptr;
}

QString codesOf(const std::vector<Finding>& findings) {
    QStringList out;
    for (const Finding& f : findings)
        out << f.code + QStringLiteral(": ") + f.message;
    return out.join(QLatin1Char('\n'));
}

// The real GB200 Fabric block with its values replaced, prefixed as pdsh prefixes a server's lines.
QString trayOutput(const QString& tray, int gpus,
                   const std::map<int, std::pair<QString, QString>>& changed = {}) {
    const QString block =
        QString::fromUtf8(
            incomingBytes(QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt")))
            .replace(QStringLiteral("Unhealthy"), QStringLiteral("Healthy"));
    QString out;
    for (int g = 0; g < gpus; ++g) {
        QString b = block;
        if (const auto it = changed.find(g); it != changed.end())
            b.replace(QStringLiteral(": 2\n"), QStringLiteral(": ") + it->second.first + QLatin1Char('\n'))
                .replace(QStringLiteral("dc6e40c4-d722-4357-9ba6-5291dd461278"), it->second.second);
        for (const QString& line : b.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            out += tray + QStringLiteral(": ") + line + QLatin1Char('\n');
    }
    return out;
}

// `rackscope-agent collect` with NVML replaying `fabric` (an `nvidia-smi -q` capture) and `nvlink` (an
// `nvidia-smi nvlink --status` capture), and `nvidia-imex-ctl` a script in PATH; its snapshot, read back.
NvlinkInput agentSnapshot(const QString& fabric, const QString& nvlink, const QString& imexScript, int gpus) {
    QTemporaryDir dir;
    QFile csv(dir.filePath(QStringLiteral("gpus.csv")));
    if (!csv.open(QIODevice::WriteOnly))
        return {};
    csv.write("index, name, uuid, pci.bus_id\n");
    for (int i = 0; i < gpus; ++i)
        csv.write(QStringLiteral("%1, NVIDIA GB200, GPU-%1, 0000000%1:06:00.0\n").arg(i).toUtf8());
    csv.close();
    QStringList path{QStringLiteral("/usr/bin"), QStringLiteral("/bin")};
    if (!imexScript.isEmpty()) {
        QFile ctl(dir.filePath(QStringLiteral("nvidia-imex-ctl")));
        if (!ctl.open(QIODevice::WriteOnly))
            return {};
        ctl.write(imexScript.toUtf8());
        ctl.close();
        ctl.setPermissions(ctl.permissions() | QFileDevice::ExeOwner);
        path.prepend(dir.path());
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LD_LIBRARY_PATH"), QStringLiteral(RACKSCOPE_NVML_STANDIN_DIR));
    env.insert(QStringLiteral("RACKSCOPE_NVML_STANDIN"), csv.fileName());
    env.insert(QStringLiteral("RACKSCOPE_NVML_STANDIN_FABRIC"), fabric);
    env.insert(QStringLiteral("RACKSCOPE_NVML_STANDIN_NVLINK"), nvlink);
    env.insert(QStringLiteral("PATH"), path.join(QLatin1Char(':')));
    QProcess agent; // asked over its protocol for the two sections, as the console asks
    agent.setProcessEnvironment(env);
    agent.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("--stdio")});
    agent.write(R"({"id":1,"method":"collect","params":{"sections":["gpus","imex"]}})"
                "\n");
    agent.closeWriteChannel();
    agent.waitForFinished(120000);
    for (const QByteArray& line : agent.readAllStandardOutput().split('\n')) {
        const QJsonObject answer = QJsonDocument::fromJson(line).object();
        if (answer.value("id").toInt() == 1)
            return readNvlinkText(QJsonDocument(answer.value("result").toObject()).toJson(),
                                  QStringLiteral("snapshot"), QStringLiteral("tray7"));
    }
    return {};
}

} // namespace

class TestNvlinkFabric : public QObject {
    Q_OBJECT
private slots:
    // State Completed but status Insufficient Resources, CliqueId 0, ClusterUUID all zeros: the case
    // that passes a check for "N/A".
    void insufficientResources() {
        const NvlinkInput in =
            readIncoming("nvidia-smi-q-fabric_insufficient-resources-zero-clusteruuid.txt", "node3");
        QVERIFY2(in.error.isEmpty(), qPrintable(in.error));
        QCOMPARE(in.kinds, QStringList{QStringLiteral("nvidia-smi -q")});
        QCOMPARE(int(in.fabric.gpus.size()), 1);
        const GpuFabricState& g = in.fabric.gpus.front();
        QCOMPARE(g.host, QStringLiteral("node3"));
        QCOMPARE(g.state, QStringLiteral("Completed"));
        QCOMPARE(g.status, QStringLiteral("Insufficient Resources"));
        QCOMPARE(g.cliqueId, std::optional<quint64>(0));
        QVERIFY(!g.inDomain());
        QVERIFY(nvlinkDomains(in.fabric).empty());
        const auto findings = nvlinkFindings(in.fabric);
        const Finding* f = findingOf(findings, codes::kNvlinkFabricNotReady);
        QVERIFY2(f, qPrintable(codesOf(findings)));
        QVERIFY2(f->message.contains(
                     QLatin1String("status Insufficient Resources, CliqueId 0, ClusterUUID all zeros")),
                 qPrintable(f->message));
        QCOMPARE(f->target.host, QStringLiteral("node3"));
    }

    // Registered, in clique 2, but the health summary is Unhealthy with bandwidth still Full.
    void unhealthyWhileCompleted() {
        const NvlinkInput in = readIncoming("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt");
        QCOMPARE(int(in.fabric.gpus.size()), 1);
        const GpuFabricState& g = in.fabric.gpus.front();
        QCOMPARE(g.state, QStringLiteral("Completed"));
        QCOMPARE(g.status, QStringLiteral("Success"));
        QCOMPARE(g.cliqueId, std::optional<quint64>(2));
        QCOMPARE(g.clusterUuid, QStringLiteral("dc6e40c4-d722-4357-9ba6-5291dd461278"));
        QCOMPARE(g.health, QStringLiteral("Unhealthy"));
        QCOMPARE(g.healthDetails, QStringList{QStringLiteral("Bandwidth: Full")});
        QVERIFY(g.healthConditions.isEmpty());
        const auto domains = nvlinkDomains(in.fabric);
        QCOMPARE(int(domains.size()), 1);
        QCOMPARE(domains.front().name(), QStringLiteral("dc6e40c4/2"));
        const auto findings = nvlinkFindings(in.fabric);
        QVERIFY2(!findingOf(findings, codes::kNvlinkFabricNotReady), qPrintable(codesOf(findings)));
        const Finding* f = findingOf(findings, codes::kNvlinkFabricUnhealthy);
        QVERIFY2(f, qPrintable(codesOf(findings)));
        QCOMPARE(f->severity, Severity::Error);
        QVERIFY2(f->message.contains(QLatin1String("Bandwidth: Full")), qPrintable(f->message));
    }

    // An older driver states only State and Status; grep's "--" and the "Processes" line it pulled in are
    // not part of any block. No clique is stated, so no domain is invented.
    void olderDriverWithoutClique() {
        const char* name = "nvidia-smi-q-grep-A3-fabric_4xH100-gcp-a3-no-cliqueid.txt";
        const NvlinkInput in = readIncoming(name);
        QCOMPARE(int(in.fabric.gpus.size()),
                 countMatching(incomingBytes(QString::fromLatin1(name)), "^\\s*Fabric\\s*$"));
        QCOMPARE(int(in.fabric.gpus.size()), 4);
        for (const GpuFabricState& g : in.fabric.gpus) {
            QCOMPARE(g.state, QStringLiteral("Completed"));
            QCOMPARE(g.status, QStringLiteral("Success"));
            QVERIFY(!g.cliqueId && g.clusterUuid.isEmpty() && g.health.isEmpty());
        }
        QVERIFY(nvlinkDomains(in.fabric).empty());
        QVERIFY2(nvlinkFindings(in.fabric).empty(), qPrintable(codesOf(nvlinkFindings(in.fabric))));
    }

    // Both link listings: tab and space indented, cut short with and without a "..." of the poster's.
    void linkStatus() {
        for (const char* name : {"nvidia-smi-nvlink-s_gb200-18x53.125GBs-user-truncated.txt",
                                 "nvidia-smi-nvlink-status_4xH100-gcp-a3-tab-indent-file-truncated.txt"}) {
            const QByteArray bytes = incomingBytes(QString::fromLatin1(name));
            const NvlinkInput in = readIncoming(name, "node1");
            QVERIFY2(in.error.isEmpty(), qPrintable(in.error));
            QCOMPARE(int(in.fabric.links.size()), countMatching(bytes, "^\\s+Link \\d+: [0-9.]+ GB/s$"));
            QVERIFY(in.fabric.gpus.empty()); // link speeds say nothing of the fabric registration
            for (const NvlinkLinkState& l : in.fabric.links) {
                QCOMPARE(l.state, QStringLiteral("active"));
                QVERIFY(l.gpuUuid.startsWith(QLatin1String("GPU-")));
            }
            QVERIFY2(nvlinkFindings(in.fabric).empty(), qPrintable(codesOf(nvlinkFindings(in.fabric))));
        }
        const NvlinkInput gb200 = readIncoming("nvidia-smi-nvlink-s_gb200-18x53.125GBs-user-truncated.txt");
        QCOMPARE(gb200.fabric.links.front().gbPerSecond, std::optional<double>(53.125));
        QCOMPARE(gb200.fabric.links.back().gpu, QStringLiteral("GPU1"));
        QVERIFY2(gb200.notes.join(' ').contains(QLatin1String("cut")), qPrintable(gb200.notes.join(' ')));

        // A link that did not train is listed as <inactive>.
        QByteArray bytes = incomingBytes(
            QStringLiteral("nvidia-smi-nvlink-status_4xH100-gcp-a3-tab-indent-file-truncated.txt"));
        bytes.replace("\t Link 5: 26.562 GB/s\n", "\t Link 5: <inactive>\n"); // GPU 0's
        const NvlinkInput down = readNvlinkText(bytes, QStringLiteral("status"), QStringLiteral("node2"));
        const auto findings = nvlinkFindings(down.fabric);
        const Finding* f = findingOf(findings, codes::kNvlinkLinkInactive);
        QVERIFY2(f, qPrintable(codesOf(findings)));
        QVERIFY2(
            f->message.startsWith(QLatin1String("node2 GPU0 has 1 of its 18 NVLinks not active (link 5)")),
            qPrintable(f->message));
    }

    void linkInfoIsNamed() {
        const NvlinkInput in = readIncoming("nvidia-smi-nvlink-info_gb200-nvle-firmware-2gpus.txt");
        QVERIFY(in.fabric.empty());
        QVERIFY2(in.error.contains(QLatin1String("nvlink -info")), qPrintable(in.error));
    }

    // Both generations of `nvidia-imex-ctl -N`.
    void imexCtl() {
        for (const char* name : {"imex-ctl-N_18node-p6e-gb200-ultraserver-aws.txt",
                                 "imex-ctl-N_2node-gh200-dra-computedomain-imex570.00.txt"}) {
            const QByteArray bytes = incomingBytes(QString::fromLatin1(name));
            const NvlinkInput in = readIncoming(name);
            QVERIFY2(in.error.isEmpty(), qPrintable(in.error));
            QCOMPARE(int(in.fabric.imex.size()), 1);
            const ImexView& v = in.fabric.imex.front();
            const int nodes = countMatching(bytes, "^Node #\\d+ +- ");
            QCOMPARE(int(v.nodes.size()), nodes);
            QCOMPARE(int(v.connectivity.size()), nodes);
            for (const QStringList& row : v.connectivity)
                QCOMPARE(row, QStringList(nodes, QStringLiteral("C")));
            QCOMPARE(v.domainState, QStringLiteral("UP"));
            QVERIFY(!v.taken.isEmpty());
            for (const ImexNode& n : v.nodes)
                QCOMPARE(n.status, QStringLiteral("READY"));
            QVERIFY2(nvlinkFindings(in.fabric).empty(), qPrintable(codesOf(nvlinkFindings(in.fabric))));
        }
        const NvlinkInput aws = readIncoming("imex-ctl-N_18node-p6e-gb200-ultraserver-aws.txt");
        QCOMPARE(aws.fabric.imex.front().nodes[10].address, QStringLiteral("172.31.54.95"));
        QCOMPARE(aws.fabric.imex.front().nodes[10].version, QStringLiteral("570.172"));
        QVERIFY(readIncoming("imex-ctl-N_2node-gh200-dra-computedomain-imex570.00.txt")
                    .fabric.imex.front()
                    .nodes[1]
                    .version.isEmpty());

        // Node 3 lost: its status, its row and column, and the domain.
        QByteArray bytes = incomingBytes(QStringLiteral("imex-ctl-N_18node-p6e-gb200-ultraserver-aws.txt"));
        bytes.replace("172.31.49.228   - READY               ", "172.31.49.228   - UNAVAILABLE         ");
        bytes.replace("       3        C   C   C   C", "       3        I   I   I   I");
        bytes.replace("Domain State: UP", "Domain State: DEGRADED");
        const NvlinkInput down = readNvlinkText(bytes, QStringLiteral("imex"), QStringLiteral("tray00"));
        QCOMPARE(down.fabric.imex.front().nodes[3].status, QStringLiteral("UNAVAILABLE"));
        const auto findings = nvlinkFindings(down.fabric);
        QVERIFY2(findingOf(findings, codes::kImexPeerDown,
                           QStringLiteral("node #3 (172.31.49.228) as UNAVAILABLE")),
                 qPrintable(codesOf(findings)));
        QVERIFY2(findingOf(findings, codes::kImexPeerDown, QStringLiteral("4 connection(s) not connected")),
                 qPrintable(codesOf(findings)));
        QVERIFY(findingOf(findings, codes::kImexPeerDown, QStringLiteral("the domain as DEGRADED")));

        // A matrix cut short is said, not read as a smaller domain.
        bytes = incomingBytes(QStringLiteral("imex-ctl-N_2node-gh200-dra-computedomain-imex570.00.txt"));
        const NvlinkInput cut =
            readNvlinkText(bytes.left(bytes.indexOf("       1        C")), QStringLiteral("cut"));
        QVERIFY2(cut.notes.join(' ').contains(QLatin1String("ends before")), qPrintable(cut.notes.join(' ')));
    }

    // NCCL's MNNVL lines of 8 ranks on two GB300 trays, interleaved.
    void ncclMnnvlLines() {
        const NvlinkInput in = readIncoming("nccl-debug-info_gb300-nvl72-2tray-mnnvl-init_lines1-189.log");
        QVERIFY2(in.error.isEmpty(), qPrintable(in.error));
        QCOMPARE(int(in.fabric.gpus.size()), 8);
        const auto domains = nvlinkDomains(in.fabric);
        QCOMPARE(int(domains.size()), 1);
        QCOMPARE(domains.front().cliqueId, quint64(0xd26));
        QCOMPARE(domains.front().hosts, (QStringList{QStringLiteral("pod4-gb300-3-tray04-f3"),
                                                     QStringLiteral("pod4-gb300-3-tray05-f3")}));
        QVERIFY2(nvlinkFindings(in.fabric).empty(), qPrintable(codesOf(nvlinkFindings(in.fabric))));

        // NCCL prints the ClusterUUID as two native-endian words: the same domain as nvidia-smi's.
        const QByteArray line = "trayA:1:1 [0] NCCL INFO MNNVL busId 0x806000 fabric UUID "
                                "574322d7c4406edc.781246dd9152a69b cliqueId 0x2 state 3 healthMask 0x19a\n";
        NvlinkInput mixed = readNvlinkText(line, QStringLiteral("nccl.log"));
        mixed.fabric.append(
            readIncoming("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt", "trayB").fabric);
        QCOMPARE(mixed.fabric.gpus.front().clusterUuid,
                 QStringLiteral("dc6e40c4-d722-4357-9ba6-5291dd461278"));
        QCOMPARE(int(nvlinkDomains(mixed.fabric).size()), 1);
        QCOMPARE(mixed.fabric.gpus.front().healthConditions, QStringList{QStringLiteral("route unhealthy")});
    }

    // What the agent reads through NVML is what nvidia-smi printed on the same machine: each capture
    // replayed through NVML, read back from the snapshot, against the text reader's reading of it.
    void agentAgreesWithNvidiaSmi() {
        for (const char* name : {"nvidia-smi-q-fabric_insufficient-resources-zero-clusteruuid.txt",
                                 "nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt"}) {
            const NvlinkInput text = readIncoming(name, "tray7");
            const NvlinkInput agent = agentSnapshot(incoming(QString::fromLatin1(name)), {}, {}, 1);
            QVERIFY2(agent.error.isEmpty(), qPrintable(agent.error));
            QCOMPARE(int(agent.fabric.gpus.size()), 1);
            const GpuFabricState &a = agent.fabric.gpus.front(), &t = text.fabric.gpus.front();
            QCOMPARE(a.state, t.state);
            QCOMPARE(a.status, t.status);
            QCOMPARE(a.cliqueId, t.cliqueId);
            QCOMPARE(a.clusterUuid, t.clusterUuid);
            QCOMPARE(a.health, t.health);
            QCOMPARE(a.gpu, QStringLiteral("GPU0"));
            QStringList fromText, fromAgent;
            for (const Finding& f : nvlinkFindings(text.fabric))
                fromText << f.code;
            for (const Finding& f : nvlinkFindings(agent.fabric))
                fromAgent << f.code;
            QCOMPARE(fromAgent, fromText);
        }
        // The links: 18 active on GPU 0 and the two the paste kept of GPU 1.
        const NvlinkInput links = agentSnapshot(
            incoming(QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt")),
            incoming(QStringLiteral("nvidia-smi-nvlink-s_gb200-18x53.125GBs-user-truncated.txt")), {}, 2);
        QCOMPARE(int(links.fabric.links.size()), 20);
        for (const NvlinkLinkState& l : links.fabric.links) {
            QCOMPARE(l.state, QStringLiteral("active"));
            QCOMPARE(l.gbPerSecond,
                     std::optional<double>(53.125)); // NVML's per-link speed field, as nvidia-smi's
        }
        // A GPU whose capture states no registration: NVML answers Not Supported, and nothing is invented.
        const NvlinkInput older = agentSnapshot(
            incoming(QStringLiteral("nvidia-smi-q-grep-A3-fabric_4xH100-gcp-a3-no-cliqueid.txt")), {}, {}, 4);
        QVERIFY(older.fabric.gpus.empty());
    }

    // `nvidia-imex-ctl -N` run by the agent (a script replaying the real capture), and a daemon that does not
    // answer; this machine has no IMEX channel device, and the agent says so.
    void agentImex() {
        const QString capture = incoming(QStringLiteral("imex-ctl-N_18node-p6e-gb200-ultraserver-aws.txt"));
        const NvlinkInput up = agentSnapshot(
            incoming(QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt")), {},
            QStringLiteral("#!/bin/sh\n[ \"$1\" = -N ] && exec cat '%1'\nexit 2\n").arg(capture), 1);
        QCOMPARE(int(up.fabric.imex.size()), 1);
        const ImexView& v = up.fabric.imex.front();
        const NvlinkInput pasted = readIncoming("imex-ctl-N_18node-p6e-gb200-ultraserver-aws.txt");
        const ImexView& t = pasted.fabric.imex.front();
        QCOMPARE(v.host, QStringLiteral("tray7"));
        QCOMPARE(int(v.nodes.size()), int(t.nodes.size()));
        QCOMPARE(v.connectivity, t.connectivity);
        QCOMPARE(v.domainState, QStringLiteral("UP"));
        QCOMPARE(v.channelDevice,
                 std::optional<bool>(QFile::exists(QStringLiteral("/dev/nvidia-caps-imex-channels"))));
        const auto findings = nvlinkFindings(up.fabric);
        QVERIFY2(
            findingOf(findings, codes::kImexPeerDown, QStringLiteral("no /dev/nvidia-caps-imex-channels")) ||
                *v.channelDevice,
            qPrintable(codesOf(findings)));

        const NvlinkInput down = agentSnapshot(
            incoming(QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt")), {},
            QStringLiteral("#!/bin/sh\necho 'Connection refused: is nvidia-imex running?'\nexit 1\n"), 1);
        QCOMPARE(int(down.fabric.imex.size()), 1);
        QVERIFY2(down.fabric.imex.front().unavailable.contains(QLatin1String("exited 1: Connection refused")),
                 qPrintable(down.fabric.imex.front().unavailable));
        QVERIFY(findingOf(nvlinkFindings(down.fabric), codes::kImexPeerDown,
                          QStringLiteral("no view of its peers")));

        // Where IMEX is not installed, the agent says so and no IMEX verdict is made.
        const NvlinkInput none = agentSnapshot(
            incoming(QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt")), {}, {}, 1);
        QVERIFY(none.fabric.imex.empty());
    }

    // rackscope-cli nvlink --local --sample: this machine's agent, read twice, with NVML replaying the
    // capture.
    void commandLineLocal() {
        QTemporaryDir dir;
        QFile csv(dir.filePath(QStringLiteral("gpus.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("index, name, uuid, pci.bus_id\n0, NVIDIA GB200, GPU-0, 00000008:06:00.0\n");
        csv.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_LIBRARY_PATH"), QStringLiteral(RACKSCOPE_NVML_STANDIN_DIR));
        env.insert(QStringLiteral("RACKSCOPE_NVML_STANDIN"), csv.fileName());
        env.insert(
            QStringLiteral("RACKSCOPE_NVML_STANDIN_FABRIC"),
            incoming(QStringLiteral("nvidia-smi-q-fabric_insufficient-resources-zero-clusteruuid.txt")));
        env.insert(QStringLiteral("RACKSCOPE_AGENT"), QStringLiteral(RACKSCOPE_AGENT));
        QProcess cli;
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  {QStringLiteral("nvlink"), QStringLiteral("--local"), QStringLiteral("--sample"),
                   QStringLiteral("0.1"), QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 1); // an error finding
        const QJsonObject doc = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QCOMPARE(doc.value("type").toString(), QStringLiteral("rackscope-nvlink"));
        const QJsonArray gpus = doc.value("gpus").toArray();
        QCOMPARE(gpus.size(), 1);
        QCOMPARE(gpus[0].toObject().value("status").toString(), QStringLiteral("Insufficient Resources"));
        QCOMPARE(doc.value("findings").toArray()[0].toObject().value("code").toString(),
                 QString::fromLatin1(codes::kNvlinkFabricNotReady));
    }

    void healthMask() {
        QVERIFY(fabricHealthConditions(0x1aa).isEmpty()); // every condition "false", configuration "none"
        QVERIFY(fabricHealthConditions(0).isEmpty());     // nothing supported
        QCOMPARE(fabricHealthConditions(0x1a9), QStringList{QStringLiteral("bandwidth degraded")});
        QCOMPARE(fabricHealthConditions(0x5aa),
                 QStringList{QStringLiteral("incorrect configuration: insufficient NVLinks")});
        QCOMPARE(fabricStateName(2), QStringLiteral("In Progress"));
        QVERIFY(fabricStateName(9).isEmpty());
    }

    // An NVL72 rack pasted through pdsh: 18 trays of 4 GPUs from the real capture's lines, one GPU fallen
    // out of its domain, one tray in a second clique, and the design's rack that spans both.
    void rackThroughPdsh() {
        QString paste;
        for (int t = 1; t <= 18; ++t) {
            const QString tray = QStringLiteral("tray%1").arg(t, 2, 10, QLatin1Char('0'));
            std::map<int, std::pair<QString, QString>> changed;
            if (t == 5)
                changed[2] = {QStringLiteral("0"), QStringLiteral("00000000-0000-0000-0000-000000000000")};
            if (t == 18)
                for (int g = 0; g < 4; ++g)
                    changed[g] = {QStringLiteral("3"),
                                  QStringLiteral("dc6e40c4-d722-4357-9ba6-5291dd461278")};
            paste += trayOutput(tray, 4, changed);
        }
        const NvlinkInput in = readNvlinkText(paste.toUtf8(), QStringLiteral("pdsh.txt"));
        QCOMPARE(int(in.fabric.gpus.size()), 72);
        const auto domains = nvlinkDomains(in.fabric);
        QCOMPARE(int(domains.size()), 2);
        QCOMPARE(domains[0].hosts.size(), 17);
        QCOMPARE(domains[1].hosts, QStringList{QStringLiteral("tray18")});
        FabricBlock rack;
        rack.name = QStringLiteral("rack1");
        for (int t = 1; t <= 18; ++t)
            rack.hosts << QStringLiteral("tray%1").arg(t, 2, 10, QLatin1Char('0'));
        const auto findings = nvlinkFindings(in.fabric, {rack});
        const Finding* out =
            findingOf(findings, codes::kNvlinkDomainSplit, QStringLiteral("outside every NVLink domain"));
        QVERIFY2(out, qPrintable(codesOf(findings)));
        QCOMPARE(out->target.host, QStringLiteral("tray05"));
        QVERIFY2(out->message.contains(QLatin1String("CliqueId 0, ClusterUUID all zeros")),
                 qPrintable(out->message));
        const Finding* rackSplit = findingOf(findings, codes::kNvlinkDomainSplit, QStringLiteral("rack1"));
        QVERIFY2(rackSplit, qPrintable(codesOf(findings)));
        QVERIFY2(rackSplit->message.contains(QLatin1String("dc6e40c4/3 (tray18)")),
                 qPrintable(rackSplit->message));
        // Registered (Completed, Success) with no domain: alone, a server without multi-node NVLink looks so;
        // among peers in a domain it is the split above, not a registration that failed.
        QVERIFY2(!findingOf(findings, codes::kNvlinkFabricNotReady), qPrintable(codesOf(findings)));
    }

    void errorsRising() {
        NvlinkFabric before, after;
        NvlinkLinkState l;
        l.host = QStringLiteral("tray01");
        l.gpu = QStringLiteral("GPU0");
        l.link = 4;
        l.errors = {{QStringLiteral("replay"), 10}, {QStringLiteral("crc-flit"), 0}};
        before.links.push_back(l);
        l.errors = {{QStringLiteral("replay"), 10}, {QStringLiteral("crc-flit"), 7}};
        after.links.push_back(l);
        const auto findings = nvlinkErrorFindings(before, after);
        QCOMPARE(int(findings.size()), 1);
        QVERIFY2(findings.front().message.contains(QLatin1String("crc-flit +7")),
                 qPrintable(findings.front().message));
        QVERIFY(nvlinkErrorFindings(after, after).empty());
    }

    void badInput() {
        QVERIFY(readNvlinkText({}, QStringLiteral("x")).error.contains(QLatin1String("empty")));
        QVERIFY(readNvlinkText(QByteArray("\x7f"
                                          "ELF\0\0\0",
                                          7),
                               QStringLiteral("x"))
                    .error.contains(QLatin1String("binary")));
        const NvlinkInput wrong = readNvlinkText(
            fixtureBytes(fixtures(QStringLiteral("topo-m-*.txt")).front()), QStringLiteral("topo"));
        QVERIFY2(wrong.error.contains(QLatin1String("no NVLink fabric state")), qPrintable(wrong.error));
        QVERIFY(loadNvlinkFile(QStringLiteral("/nonexistent/file")).error.size() > 0);
    }

    // Every capture, mutated: a fabric or a one-line error, and the verdicts on what was read.
    void mutated() {
        const QStringList names = {
            QStringLiteral("nvidia-smi-q-fabric_insufficient-resources-zero-clusteruuid.txt"),
            QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt"),
            QStringLiteral("nvidia-smi-q-grep-A3-fabric_4xH100-gcp-a3-no-cliqueid.txt"),
            QStringLiteral("nvidia-smi-nvlink-s_gb200-18x53.125GBs-user-truncated.txt"),
            QStringLiteral("nvidia-smi-nvlink-status_4xH100-gcp-a3-tab-indent-file-truncated.txt"),
            QStringLiteral("imex-ctl-N_18node-p6e-gb200-ultraserver-aws.txt"),
            QStringLiteral("imex-ctl-N_2node-gh200-dra-computedomain-imex570.00.txt"),
            QStringLiteral("nccl-debug-info_gb300-nvl72-2tray-mnnvl-init_lines1-189.log")};
        for (const QString& name : names) {
            const QByteArray original = incomingBytes(name);
            QVERIFY2(!original.isEmpty(), qPrintable(name));
            QRandomGenerator rng(quint32(qHash(name)));
            for (int i = 0; i < 80; ++i) {
                QByteArray in = original;
                for (int e = 0; e < 1 + int(rng.bounded(4)); ++e) {
                    const qsizetype at = qsizetype(rng.bounded(quint32(in.size() + 1)));
                    switch (rng.bounded(4)) {
                    case 0:
                        if (at < in.size())
                            in[at] = char(rng.bounded(256));
                        break;
                    case 1:
                        in.remove(at, qsizetype(rng.bounded(200)));
                        break;
                    case 2:
                        in.truncate(at);
                        break;
                    case 3:
                        in.insert(at,
                                  rng.bounded(2) ? QByteArray("99999999999999999999") : QByteArray(": -1\n"));
                        break;
                    }
                }
                const NvlinkInput r = readNvlinkText(in, name, QStringLiteral("h"));
                QVERIFY(!r.fabric.empty() || !r.error.isEmpty());
                QVERIFY(!r.error.contains(QLatin1Char('\n')));
                for (const Finding& f : nvlinkFindings(r.fabric))
                    QVERIFY(!f.message.isEmpty());
            }
        }
        // Oversized: fifty thousand link lines are read, bounded by the file limit, not by a crash.
        QByteArray big = "GPU 0: NVIDIA GB200 (UUID: GPU-d1b93026-6d5b-03bd-3a71-f85b47a61bde)\n";
        for (int i = 0; i < 50000; ++i)
            big += "\t Link 1: 53.125 GB/s\n";
        QCOMPARE(int(readNvlinkText(big, QStringLiteral("big")).fabric.links.size()), 50000);
    }
};

QTEST_GUILESS_MAIN(TestNvlinkFabric)
#include "test_nvlink_fabric.moc"
