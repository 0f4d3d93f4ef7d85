#pragma once
// How two devices inside one server are connected, in the vocabulary of
// `nvidia-smi topo -m` and NCCL (src/graph/topo.h), nearest first.
#include <QString>
#include <optional>

namespace rackscope {

enum class PathType {
    X,   // the device itself
    NV,  // a bonded set of NVLinks (directly or through NVSwitch); the count travels beside it
    PIX, // at most one PCIe switch between them (NCCL: PATH_PIX)
    PXB, // several PCIe switches, without the host bridge (NCCL: PATH_PXB)
    // NCCL's own GPU->NIC paths (NCCL 2.27+), never a PCIe reading's:
    P2C,  // a NIC on the GPU's own CPU, the GPU reaching that CPU over NVLink-C2C (PATH_P2C)
    PXN,  // a NIC reached through an NVLink peer that is nearer to it (PATH_PXN)
    PHB,  // through a PCIe host bridge, i.e. the CPU's root complex (NCCL: PATH_PHB)
    NODE, // between host bridges within one NUMA node (nvidia-smi only; NCCL counts it as PHB)
    SYS,  // across the SMP interconnect between NUMA nodes, QPI/UPI/xGMI (NCCL: PATH_SYS);
          // old drivers printed "SOC"
};

// "NV12" needs the link count; every other type is its own name.
QString pathTypeName(PathType type, std::optional<int> nvlinks = std::nullopt);
// Parses "X", "NV12", "PIX", "PXB", "P2C", "PXN", "PHB", "NODE", "SYS" and the legacy "SOC".
std::optional<PathType> parsePathType(const QString& text, int* nvlinks = nullptr);

// NCCL's ordering (PATH_LOC < NVL < PIX < PXB < P2C < PXN < PHB < SYS): NODE and PHB are one class there.
int ncclRank(PathType type);

// The farthest path NCCL's default NCCL_NET_GDR_LEVEL allows for GPUDirect RDMA.
constexpr PathType kDefaultGdrLevel = PathType::PXB;

} // namespace rackscope
