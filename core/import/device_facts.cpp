#include "device_facts.h"

#include <QRegularExpression>
#include <algorithm>
#include <set>

namespace rackscope {

DeviceKind deviceKindFromClass(unsigned pciClass24, std::optional<unsigned> vendor) {
    const unsigned base = pciClass24 >> 16;
    if (base == 0x03)
        return (!vendor || *vendor == kVendorNvidia || *vendor == 0) ? DeviceKind::Gpu : DeviceKind::Other;
    if (base == 0x02)
        return DeviceKind::Nic;
    if ((pciClass24 >> 8) == 0x0c06)
        return DeviceKind::Nic; // InfiniBand, as a serial bus (old ConnectX)
    if ((pciClass24 >> 8) == 0x0680 && (!vendor || *vendor == kVendorNvidia))
        return DeviceKind::NvSwitch;
    return DeviceKind::Other;
}

RdmaFact rdmaFromPciIds(std::optional<unsigned> vendor, std::optional<unsigned> device,
                        std::optional<unsigned> pciClass24) {
    if (pciClass24 && ((*pciClass24 >> 8) == 0x0207 || (*pciClass24 >> 8) == 0x0c06))
        return {true, QStringLiteral("PCI class 0x0207 (InfiniBand controller)")};
    if (vendor && *vendor == kVendorMellanox)
        return {true, QStringLiteral("Mellanox/NVIDIA ConnectX (PCI vendor 0x15b3) is RDMA-capable")};
    if (vendor && device && *vendor == kVendorAmazon && (*device & 0xfff0) == 0xefa0)
        return {true, QStringLiteral("AWS EFA (PCI 1d0f:efa*) provides RDMA through its verbs provider")};
    // RoCE on Ethernet controllers whose drivers are not always loaded: Broadcom NetXtreme-E (bnxt_re) and
    // Intel E810 (irdma), by the device ids of their Linux drivers.
    static const std::set<unsigned> broadcom{0x16d7, 0x16d8, 0x1750, 0x1751, 0x1752, 0x1760};
    static const std::set<unsigned> intel{0x1591, 0x1592, 0x1593, 0x1599, 0x159a, 0x159b};
    if (vendor && device && *vendor == kVendorBroadcom && broadcom.count(*device))
        return {true, QStringLiteral("Broadcom NetXtreme-E (PCI 14e4:%1) is RDMA-capable (bnxt_re)")
                          .arg(*device, 4, 16, QLatin1Char('0'))};
    if (vendor && device && *vendor == kVendorIntel && intel.count(*device))
        return {true, QStringLiteral("Intel E810 (PCI 8086:%1) is RDMA-capable (irdma)")
                          .arg(*device, 4, 16, QLatin1Char('0'))};
    return {std::nullopt, QStringLiteral("the source does not say whether this NIC has an RDMA device")};
}

bool looksLikeRdmaDeviceName(const QString& name) {
    static const QRegularExpression re(QStringLiteral("^(mlx4_|mlx5_|rocep|roceP|ibp|bnxt_re|irdma|efa_|"
                                                      "efa\\d|hfi1_|qedr|cxgb4_|erdma|hns_|ionic_|mana_)"));
    return re.match(name).hasMatch();
}

void addNvlinksThroughSwitches(HostTopology& host,
                               const std::map<int, std::map<PciAddress, int>>& linksPerGpu,
                               const std::vector<std::pair<PciAddress, PciAddress>>& switchLinks) {
    // Each switch's fabric: the smallest address joined to it, found by walking the switch links.
    std::map<PciAddress, PciAddress> fabricOf;
    for (const auto& [gpu, switches] : linksPerGpu)
        for (const auto& [sw, count] : switches)
            fabricOf.emplace(sw, sw);
    for (const auto& [a, b] : switchLinks)
        fabricOf.emplace(a, a), fabricOf.emplace(b, b);
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& [a, b] : switchLinks) {
            PciAddress& fa = fabricOf[a];
            PciAddress& fb = fabricOf[b];
            if (fa != fb) {
                fa = fb = std::min(fa, fb);
                changed = true;
            }
        }
    }
    std::map<int, std::map<PciAddress, int>> perFabric; // gpu -> fabric -> links
    for (const auto& [gpu, switches] : linksPerGpu)
        for (const auto& [sw, count] : switches)
            perFabric[gpu][fabricOf.at(sw)] += count;
    for (auto a = perFabric.begin(); a != perFabric.end(); ++a)
        for (auto b = std::next(a); b != perFabric.end(); ++b) {
            int total = 0;
            for (const auto& [fabric, count] : a->second)
                if (auto it = b->second.find(fabric); it != b->second.end())
                    total += std::min(count, it->second);
            if (total > 0)
                host.nvlinks[std::minmax(a->first, b->first)] += total;
            else if (!host.nvlinks.count(std::minmax(a->first, b->first)))
                host.nvlinkUnstated.insert(std::minmax(a->first, b->first)); // on switches not known to meet
        }
}

namespace {
void sortAndNumber(std::vector<Device>& list, const QString& prefix) {
    std::stable_sort(list.begin(), list.end(), [](const Device& a, const Device& b) {
        if (a.pci.has_value() != b.pci.has_value())
            return a.pci.has_value();
        if (a.pci && b.pci && *a.pci != *b.pci)
            return *a.pci < *b.pci;
        return false;
    });
    for (size_t i = 0; i < list.size(); ++i)
        list[i].id = prefix + QString::number(i);
}
} // namespace

void numberDevices(HostTopology& host) {
    sortAndNumber(host.gpus, QStringLiteral("GPU"));
    sortAndNumber(host.nics, QStringLiteral("NIC"));
    sortAndNumber(host.others, QStringLiteral("DEV"));
    for (size_t i = 0; i < host.gpus.size(); ++i)
        if (!host.gpus[i].cudaDevice)
            host.gpus[i].cudaDevice = int(i);
}

} // namespace rackscope
