#include "host_analysis.h"

#include "device_paths.h"
#include "findings.h"
#include "nccl_routes.h"

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

// What NCCL's ncclTopoCheckGdr says for the pair: both ends must support it, and the path it judges (a PXN
// relay's own) must be no farther than NCCL_NET_GDR_LEVEL (PXB by default) or be P2C (NCCL_NET_GDR_C2C=1).
void judgeGpuDirect(const HostTopology& host, const Device& gpu, const Device& nic, const HostAnalysis& a,
                    GpuNicPair& p) {
    std::optional<PathType> distance = p.viaNccl();
    QString route = distance
                        ? QCoreApplication::translate("rackscope", "path %1").arg(pathTypeName(*distance))
                        : QString();
    if (p.ncclPath == PathType::PXN) {
        distance = a.pair(p.relayGpu, nic.id)->viaNccl();
        route = QCoreApplication::translate("rackscope", "PXN through %1 over NVLink, which reaches %2 at %3")
                    .arg(p.relayGpu, nic.id, pathTypeName(*distance));
    }
    if (distance == PathType::P2C)
        route += QCoreApplication::translate(
                     "rackscope", " (%1 on %2's own CPU, reached over NVLink-C2C; NCCL_NET_GDR_C2C=1)")
                     .arg(nic.id, p.relayGpu.isEmpty() ? gpu.id : p.relayGpu);
    const bool near =
        distance && (ncclRank(*distance) <= ncclRank(kDefaultGdrLevel) || *distance == PathType::P2C);
    // A Grace GPU reaches a NIC on the other CPU through an NVLink peer (PXN), where the source describes
    // NVLink at all.
    const bool relayUnknown = distance && !near && gpu.c2cLinks && !host.nvlinkStated;

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
    if (distance && !near && !relayUnknown)
        against << QCoreApplication::translate("rackscope",
                                               "%1 is farther than PXB, NCCL's default NCCL_NET_GDR_LEVEL, "
                                               "and no NVLink peer nearer to %2 relays for it (PXN)")
                       .arg(route, nic.id);
    if (host.peerMemoryLoaded == false && host.kernelSupportsDmabuf == false)
        against << QCoreApplication::translate(
            "rackscope", "no peer-memory module (nvidia_peermem) is loaded and the kernel is older than "
                         "5.12, so DMA-BUF cannot stand in");
    if (!against.isEmpty()) {
        p.gpudirect = false;
        p.gpudirectReason = against.join(QStringLiteral("; "));
    } else if (relayUnknown) {
        p.gpudirectReason =
            QCoreApplication::translate(
                "rackscope", "%1 reaches %2 at %3 through the other CPU: NCCL would relay through an NVLink "
                             "peer (PXN), but this source does not describe NVLink, so it is unknown here")
                .arg(gpu.id, nic.id, pathTypeName(*distance));
    } else if (!distance) {
        p.gpudirectReason =
            QCoreApplication::translate("rackscope", "the source does not give the path between them");
    } else if (host.peerMemoryLoaded == false) {
        p.gpudirectReason =
            QCoreApplication::translate("rackscope",
                                        "%1 allows it, but no peer-memory module (nvidia_peermem) is loaded: "
                                        "only DMA-BUF (open GPU driver, NCCL >= 2.19) could give GPUDirect")
                .arg(route);
    } else if (!nic.rdma) {
        p.gpudirectReason =
            QCoreApplication::translate("rackscope", "%1 allows it, but %2").arg(route, nic.rdmaEvidence);
    } else {
        p.gpudirect = true;
        p.gpudirectReason =
            QCoreApplication::translate("rackscope", "%1 is within NCCL's GPUDirect level and %2")
                .arg(route, nic.rdmaEvidence);
    }
}

// Whether the pair's traffic crosses the CPU socket, by packages where known, else by path.
void judgeCrossSocket(const Device& gpu, const Device& nic, GpuNicPair& p) {
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
            GpuNicPair p;
            p.gpu = gpu.id;
            p.nic = nic.id;
            p.path = pathBetween(host, gpu, nic).type;
            judgeCrossSocket(gpu, nic, p);
            a.gpuNic.push_back(std::move(p));
        }
    addNcclRoutes(host, a);
    size_t i = 0;
    for (const Device& gpu : host.gpus)
        for (const Device& nic : host.nics) {
            GpuNicPair& p = a.gpuNic[i++];
            judgeGpuDirect(host, gpu, nic, a, p);
            if (p.ncclPath == PathType::PXN) { // the traffic goes the relay's way
                const GpuNicPair* relayed = a.pair(p.relayGpu, nic.id);
                p.crossSocket = relayed->crossSocket;
                p.crossSocketEvidence =
                    QCoreApplication::translate("rackscope", "through %1 over NVLink (PXN): %2")
                        .arg(p.relayGpu, relayed->crossSocketEvidence);
            }
        }
    a.ncclNic = chooseNcclNics(host, a);
    a.findings = findingsFor(host, a);
    return a;
}

} // namespace rackscope
