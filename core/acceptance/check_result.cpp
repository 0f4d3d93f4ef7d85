#include "check_result.h"

#include <QCoreApplication>

namespace rackscope {

QString verdictName(Verdict v) {
    switch (v) {
    case Verdict::Pass:
        return QStringLiteral("pass");
    case Verdict::Unknown:
        return QStringLiteral("unknown");
    case Verdict::Warn:
        return QStringLiteral("warn");
    case Verdict::Fail:
        return QStringLiteral("fail");
    }
    return {};
}

std::optional<Verdict> verdictFromName(const QString& name) {
    for (Verdict v : {Verdict::Pass, Verdict::Unknown, Verdict::Warn, Verdict::Fail})
        if (verdictName(v) == name)
            return v;
    return std::nullopt;
}

Verdict worse(Verdict a, Verdict b) {
    return int(a) >= int(b) ? a : b;
}

const std::vector<CheckInfo>& checkCatalogue() {
    static const std::vector<CheckInfo> all = {
        {"reachable", QT_TRANSLATE_NOOP("rackscope", "The server answered"), Severity::Error},
        {"gpu-inventory", QT_TRANSLATE_NOOP("rackscope", "GPUs: count and model"), Severity::Error},
        {"nic-inventory", QT_TRANSLATE_NOOP("rackscope", "RDMA NICs: count and model"), Severity::Error},
        {"pcie-links", QT_TRANSLATE_NOOP("rackscope", "PCIe links at their capability and their peers'"),
         Severity::Error},
        {"gpu-nic-placement", QT_TRANSLATE_NOOP("rackscope", "GPU and NIC placement (socket, PCIe switch)"),
         Severity::Warning},
        {"gpudirect", QT_TRANSLATE_NOOP("rackscope", "GPUDirect RDMA and its prerequisites"),
         Severity::Error},
        {"acs-iommu", QT_TRANSLATE_NOOP("rackscope", "ACS and IOMMU out of the peer-to-peer path"),
         Severity::Warning},
        {"rdma-ports", QT_TRANSLATE_NOOP("rackscope", "RDMA ports: state, rate, link layer, MTU, GID"),
         Severity::Error},
        {"mtu", QT_TRANSLATE_NOOP("rackscope", "Interface MTU"), Severity::Error},
        {"roce-qos", QT_TRANSLATE_NOOP("rackscope", "RoCE QoS: PFC, ECN, trust"), Severity::Error},
        {"cabling", QT_TRANSLATE_NOOP("rackscope", "Cabling seen by LLDP and the fabric"), Severity::Error},
        {"nvlink", QT_TRANSLATE_NOOP("rackscope", "NVLink links"), Severity::Error},
        {"error-counters", QT_TRANSLATE_NOOP("rackscope", "Error counters while sampled"), Severity::Warning},
        {"versions", QT_TRANSLATE_NOOP("rackscope", "Driver, CUDA, NCCL, kernel, OFED and firmware versions"),
         Severity::Warning},
        {"baseline", QT_TRANSLATE_NOOP("rackscope", "The server as its baseline saw it"), Severity::Warning},
        // Active: run only when asked (--active), listed only then.
        {"nccl-bandwidth", QT_TRANSLATE_NOOP("rackscope", "NCCL bandwidth: each server alone and in pairs"),
         Severity::Error},
        {"rdma-bandwidth", QT_TRANSLATE_NOOP("rackscope", "RDMA bandwidth between servers (ib_write_bw)"),
         Severity::Error},
    };
    return all;
}

const CheckInfo* checkInfo(const QString& id) {
    for (const CheckInfo& c : checkCatalogue())
        if (id == QLatin1String(c.id))
            return &c;
    return nullptr;
}

Verdict failedVerdict(const QString& id) {
    const CheckInfo* c = checkInfo(id);
    return c && c->severity == Severity::Error ? Verdict::Fail : Verdict::Warn;
}

} // namespace rackscope
