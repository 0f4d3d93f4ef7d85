#pragma once
// Verdicts about one host, derived from its facts: path types, GPUDirect
// RDMA, socket crossings, the NIC NCCL would give each GPU, and findings.
#include "finding.h"
#include "model/host_topology.h"

#include <QHash>
#include <QPair>
#include <vector>

namespace rackscope {

struct GpuPair {
    QString a, b;
    std::optional<PathType> path;
    std::optional<int> nvlinks;
};

struct GpuNicPair {
    QString gpu, nic;
    std::optional<PathType> path;     // through PCIe, as nvidia-smi and hwloc give it
    std::optional<PathType> ncclPath; // NCCL's own where it differs: P2C or PXN (nccl_routes.h)
    QString relayGpu;                 // PXN's NVLink peer
    std::optional<PathType> viaNccl() const { return ncclPath ? ncclPath : path; }
    std::optional<bool> gpudirect; // would NCCL (default settings) use GPUDirect RDMA here
    QString gpudirectReason;
    std::optional<bool> crossSocket;
    QString crossSocketEvidence;
};

struct HostAnalysis {
    std::vector<GpuPair> gpuGpu;
    std::vector<GpuNicPair> gpuNic;
    std::vector<std::pair<QString, QString>> ncclNic; // GPU id -> NIC id, in GPU order
    std::vector<Finding> findings;

    const GpuNicPair* pair(const QString& gpu, const QString& nic) const;
    // (GPU id, NIC id) -> position in gpuNic, so pair() stays O(1) on a 1000-device host.
    QHash<QPair<QString, QString>, qsizetype> gpuNicIndex;
};

HostAnalysis analyzeHost(const HostTopology& host);

// A server as shown: its topology and what the analysis found in it.
struct InspectedHost {
    HostTopology host;
    HostAnalysis analysis;
};

// NCCL's bit reversal (src/graph/topo.cc mirrorBits) that spreads GPUs over
// the NICs closest to them; pow2 is the NIC count, a power of two.
int mirrorBits(int value, int pow2);

} // namespace rackscope
