#include "diagram_style.h"

#include <QCoreApplication>
#include <algorithm>
#include <array>

namespace rackscope {

ItemStyle itemStyle(ItemKind kind) {
    switch (kind) {
    case ItemKind::Core:
    case ItemKind::Spine:
        return {QColor(0x26, 0x32, 0x38), QColor(0x10, 0x18, 0x1c), Qt::white};
    case ItemKind::Leaf:
    case ItemKind::Switch:
        return {QColor(0x45, 0x5a, 0x64), QColor(0x26, 0x32, 0x38), Qt::white};
    case ItemKind::Host:
        return {QColor(0xf5, 0xf7, 0xfa), QColor(0x78, 0x84, 0x90), QColor(0x1c, 0x24, 0x2c)};
    case ItemKind::Package:
        return {QColor(0xe6, 0xec, 0xf2), QColor(0x9a, 0xa8, 0xb6), QColor(0x33, 0x3d, 0x47)};
    case ItemKind::Numa:
        return {QColor(0xec, 0xf1, 0xe6), QColor(0xa3, 0xb3, 0x92), QColor(0x33, 0x3d, 0x47)};
    case ItemKind::HostBridge:
        return {QColor(0xf7, 0xf3, 0xee), QColor(0xb5, 0xa4, 0x8e), QColor(0x4a, 0x3f, 0x30)};
    case ItemKind::PciSwitch:
        return {QColor(0xff, 0xf6, 0xe3), QColor(0xd1, 0x9a, 0x2e), QColor(0x5c, 0x40, 0x0a)};
    case ItemKind::Gpu:
        return {QColor(0xd7, 0xef, 0xb0), QColor(0x4f, 0x86, 0x00), QColor(0x1f, 0x33, 0x00)};
    case ItemKind::Nic:
        return {QColor(0xd3, 0xe4, 0xfb), QColor(0x2a, 0x63, 0xc0), QColor(0x0c, 0x25, 0x4d)};
    case ItemKind::NvSwitch:
        return {QColor(0xe7, 0xdf, 0xfa), QColor(0x6a, 0x4c, 0xc0), QColor(0x2b, 0x1a, 0x5c)};
    case ItemKind::Other:
        return {QColor(0xee, 0xee, 0xee), QColor(0x9e, 0x9e, 0x9e), QColor(0x42, 0x42, 0x42)};
    }
    return {Qt::white, Qt::black, Qt::black};
}

QColor railColour(int rail) {
    static const std::array<QColor, 8> palette{QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                               QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                               QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
                                               QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22)};
    if (rail < 0)
        return QColor(0x9a, 0xa5, 0xb1);
    QColor c = palette[static_cast<std::size_t>(rail) % palette.size()];
    return rail < int(palette.size()) ? c : c.darker(140); // rails beyond eight: the palette again, darker
}

QColor highlightColour(HighlightKind kind) {
    switch (kind) {
    case HighlightKind::CrossSocket:
        return QColor(0xd3, 0x2f, 0x2f);
    case HighlightKind::NoGpuDirect:
        return QColor(0xf5, 0x7c, 0x00);
    case HighlightKind::PcieDegraded:
        return QColor(0xc2, 0x18, 0x5b);
    case HighlightKind::LinkBelowSpeed:
        return QColor(0xe0, 0xa8, 0x00);
    case HighlightKind::PortDown:
        return QColor(0x42, 0x42, 0x42);
    case HighlightKind::RailBreak:
        return QColor(0x7b, 0x1f, 0xa2);
    case HighlightKind::SlowHost:
        return QColor(0xb7, 0x1c, 0x1c);
    case HighlightKind::RunTransport:
        return QColor(0x00, 0x83, 0x8f);
    case HighlightKind::NicThroughPeer:
        return QColor(0x1e, 0x88, 0xe5);
    case HighlightKind::NvlinkFabric:
        return QColor(0x6d, 0x4c, 0x41);
    case HighlightKind::CheckFailed:
        return QColor(0xe5, 0x39, 0x35);
    case HighlightKind::CheckWarned:
        return QColor(0xf9, 0xa8, 0x25);
    case HighlightKind::JobRank:
        return QColor(0xd8, 0x1b, 0x60);
    }
    return Qt::red;
}

