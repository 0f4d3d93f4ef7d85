#pragma once
// Servers of a rack for the acceptance tests, each made of real parts: this machine's own agent, with the
// NVML stand-in replaying an 8-GPU inventory as `nvidia-smi --query-gpu` prints it, and reading a copy of a
// captured /sys/class/infiniband (an H100 node's 8 ConnectX-7 and a BlueField-3 bond) with the RoCE
// netdev's sysfs beside it, altered per server to carry one fault.
#include "gpu/nvml_standin.h"
#include "test_support.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace rackscope::test {

inline const QString kCapturedInfiniband =
    QStringLiteral("gpud_sys-class-infiniband_h100-8xCX7-NDR-plus-BF3-bond");
inline const QString kRoceNetdev = QStringLiteral("ens1f0np0");

struct RackHost {
    QString name;
    QString driver = QStringLiteral("570.86.15");
    int narrowGpu = -1; // a GPU whose link trained at x8 of x16
    int gpus = 8;
    QString pfc = QStringLiteral("0,0,0,1,0,0,0,0"); // as the driver's qos/pfc file states it
    int mtu = 9000;
    QString missingNic;    // an RDMA device left out
    QString halfRateNic;   // its port 1 at 200 Gb/sec (4X HDR)
    QString fabricCapture; // an `nvidia-smi -q` capture NVML replays for GPU0's NVLink fabric registration
};

inline RackHost rackHost(const QString& name) {
    RackHost h;
    h.name = name;
    return h;
}

// The GPU inventory the stand-in replays, in nvidia-smi's CSV.
inline bool writeInventoryCsv(const QString& path, const RackHost& h) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write("index, name, uuid, pci.bus_id, driver_version, pcie.link.gen.current, pcie.link.gen.max, "
            "pcie.link.width.current, pcie.link.width.max\n");
    for (int i = 0; i < h.gpus; ++i)
        f.write(QStringLiteral(
                    "%1, NVIDIA H100 80GB HBM3, GPU-%2-0000-0000-0000-00000000000%1, 00000000:%3:00.0, "
                    "%4, 5, 5, %5, 16\n")
                    .arg(i)
                    .arg(h.name)
                    .arg(0x18 + 0x10 * i, 2, 16, QLatin1Char('0'))
                    .arg(h.driver)
                    .arg(i == h.narrowGpu ? 8 : 16)
                    .toUtf8());
    return true;
}

inline bool writeText(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// A /sys root holding the captured class/infiniband and the RoCE netdev, with the host's faults.
inline bool writeSysTree(const QString& root, const RackHost& h) {
    const QString ib = root + QStringLiteral("/class/infiniband");
    QDir().mkpath(root + QStringLiteral("/class"));
    if (QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), fixture(kCapturedInfiniband), ib}) !=
        0)
        return false;
    if (!h.missingNic.isEmpty() && !QDir(ib + QLatin1Char('/') + h.missingNic).removeRecursively())
        return false;
    if (!h.halfRateNic.isEmpty() &&
        !writeText(ib + QStringLiteral("/%1/ports/1/rate").arg(h.halfRateNic), "200 Gb/sec (4X HDR)"))
        return false;
    const QString net = root + QStringLiteral("/class/net/") + kRoceNetdev;
    return writeText(net + QStringLiteral("/mtu"), QByteArray::number(h.mtu) + "\n") &&
           writeText(net + QStringLiteral("/operstate"), "up\n") &&
           writeText(net + QStringLiteral("/type"), "1\n") &&
           writeText(net + QStringLiteral("/qos/trust"), "dscp\n") &&
           writeText(net + QStringLiteral("/qos/pfc"), h.pfc.toUtf8() + "\n") &&
           writeText(net + QStringLiteral("/ecn/roce_np/enable/3"), "1\n") &&
           writeText(net + QStringLiteral("/ecn/roce_rp/enable/3"), "1\n");
}

// For an SSH test host (SshTestHosts::mountSetup): its /sys/class shows the host's captured InfiniBand tree
// (bound, so what the test writes into it the agent reads) and the RoCE netdev beside the host's real
// interfaces, whose links into /sys/devices still lead to the live ones.
inline QString classMountSetup(const QString& root) {
    return QStringLiteral(
               "L=$(for i in /sys/class/net/*; do echo \"${i##*/} $(readlink $i)\"; done) && "
               "mount -t tmpfs rsclass /sys/class && mkdir /sys/class/net /sys/class/infiniband && "
               "echo \"$L\" | while read n t; do ln -s \"$t\" /sys/class/net/$n; done && "
               "cp -r %1/class/net/%2 /sys/class/net/ && mount --bind %1/class/infiniband "
               "/sys/class/infiniband")
        .arg(root, kRoceNetdev);
}

// Sections of the agent's `collect`, asked over its protocol (stdin/stdout), as the console asks.
inline QJsonObject agentSections(const QStringList& sections, const QStringList& args,
                                 const QProcessEnvironment& env) {
    QProcess agent;
    agent.setProcessEnvironment(env);
    agent.start(QStringLiteral(RACKSCOPE_AGENT), QStringList{QStringLiteral("--stdio")} + args);
    QJsonObject request{{"id", 1}, {"method", "collect"}};
    if (!sections.isEmpty()) // none: every section
        request.insert("params", QJsonObject{{"sections", QJsonArray::fromStringList(sections)}});
    agent.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + "\n");
    agent.closeWriteChannel();
    if (!agent.waitForFinished(120000))
        return {};
    for (const QByteArray& line : agent.readAllStandardOutput().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value("id").toInt() == 1)
            return o.value("result").toObject();
    }
    return {};
}

// This machine's whole snapshot, from its own agent (once: hwloc's walk is the slow part).
inline const QJsonObject& thisMachine() {
    static const QJsonObject s = agentSections({}, {}, QProcessEnvironment::systemEnvironment());
    return s;
}

// The host's snapshot: this machine's (topology, versions), its GPUs from the agent with the stand-in, and
// what lives in the host's /sys tree (RDMA, interfaces, RoCE QoS) from the agent reading that tree.
inline QJsonObject rackHostSnapshot(const RackHost& h, const QString& dir) {
    const QString csv = dir + QStringLiteral("/gpus-") + h.name + QStringLiteral(".csv"),
                  root = dir + QStringLiteral("/sys-") + h.name;
    QDir().mkpath(dir);
    if (!writeInventoryCsv(csv, h) || !writeSysTree(root, h))
        return {};
    QJsonObject s = thisMachine();
    QProcessEnvironment nvml = withStandin(csv);
    if (!h.fabricCapture.isEmpty())
        nvml.insert(QStringLiteral("RACKSCOPE_NVML_STANDIN_FABRIC"), h.fabricCapture);
    const QJsonObject gpus = agentSections({QStringLiteral("gpus")}, {}, nvml),
                      tree = agentSections(
                          {QStringLiteral("rdma"), QStringLiteral("net"), QStringLiteral("roce_qos")},
                          {QStringLiteral("--sysfs-root"), root}, QProcessEnvironment::systemEnvironment());
    if (s.isEmpty() || gpus.isEmpty() || tree.isEmpty())
        return {};
    s.insert("gpus", gpus.value("gpus"));
    for (const char* section : {"rdma", "net", "roce_qos"})
        s.insert(QLatin1String(section), tree.value(QLatin1String(section)));
    s.insert("host", h.name);
    return s;
}

} // namespace rackscope::test
