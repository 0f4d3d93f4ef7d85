#include "host_analysis.h"

#include "device_paths.h"
#include "findings.h"

#include <QCoreApplication>

namespace rackscope {

const GpuNicPair* HostAnalysis::pair(const QString& gpu, const QString& nic) const {
    if (gpuNicIndex.size() == qsizetype(gpuNic.size())) {
        const auto it = gpuNicIndex.constFind(qMakePair(gpu, nic));
        return it == gpuNicIndex.cend() ? nullptr : &gpuNic[size_t(*it)];
    }
    for (const auto& p : gpuNic) // made by hand, without the index
        if (p.gpu == gpu && p.nic == nic)
            return &p;
    return nullptr;
}

int mirrorBits(int value, int pow2) {
    int mirror = 0;
    for (int b = 1, mb = pow2 >> 1; b < pow2; b <<= 1, mb >>= 1)
        if (value & b)
            mirror |= mb;
    return mirror;
}

namespace {

bool isPow2(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

GpuNicPair judgeGpuNic(const HostTopology& host, const Device& gpu, const Device& nic) {
    GpuNicPair p{gpu.id, nic.id, {}, {}, {}, {}, {}};
    p.path = pathBetween(host, gpu, nic).type;

    // NCCL's ncclTopoCheckGdr: both ends must support it and the path must be
    // no farther than NCCL_NET_GDR_LEVEL (PXB by default).
    QStringList against;
    if (nic.rdma == false)
        against << QCoreApplication::translate("rackscope", "%1 has no RDMA device (%2)")
                       .arg(nic.id, nic.rdmaEvidence);
    if (nic.ncclGdr == false)
        against << QCoreApplication::translate("rackscope", "NCCL found no GPUDirect support on %1 (gdr=0)")
                       .arg(nic.id);
    if (gpu.ncclGdr == false)
        against << QCoreApplication::translate("rackscope", "NCCL found no GPUDirect support on %1 (gdr=0)")
                       .arg(gpu.id);
    // A GPU on NVLink-C2C (Grace) reaches the NICs through its CPU: NCCL then has paths of its own (P2C for a
    // NIC on the same CPU, PXN through an NVLink peer otherwise) that this PCIe reading does not model.
    const bool overC2c = gpu.c2cLinks && p.path && ncclRank(*p.path) > ncclRank(kDefaultGdrLevel);
    if (p.path && ncclRank(*p.path) > ncclRank(kDefaultGdrLevel) && !overC2c)
        against << QCoreApplication::translate(
                       "rackscope", "path %1 is farther than PXB, NCCL's default NCCL_NET_GDR_LEVEL")
                       .arg(pathTypeName(*p.path));
    if (host.peerMemoryLoaded == false && host.kernelSupportsDmabuf == false)
        against << QCoreApplication::translate(
            "rackscope", "no peer-memory module (nvidia_peermem) is loaded and the kernel is older than "
                         "5.12, so DMA-BUF cannot stand in");
    if (!against.isEmpty()) {
        p.gpudirect = false;
        p.gpudirectReason = against.join(QStringLiteral("; "));
    } else if (overC2c) {
        p.gpudirectReason =
            QCoreApplication::translate(
                "rackscope",
                "%1 reaches %2 through its CPU over NVLink-C2C (PCIe path %3): NCCL 2.27 and "
                "later use GPUDirect RDMA over C2C (P2C, NCCL_NET_GDR_C2C) for a NIC on the same "
                "CPU, and PXN through an NVLink peer otherwise; rackscope does not model those "
                "paths, so it is unknown here")
                .arg(gpu.id, nic.id, pathTypeName(*p.path));
    } else if (!p.path) {
        p.gpudirectReason =
            QCoreApplication::translate("rackscope", "the source does not give the path between them");
    } else if (host.peerMemoryLoaded == false) {
        p.gpudirectReason =
            QCoreApplication::translate(
                "rackscope", "path %1 allows it, but no peer-memory module (nvidia_peermem) is loaded: "
                             "only DMA-BUF (open GPU driver, NCCL >= 2.19) could give GPUDirect")
                .arg(pathTypeName(*p.path));
    } else if (!nic.rdma) {
        p.gpudirectReason = QCoreApplication::translate("rackscope", "path %1 allows it, but %2")
                                .arg(pathTypeName(*p.path), nic.rdmaEvidence);
    } else {
        p.gpudirect = true;
        p.gpudirectReason =
            QCoreApplication::translate("rackscope", "path %1 is within NCCL_NET_GDR_LEVEL=PXB and %2")
                .arg(pathTypeName(*p.path), nic.rdmaEvidence);
    }

    if (gpu.socket && nic.socket) {
        p.crossSocket = *gpu.socket != *nic.socket;
        p.crossSocketEvidence = QCoreApplication::translate("rackscope", "%1 on package %2, %3 on package %4")
                                    .arg(gpu.id)
                                    .arg(*gpu.socket)
                                    .arg(nic.id)
                                    .arg(*nic.socket);
    } else if (p.path) {
        p.crossSocket = *p.path == PathType::SYS;
        p.crossSocketEvidence =
            QCoreApplication::translate("rackscope", "packages unknown; judged from path %1")
                .arg(pathTypeName(*p.path));
    }
    return p;
}

// NCCL's ncclTopoGetLocalNet for channel 0: the NICs at the GPU's best path
// type, then mirrorBits(cudaDev) among them. NCCL ranks by path bandwidth
// before type; rackscope has bandwidths for few inputs and ranks by type,
// which agrees whenever the nearer NIC is not the slower one. With any RDMA
// NIC present NCCL's IB transport uses RDMA NICs only.
std::vector<std::pair<QString, QString>> chooseNcclNics(const HostTopology& host, const HostAnalysis& a) {
    bool anyRdma = false;
    for (const Device& n : host.nics)
        anyRdma |= n.rdma.value_or(false);
    std::vector<std::pair<QString, QString>> out;
    for (const Device& gpu : host.gpus) {
        int best = 99;
        std::vector<const Device*> local;
        for (const Device& nic : host.nics) {
            if (anyRdma && !nic.rdma.value_or(false))
                continue;
            const GpuNicPair* p = a.pair(gpu.id, nic.id);
            if (!p || !p->path)
                continue;
            const int rank = ncclRank(*p->path);
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

} // namespace

HostAnalysis analyzeHost(const HostTopology& host) {
    HostAnalysis a;
    for (size_t i = 0; i < host.gpus.size(); ++i)
        for (size_t j = i + 1; j < host.gpus.size(); ++j) {
            const DevicePath p = pathBetween(host, host.gpus[i], host.gpus[j]);
            a.gpuGpu.push_back({host.gpus[i].id, host.gpus[j].id, p.type, p.nvlinks});
        }
    for (const Device& gpu : host.gpus)
        for (const Device& nic : host.nics) {
            a.gpuNicIndex.insert(qMakePair(gpu.id, nic.id), qsizetype(a.gpuNic.size()));
            a.gpuNic.push_back(judgeGpuNic(host, gpu, nic));
        }
    a.ncclNic = chooseNcclNics(host, a);
    a.findings = findingsFor(host, a);
    return a;
}

} // namespace rackscope
