#include "nvlink_fabric.h"

#include "hostlist.h"

#include <QRegularExpression>
#include <algorithm>
#include <set>

namespace rackscope {

bool isZeroUuid(const QString& uuid) {
    static const QRegularExpression zeros(QStringLiteral("^[0-]+$"));
    return zeros.match(uuid).hasMatch();
}

bool GpuFabricState::inDomain() const {
    return !clusterUuid.isEmpty() && !isZeroUuid(clusterUuid) && cliqueId && *cliqueId != 0;
}

QString GpuFabricState::device() const {
    return !gpu.isEmpty() ? gpu : !busId.isEmpty() ? busId : uuid;
}

QString GpuFabricState::label() const {
    const QString device = this->device();
    if (host.isEmpty())
        return device.isEmpty() ? QStringLiteral("the GPU of %1").arg(source) : device;
    return device.isEmpty() ? QStringLiteral("a GPU of %1").arg(host) : host + QLatin1Char(' ') + device;
}

void NvlinkFabric::append(NvlinkFabric other) {
    gpus.insert(gpus.end(), other.gpus.begin(), other.gpus.end());
    links.insert(links.end(), other.links.begin(), other.links.end());
    imex.insert(imex.end(), other.imex.begin(), other.imex.end());
    sources << other.sources;
}

QString NvlinkDomain::name() const {
    return clusterUuid.section(QLatin1Char('-'), 0, 0) + QLatin1Char('/') + QString::number(cliqueId);
}

std::vector<NvlinkDomain> nvlinkDomains(const NvlinkFabric& fabric) {
    std::map<std::pair<QString, quint64>, NvlinkDomain> byKey;
    for (std::size_t i = 0; i < fabric.gpus.size(); ++i) {
        const GpuFabricState& g = fabric.gpus[i];
        if (!g.inDomain())
            continue;
        NvlinkDomain& d = byKey[{g.clusterUuid, *g.cliqueId}];
        d.clusterUuid = g.clusterUuid;
        d.cliqueId = *g.cliqueId;
        d.gpus.push_back(i);
        if (!g.host.isEmpty() && !d.hosts.contains(g.host))
            d.hosts << g.host;
    }
    std::vector<NvlinkDomain> out;
    for (auto& [key, d] : byKey) {
        sortHostsNaturally(d.hosts);
        std::stable_sort(d.gpus.begin(), d.gpus.end(), [&](std::size_t a, std::size_t b) {
            const GpuFabricState &x = fabric.gpus[a], &y = fabric.gpus[b];
            if (x.host != y.host)
                return d.hosts.indexOf(x.host) < d.hosts.indexOf(y.host);
            return std::tie(x.gpu, x.busId) < std::tie(y.gpu, y.busId);
        });
        out.push_back(std::move(d));
    }
    return out;
}

std::map<QString, QString> hostDomains(const NvlinkFabric& fabric) {
    std::map<QString, std::set<QString>> seen;
    for (const NvlinkDomain& d : nvlinkDomains(fabric))
        for (const QString& h : d.hosts)
            seen[h].insert(d.name());
    std::map<QString, QString> out;
    for (const auto& [host, names] : seen)
        if (names.size() == 1)
            out[host] = *names.begin();
    return out;
}

std::vector<FabricBlock> nvlinkDomainBlocks(const NvlinkFabric& fabric) {
    const std::map<QString, QString> whole = hostDomains(fabric);
    std::vector<FabricBlock> out;
    for (const NvlinkDomain& d : nvlinkDomains(fabric)) {
        FabricBlock b;
        for (const QString& h : d.hosts)
            if (const auto it = whole.find(h); it != whole.end() && it->second == d.name())
                b.hosts << h;
        if (b.hosts.isEmpty())
            continue;
        b.description = QStringLiteral("NVLink domain %1 (ClusterUUID %2, CliqueId %3)")
                            .arg(d.name(), d.clusterUuid)
                            .arg(d.cliqueId);
        out.push_back(std::move(b));
    }
    std::sort(out.begin(), out.end(), [](const FabricBlock& a, const FabricBlock& b) {
        QStringList two{a.hosts.front(), b.hosts.front()};
        sortHostsNaturally(two);
        return two.front() == a.hosts.front() && a.hosts.front() != b.hosts.front();
    });
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].name = QStringLiteral("nvl%1").arg(i + 1);
    return out;
}

QString fabricStateName(int state) {
    switch (state) { // nvmlGpuFabricState_t
    case 0:
        return QStringLiteral("Not Supported");
    case 1:
        return QStringLiteral("Not Started");
    case 2:
        return QStringLiteral("In Progress");
    case 3:
        return QStringLiteral("Completed");
    default:
        return {};
    }
}

QStringList fabricHealthConditions(quint32 mask) {
    // nvml.h NVML_GPU_FABRIC_HEALTH_MASK_*: two-bit fields where 1 is "true" (the condition holds), 2 "false"
    // and 0 "not supported"; then a four-bit configuration field where 1 is "none".
    struct Field {
        int shift;
        const char* condition;
    };
    static constexpr Field kFlags[] = {{0, "bandwidth degraded"},
                                       {2, "route recovery in progress"},
                                       {4, "route unhealthy"},
                                       {6, "access timeout recovery in progress"}};
    QStringList out;
    for (const Field& f : kFlags)
        if (((mask >> f.shift) & 0x3u) == 1u)
            out << QLatin1String(f.condition);
    switch ((mask >> 8) & 0xFu) {
    case 2:
        out << QStringLiteral("incorrect configuration: system GUID");
        break;
    case 3:
        out << QStringLiteral("incorrect configuration: chassis serial number");
        break;
    case 4:
        out << QStringLiteral("incorrect configuration: no partition");
        break;
    case 5:
        out << QStringLiteral("incorrect configuration: insufficient NVLinks");
        break;
    default: // 0 not supported, 1 none; values NVML does not define yet say nothing
        break;
    }
    return out;
}

} // namespace rackscope
