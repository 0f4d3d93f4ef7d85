#include "device_paths.h"

#include <QCoreApplication>

#include <algorithm>

namespace rackscope {
namespace {

std::vector<int> ancestry(const HostTopology& host, int node) {
    std::vector<int> chain;
    for (int n = node; n >= 0 && chain.size() <= host.nodes.size(); n = host.nodes[n].parent)
        chain.push_back(n);
    return chain; // node first, root last
}

int gpuIndex(const HostTopology& host, const Device& d) {
    for (int i = 0; i < int(host.gpus.size()); ++i)
        if (&host.gpus[i] == &d)
            return i;
    return -1;
}

} // namespace

std::optional<PathType> treePath(const HostTopology& host, const Device& a, const Device& b) {
    const int nodeA = a.node, nodeB = b.node;
    if (nodeA < 0 || nodeB < 0)
        return std::nullopt;
    if (nodeA == nodeB)
        return PathType::X;
    const std::vector<int> upA = ancestry(host, nodeA);
    const std::vector<int> upB = ancestry(host, nodeB);
    int lcaA = -1, lcaB = -1; // positions of the lowest common ancestor in each chain
    for (int i = 0; i < int(upA.size()) && lcaA < 0; ++i) {
        const auto it = std::find(upB.begin(), upB.end(), upA[i]);
        if (it != upB.end()) {
            lcaA = i;
            lcaB = int(it - upB.begin());
        }
    }
    if (lcaA < 0)
        return std::nullopt; // two trees: nothing joins them
    const TopoNode& lca = host.nodes[upA[lcaA]];
    switch (lca.kind) {
    case NodeKind::PciDevice: // functions of one device sharing its link
    case NodeKind::RootPort:  // only one link below a root port: functions of one device
        return PathType::PIX;
    case NodeKind::PciSwitch: {
        // Switches strictly between the device and the common switch.
        auto switchesBelow = [&](const std::vector<int>& up, int until) {
            if (until <= 1)
                return 0;
            return int(std::count_if(up.begin() + 1, up.begin() + until,
                                     [&](int n) { return host.nodes[n].kind == NodeKind::PciSwitch; }));
        };
        const int switches = 1 + switchesBelow(upA, lcaA) + switchesBelow(upB, lcaB);
        return switches == 1 ? PathType::PIX : PathType::PXB;
    }
    case NodeKind::HostBridge:
    case NodeKind::Cpu: // NCCL's <cpu>: NCCL calls anything through it PHB
        return PathType::PHB;
    case NodeKind::Machine:
    case NodeKind::Package:
    case NodeKind::Group:
        // Different host bridges: one NUMA node (NODE) or across them (SYS).
        // NCCL's <cpu> nodes are NUMA nodes, so two of them are always SYS.
        if (a.numa && b.numa && *a.numa == *b.numa && a.numa >= 0)
            return PathType::NODE;
        return PathType::SYS;
    }
    return std::nullopt;
}

DevicePath pathBetween(const HostTopology& host, const Device& a, const Device& b) {
    if (&a == &b || a.id == b.id)
        return {PathType::X, std::nullopt, QStringLiteral("self")};
    for (const auto& key : {std::pair(a.id, b.id), std::pair(b.id, a.id)}) {
        if (auto it = host.statedPaths.find(key); it != host.statedPaths.end())
            return {it->second.first, it->second.second,
                    QCoreApplication::translate("rackscope", "stated by nvidia-smi topo -m")};
    }
    if (a.kind == DeviceKind::Gpu && b.kind == DeviceKind::Gpu) {
        const int ia = gpuIndex(host, a), ib = gpuIndex(host, b);
        if (ia >= 0 && ib >= 0) {
            const auto it = host.nvlinks.find(std::minmax(ia, ib));
            if (it != host.nvlinks.end() && it->second > 0)
                return {PathType::NV, it->second, QStringLiteral("NVLink")};
        }
    }
    if (const auto t = treePath(host, a, b))
        return {t, std::nullopt, QStringLiteral("PCIe tree")};
    return {};
}

} // namespace rackscope