QString highlightTitle(HighlightKind kind) {
    switch (kind) {
    case HighlightKind::CrossSocket:
        return QCoreApplication::translate("rackscope", "GPU–NIC path crosses the CPU socket");
    case HighlightKind::NoGpuDirect:
        return QCoreApplication::translate("rackscope", "GPU–NIC pair cannot use GPUDirect RDMA");
    case HighlightKind::PcieDegraded:
        return QCoreApplication::translate("rackscope", "PCIe link degraded");
    case HighlightKind::LinkBelowSpeed:
        return QCoreApplication::translate("rackscope", "link below expected speed");
    case HighlightKind::PortDown:
        return QCoreApplication::translate("rackscope", "port or link down");
    case HighlightKind::RailBreak:
        return QCoreApplication::translate("rackscope", "rail break");
    case HighlightKind::SlowHost:
        return QCoreApplication::translate("rackscope", "slow host (straggler hunt)");
    case HighlightKind::RunTransport:
        return QCoreApplication::translate("rackscope", "load run without GPUDirect RDMA or RDMA");
    case HighlightKind::NicThroughPeer:
        return QCoreApplication::translate("rackscope",
                                           "GPU reaches its NIC only through an NVLink peer (PXN)");
    case HighlightKind::NvlinkFabric:
        return QCoreApplication::translate("rackscope",
                                           "GPU outside its NVLink domain, not registered or unhealthy");
    case HighlightKind::CheckFailed:
        return QCoreApplication::translate("rackscope", "server failed the rack check");
    case HighlightKind::CheckWarned:
        return QCoreApplication::translate("rackscope", "server warned by the rack check");
    case HighlightKind::JobRank:
        return QCoreApplication::translate("rackscope", "job rank missing, dead or behind (NCCL RAS)");
    }
    return {};
}

QString highlightBadge(HighlightKind kind) {
    switch (kind) {
    case HighlightKind::CrossSocket:
        return QCoreApplication::translate("rackscope", "cross-socket");
    case HighlightKind::NoGpuDirect:
        return QCoreApplication::translate("rackscope", "no GDR");
    case HighlightKind::PcieDegraded:
        return QCoreApplication::translate("rackscope", "PCIe");
    case HighlightKind::LinkBelowSpeed:
        return QCoreApplication::translate("rackscope", "slow link");
    case HighlightKind::PortDown:
        return QCoreApplication::translate("rackscope", "port down");
    case HighlightKind::RailBreak:
        return QCoreApplication::translate("rackscope", "rail break");
    case HighlightKind::SlowHost:
        return QCoreApplication::translate("rackscope", "slow");
    case HighlightKind::RunTransport:
        return QCoreApplication::translate("rackscope", "NCCL");
    case HighlightKind::NicThroughPeer:
        return QCoreApplication::translate("rackscope", "PXN");
    case HighlightKind::NvlinkFabric:
        return QCoreApplication::translate("rackscope", "NVLink");
    case HighlightKind::CheckFailed:
        return QCoreApplication::translate("rackscope", "check: fail");
    case HighlightKind::CheckWarned:
        return QCoreApplication::translate("rackscope", "check: warn");
    case HighlightKind::JobRank:
        return QCoreApplication::translate("rackscope", "job rank");
    }
    return {};
}

int highlightRank(HighlightKind kind) {
    static constexpr std::array<HighlightKind, kHighlightKinds> kWorstFirst{
        HighlightKind::JobRank,      HighlightKind::CheckFailed,  HighlightKind::CrossSocket,
        HighlightKind::NvlinkFabric, HighlightKind::SlowHost,     HighlightKind::NoGpuDirect,
        HighlightKind::PortDown,     HighlightKind::RailBreak,    HighlightKind::LinkBelowSpeed,
        HighlightKind::PcieDegraded, HighlightKind::RunTransport, HighlightKind::NicThroughPeer,
        HighlightKind::CheckWarned};
    return int(std::find(kWorstFirst.begin(), kWorstFirst.end(), kind) - kWorstFirst.begin());
}

QString itemKindTitle(ItemKind kind) {
    switch (kind) {
    case ItemKind::Core:
        return QCoreApplication::translate("rackscope", "core switch");
    case ItemKind::Spine:
        return QCoreApplication::translate("rackscope", "spine switch");
    case ItemKind::Leaf:
        return QCoreApplication::translate("rackscope", "leaf switch");
    case ItemKind::Switch:
        return QCoreApplication::translate("rackscope", "switch");
    case ItemKind::Host:
        return QCoreApplication::translate("rackscope", "server");
    case ItemKind::Package:
        return QCoreApplication::translate("rackscope", "CPU package");
    case ItemKind::Numa:
        return QCoreApplication::translate("rackscope", "NUMA node");
    case ItemKind::HostBridge:
        return QCoreApplication::translate("rackscope", "PCIe host bridge");
    case ItemKind::PciSwitch:
        return QCoreApplication::translate("rackscope", "PCIe switch");
    case ItemKind::Gpu:
        return QCoreApplication::translate("rackscope", "GPU");
    case ItemKind::Nic:
        return QCoreApplication::translate("rackscope", "NIC");
    case ItemKind::NvSwitch:
        return QCoreApplication::translate("rackscope", "NVSwitch");
    case ItemKind::Other:
        return QCoreApplication::translate("rackscope", "other PCI device");
    }
    return {};
}

} // namespace rackscope
