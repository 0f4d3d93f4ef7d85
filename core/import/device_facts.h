#pragma once
// Rules shared by the importers for what a PCI id or a device name tells.
#include "model/host_topology.h"

#include <map>
#include <optional>

namespace rackscope {

constexpr unsigned kVendorNvidia = 0x10de;
constexpr unsigned kVendorMellanox = 0x15b3;
constexpr unsigned kVendorAmazon = 0x1d0f;
constexpr unsigned kVendorBroadcom = 0x14e4;
constexpr unsigned kVendorIntel = 0x8086;

// NCCL's classification by PCI class (src/graph/xml.cc): 0x03xxxx GPU,
// 0x02xxxx network, 0x068000 NVSwitch.
DeviceKind deviceKindFromClass(unsigned pciClass24, std::optional<unsigned> vendor);

struct RdmaFact {
    std::optional<bool> rdma;
    QString evidence;
};
// RDMA capability known from the PCI ids alone: InfiniBand controllers,
// ConnectX (vendor 0x15b3), AWS EFA, Broadcom NetXtreme-E and Intel E810.
// Unknown otherwise. Capable is not usable: its RDMA driver may be missing.
RdmaFact rdmaFromPciIds(std::optional<unsigned> vendor, std::optional<unsigned> device,
                        std::optional<unsigned> pciClass24);
// RDMA device names as the kernel's verbs drivers name them (mlx5_0, rocep1s0f0, efa_0...).
bool looksLikeRdmaDeviceName(const QString& name);

// GPU pairs joined through NVSwitches. Switches joined to each other
// (`switchLinks`, as DGX-2's two baseboards are) form one fabric; two GPUs
// on the same fabric have the smaller of their link counts into it (18
// links over 4 switches read NV18, as nvidia-smi prints it). GPUs whose switches are not known to meet
// go into host.nvlinkUnstated. linksPerGpu: GPU index -> switch -> links.
void addNvlinksThroughSwitches(HostTopology& host,
                               const std::map<int, std::map<PciAddress, int>>& linksPerGpu,
                               const std::vector<std::pair<PciAddress, PciAddress>>& switchLinks = {});

// Sorts by PCI address (unknown last, order kept) and names GPU0.., NIC0..
void numberDevices(HostTopology& host);

} // namespace rackscope
