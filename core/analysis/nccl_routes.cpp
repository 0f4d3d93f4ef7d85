#include "nccl_routes.h"

#include <algorithm>

namespace rackscope {
namespace {

bool isPow2(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

bool isRdma(const Device& nic) {
    return nic.rdma.value_or(false);
}

GpuNicPair* pairOf(HostAnalysis& a, const QString& gpu, const QString& nic) {
    return const_cast<GpuNicPair*>(std::as_const(a).pair(gpu, nic));
}

bool nvlinked(const HostTopology& host, int g1, int g2) {
    return host.nvlinks.count(std::minmax(g1, g2)) > 0;
}

// NCCL's ncclTopoGetLocalGpu: of the GPUs nearest the NIC, the one whose own NIC (channel 0) it is, else the
// first of them.
int localGpu(const HostTopology& host, const HostAnalysis& a, const Device& nic,
             const std::vector<std::pair<QString, QString>>& chosen) {
    int best = 99;
    std::vector<int> nearest;
    for (int g = 0; g < int(host.gpus.size()); ++g) {
        const GpuNicPair* p = a.pair(host.gpus[size_t(g)].id, nic.id);
        if (!p || !p->viaNccl())
            continue;
        const int rank = ncclRank(*p->viaNccl());
        if (rank < best)
            nearest.clear(), best = rank;
        if (rank == best)
            nearest.push_back(g);
    }
    for (int g : nearest)
        for (const auto& [gpu, n] : chosen)
            if (gpu == host.gpus[size_t(g)].id && n == nic.id)
                return g;
    return nearest.empty() ? -1 : nearest.front();
}

} // namespace

void addNcclRoutes(const HostTopology& host, HostAnalysis& a) {
    // P2C: NCCL merges the GPU's C2C link to its CPU with the NIC's PCIe path to that CPU.
    for (const Device& gpu : host.gpus) {
        if (!gpu.c2cLinks)
            continue;
        for (const Device& nic : host.nics)
            if (GpuNicPair* p = pairOf(a, gpu.id, nic.id);
                p && p->path && (*p->path == PathType::PHB || *p->path == PathType::NODE))
                p->ncclPath = PathType::P2C;
    }
    // PXN, through the NIC's local GPU, where this GPU is farther than PXN and NVLinked to it.
    const auto chosen = chooseNcclNics(host, a);
    for (const Device& nic : host.nics) {
        const int relay = localGpu(host, a, nic, chosen);
        if (relay < 0)
            continue;
        const Device& peer = host.gpus[size_t(relay)];
        const GpuNicPair* peerPair = a.pair(peer.id, nic.id);
        if (ncclRank(*peerPair->viaNccl()) > ncclRank(PathType::P2C) || peer.ncclGdr == false)
            continue;
        for (int g = 0; g < int(host.gpus.size()); ++g) {
            GpuNicPair* p = pairOf(a, host.gpus[size_t(g)].id, nic.id);
            if (g == relay || !p || !p->viaNccl() || ncclRank(*p->viaNccl()) <= ncclRank(PathType::PXN) ||
                !nvlinked(host, g, relay))
                continue;
            p->ncclPath = PathType::PXN;
            p->relayGpu = peer.id;
        }
    }
}

std::vector<std::pair<QString, QString>> chooseNcclNics(const HostTopology& host, const HostAnalysis& a) {
    // NCCL ranks by path bandwidth before type; rackscope has bandwidths for few inputs and ranks by type,
    // which agrees whenever the nearer NIC is not the slower one. With any RDMA NIC present NCCL's IB
    // transport uses RDMA NICs only.
    const bool anyRdma = std::any_of(host.nics.begin(), host.nics.end(), isRdma);
    std::vector<std::pair<QString, QString>> out;
    for (const Device& gpu : host.gpus) {
        int best = 99;
        std::vector<const Device*> local;
        for (const Device& nic : host.nics) {
            if (anyRdma && !isRdma(nic))
                continue;
            const GpuNicPair* p = a.pair(gpu.id, nic.id);
            if (!p || !p->viaNccl())
                continue;
            const int rank = ncclRank(*p->viaNccl());
            if (rank < best) {
                best = rank;
                local.clear();
            }
            if (rank == best)
                local.push_back(&nic);
        }
        if (local.empty())
            continue;
        const int count = int(local.size());
        int net = gpu.cudaDevice.value_or(0);
        if (isPow2(count))
            net = mirrorBits(net, count);
        out.emplace_back(gpu.id, local[size_t(net % count)]->id);
    }
    return out;
}

} // namespace rackscope
