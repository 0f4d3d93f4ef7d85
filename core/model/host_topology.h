#pragma once
// One server's topology as its source described it: facts only, no verdicts
// (those live in analysis/). Anything the source did not say stays empty.
#include "path_type.h"
#include "pci_address.h"

#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace rackscope {

enum class SourceFormat { HwlocXml, NcclTopoXml, NvidiaSmiTopo, AgentSnapshot };
QString sourceFormatId(SourceFormat format); // "hwloc-xml", "nccl-topo-xml", ...

struct Source {
    SourceFormat format = SourceFormat::HwlocXml;
    QString location; // file path, or a description such as "live hwloc on this machine"
};

// A node of the host tree (packages, NUMA nodes, bridges, devices). Inputs
// without a tree (nvidia-smi topo -m) leave it empty.
// PCIe is modelled as NCCL models it: one PciSwitch node per switch (its
// upstream and downstream ports folded together), root ports and host
// bridges apart, so "how many switches lie between" is a walk up the tree.
enum class NodeKind { Machine, Package, Group, Cpu, HostBridge, RootPort, PciSwitch, PciDevice };

struct TopoNode {
    NodeKind kind = NodeKind::Machine;
    int parent = -1;                 // index into HostTopology::nodes
    std::optional<unsigned> osIndex; // package / NUMA os index
    std::optional<PciAddress> pci;   // root port, switch upstream port, or device
    std::optional<int> numa;         // NUMA node of a Cpu node (NCCL's numaid)
};

enum class DeviceKind { Gpu, Nic, NvSwitch, Other };

// A PCIe link as reported: speed per lane in GT/s, lane count, or total GB/s.
struct PcieLink {
    std::optional<double> gts;
    std::optional<int> width;
    std::optional<double> gbps;
    bool known() const { return gts || width || gbps; }
};

struct Device {
    DeviceKind kind = DeviceKind::Other;
    QString id; // "GPU0", "NIC3": nvidia-smi's numbering (PCI order)
    std::optional<PciAddress> pci;
    std::optional<unsigned> vendorId, deviceId, pciClass;
    QString name; // model or RDMA device name, empty when unknown
    std::optional<int> numa;
    std::optional<int> socket;     // package os index
    QString cpuAffinity;           // as the source wrote it, e.g. "0-47,96-143"
    std::optional<int> cudaDevice; // NCCL's gpu dev, else the PCI-order index
    int node = -1;                 // index into HostTopology::nodes, -1 when no tree
    // NICs
    std::optional<bool> rdma; // has an RDMA (verbs) device
    QString rdmaEvidence;     // why rdma is what it is
    QStringList rdmaDevices, netdevs;
    std::optional<double> speedMbps; // NCCL net speed
    std::optional<bool> ncclGdr;     // NCCL XML's gdr attribute (GPU or net)
    PcieLink linkCurrent, linkMax;
    QStringList acsBridges; // bridges above it with ACS redirection enabled (agent)
    // GPUs: NVLink-C2C to their CPU (Grace), as NCCL states it: links, and GB/s in all.
    std::optional<int> c2cLinks;
    std::optional<double> c2cGBps;
};

struct HostTopology {
    QString name; // host name where the source gives one
    Source source;
    QString hostHash; // NCCL's host_hash, where a topology dump gives one
    QString arch;     // "x86_64", "ppc64le", empty when unknown
    std::vector<TopoNode> nodes;
    std::vector<Device> gpus, nics, others;
    // NVLink counts between two GPUs (by index into gpus), lower index first.
    std::map<std::pair<int, int>, int> nvlinks;
    // Paths the source states itself (nvidia-smi topo -m), keyed by device ids.
    std::map<std::pair<QString, QString>, std::pair<PathType, std::optional<int>>> statedPaths;
    QStringList notes; // what the importer noticed but could not model
    // GPUDirect prerequisites the agent reads (unknown from files of other kinds).
    std::optional<bool> peerMemoryLoaded;     // nvidia_peermem / nv_peer_mem, as NCCL checks it
    std::optional<bool> kernelSupportsDmabuf; // kernel >= 5.12, the alternative to a peer-memory module
    // Whether the source states NVLink at all (topo -m's NV#, NCCL's <nvlink>, hwloc's NVLinkBandwidth):
    // without it, two GPUs without NVLink between them is not a fact.
    bool nvlinkStated = false;
    // GPU pairs (indexes, lower first) whose NVLink the source leaves out although it states NVLink: each
    // reaches NVSwitches, but the source does not say whether those switches are joined (DGX-2's two
    // baseboards).
    std::set<std::pair<int, int>> nvlinkUnstated;
    // The drivers as the agent found them (files of other kinds say nothing): how many GPUs NVML sees, or
    // why NVML could not be used; why there is no RDMA device at all. The reasons are the agent's words.
    std::optional<int> nvmlGpuCount;
    QString nvmlMissing, rdmaMissing;

    const Device* findDevice(const QString& id) const;
};

} // namespace rackscope
