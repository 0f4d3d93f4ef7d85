#include "findings.h"

#include "import/device_facts.h"

#include <QtGlobal>

#include <algorithm>

namespace rackscope {
namespace {

QString describe(const Device& d) {
    return d.name.isEmpty() ? d.id : QStringLiteral("%1 (%2)").arg(d.id, d.name);
}

// A finding on `host`, pointing at the devices among its subjects. `words`: the source's own
// sentence, for a finding with no text of rackscope's.
Finding onHost(const HostTopology& host, Severity severity, const char* code, const QStringList& subjects,
               FindingText text, const QString& words = {}) {
    FindingTarget target = serverTarget(host.name);
    for (const QString& s : subjects)
        if (host.findDevice(s))
            target.devices << s;
    Finding f = makeFinding(severity, QLatin1String(code), subjects, std::move(text), std::move(target));
    if (!words.isEmpty())
        f.message = words;
    return f;
}

bool isRdma(const Device& nic) {
    return nic.rdma.value_or(false);
}

// Per GPU: where its nearest RDMA NIC sits, and whether any NIC gives it GPUDirect.
void gpuFindings(const HostTopology& host, const HostAnalysis& a, std::vector<Finding>& out) {
    for (const Device& gpu : host.gpus) {
        const GpuNicPair* nearest = nullptr;
        const Device* nearestNic = nullptr;
        bool anyTrue = false, anyUnknown = false, anyPair = false;
        for (const Device& nic : host.nics) {
            const GpuNicPair* p = a.pair(gpu.id, nic.id);
            if (!p || (!isRdma(nic) && nic.rdma.has_value()))
                continue;
            anyPair = true;
            anyTrue |= p->gpudirect.value_or(false);
            anyUnknown |= !p->gpudirect.has_value();
            if (isRdma(nic) && p->viaNccl() &&
                (!nearest || ncclRank(*p->viaNccl()) < ncclRank(*nearest->viaNccl()))) {
                nearest = p;
                nearestNic = &nic;
            }
        }
        // A GPU on NVLink-C2C reaches a NIC on the other CPU through an NVLink peer (NCCL's PXN), not over
        // the inter-socket link.
        if (nearest && nearest->crossSocket.value_or(false) && !gpu.c2cLinks)
            out.push_back(
                onHost(host, Severity::Warning, codes::kNearestNicCrossSocket, {gpu.id, nearestNic->id},
                       {QT_TRANSLATE_NOOP("rackscope",
                                          "%1's nearest RDMA NIC, %2, is across the CPU socket (%3, %4): "
                                          "its network traffic crosses the inter-socket link."),
                        {gpu.id, describe(*nearestNic), pathTypeName(*nearest->path),
                         nearest->crossSocketEvidence}}));
        if (!anyPair || anyTrue)
            continue;
        if (anyUnknown && gpu.c2cLinks) {
            out.push_back(onHost(
                host, Severity::Info, codes::kGpuDirectUnknown, {gpu.id},
                {QT_TRANSLATE_NOOP(
                     "rackscope", "Whether %1 can use GPUDirect RDMA is unknown: it reaches the NICs through "
                                  "its CPU over NVLink-C2C (%2 GB/s) and the other CPU, where NCCL relays "
                                  "through an NVLink peer (PXN), but the source does not describe NVLink."),
                 {gpu.id, QString::number(gpu.c2cGBps.value_or(0), 'f', 1)}}));
        } else if (anyUnknown) {
            out.push_back(
                onHost(host, Severity::Info, codes::kGpuDirectUnknown, {gpu.id},
                       {QT_TRANSLATE_NOOP("rackscope",
                                          "Whether %1 can use GPUDirect RDMA is unknown: the source does "
                                          "not say enough about its NICs."),
                        {gpu.id}}));
        } else {
            QString why =
                nearest ? nearest->gpudirectReason : a.pair(gpu.id, host.nics.front().id)->gpudirectReason;
            out.push_back(onHost(
                host, Severity::Warning, codes::kNoGpuDirectNic, {gpu.id},
                {QT_TRANSLATE_NOOP("rackscope", "%1 has no NIC NCCL would use with GPUDirect RDMA (nearest: "
                                                "%2). Its network traffic is staged through host memory."),
                 {gpu.id, why}}));
        }
    }
}

// A GPU whose NCCL NIC it reaches only through an NVLink peer (PXN) shares that peer's NIC.
void throughPeerFindings(const HostTopology& host, const HostAnalysis& a, std::vector<Finding>& out) {
    for (const auto& [gpu, nic] : a.ncclNic) {
        const GpuNicPair* p = a.pair(gpu, nic);
        if (!p || p->ncclPath != PathType::PXN)
            continue;
        out.push_back(onHost(
            host, Severity::Warning, codes::kNicThroughPeer, {gpu, p->relayGpu, nic},
            {QT_TRANSLATE_NOOP("rackscope",
                               "%1 has no RDMA NIC within PXB of its own (%2 is %3 from it): NCCL sends its "
                               "network traffic over NVLink through %4 (PXN), which uses %2 too."),
             {gpu, describe(*host.findDevice(nic)), pathTypeName(*p->path), p->relayGpu}}));
    }
}

void nicLoadFindings(const HostTopology& host, const HostAnalysis& a, std::vector<Finding>& out) {
    std::map<QString, int> load;
    for (const Device& nic : host.nics)
        if (isRdma(nic))
            load[nic.id] = 0;
    for (const auto& [gpu, nic] : a.ncclNic)
        if (load.count(nic))
            ++load[nic];
    if (load.size() < 2)
        return;
    const auto [lo, hi] = std::minmax_element(
        load.begin(), load.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    if (hi->second - lo->second < 2)
        return;
    QStringList gpus;
    for (const auto& [gpu, nic] : a.ncclNic)
        if (nic == hi->first)
            gpus << gpu;
    out.push_back(
        onHost(host, Severity::Warning, codes::kNicSharedUnevenly, QStringList{hi->first, lo->first} + gpus,
               {QT_TRANSLATE_NOOP("rackscope", "NCCL would give %1 to %2 GPUs (%3) but %4 to %5: the "
                                               "busiest NIC limits every collective."),
                {hi->first, QString::number(hi->second), gpus.join(QStringLiteral(", ")), lo->first,
                 QString::number(lo->second)}}));
}

// Two links compare only in one unit: GT/s x lanes where both give it, else GB/s.
std::optional<std::pair<double, double>> comparable(const PcieLink& a, const PcieLink& b) {
    if (a.gts && a.width && b.gts && b.width)
        return std::pair(*a.gts * *a.width, *b.gts * *b.width);
    if (a.gbps && b.gbps)
        return std::pair(*a.gbps, *b.gbps);
    return std::nullopt;
}

QString linkText(const PcieLink& l) {
    QStringList parts;
    if (l.gts)
        parts << QStringLiteral("%1 GT/s").arg(*l.gts);
    if (l.width)
        parts << QStringLiteral("x%1").arg(*l.width);
    if (l.gbps)
        parts << QStringLiteral("%1 GB/s").arg(*l.gbps, 0, 'f', 1);
    return parts.join(QLatin1Char(' '));
}

void pcieFindings(const HostTopology& host, std::vector<Finding>& out) {
    for (const auto* list : {&host.gpus, &host.nics}) {
        for (const Device& d : *list) {
            const auto rates = comparable(d.linkCurrent, d.linkMax);
            if (rates && rates->first < rates->second)
                out.push_back(onHost(host, Severity::Warning, codes::kPcieLinkDegraded, {d.id},
                                     {QT_TRANSLATE_NOOP("rackscope", "%1's PCIe link runs at %2, below its "
                                                                     "capability %3."),
                                      {describe(d), linkText(d.linkCurrent), linkText(d.linkMax)}}));
        }
        // Identical devices (same vendor:device) should train to the same link.
        for (const Device& d : *list) {
            if (!d.vendorId || !d.deviceId)
                continue;
            const Device* best = nullptr;
            for (const Device& o : *list) {
                if (&o == &d || o.vendorId != d.vendorId || o.deviceId != d.deviceId)
                    continue;
                const auto rates = comparable(d.linkCurrent, o.linkCurrent);
                if (rates && rates->first < 0.75 * rates->second &&
                    (!best || comparable(best->linkCurrent, o.linkCurrent)->first < rates->second))
                    best = &o;
            }
            if (best)
                out.push_back(
                    onHost(host, Severity::Warning, codes::kPcieLinkBelowPeers, {d.id, best->id},
                           {QT_TRANSLATE_NOOP("rackscope",
                                              "%1's PCIe link runs at %2 while the identical %3 reaches "
                                              "%4: it may have trained at a lower speed or width."),
                            {describe(d), linkText(d.linkCurrent), best->id, linkText(best->linkCurrent)}}));
        }
    }
}

// ACS redirection on a bridge above GPUs and NICs sends their peer traffic
// up to the root complex (NCCL's troubleshooting guide: disable it).
void acsFindings(const HostTopology& host, std::vector<Finding>& out) {
    std::map<QString, QStringList> below;
    for (const auto* list : {&host.gpus, &host.nics})
        for (const Device& d : *list)
            for (const QString& bridge : d.acsBridges)
                below[bridge] << d.id;
    for (const auto& [bridge, devices] : below)
        out.push_back(
            onHost(host, Severity::Warning, codes::kAcsEnabled, QStringList{bridge} + devices,
                   {QT_TRANSLATE_NOOP("rackscope",
                                      "ACS redirection is enabled on PCIe bridge %1 above %2: peer-to-peer "
                                      "and GPUDirect traffic is sent up to the root complex, or fails."),
                    {bridge, devices.join(QStringLiteral(", "))}}));
}

bool rdmaCapable(const Device& nic) {
    return rdmaFromPciIds(nic.vendorId, nic.deviceId, nic.pciClass).rdma.value_or(false);
}

// The drivers a GPU server needs, and a server with no GPU at all: bringing up a rack is when they are
// missing, and "0 GPUs" or an empty matrix must not read like a healthy server.
void driverFindings(const HostTopology& host, std::vector<Finding>& out) {
    QStringList nvidia;
    for (const Device& g : host.gpus)
        if (g.vendorId == kVendorNvidia)
            nvidia << g.id;
    const bool nvmlShort = host.nvmlGpuCount && *host.nvmlGpuCount < nvidia.size();
    if (!nvidia.isEmpty() && (!host.nvmlMissing.isEmpty() || nvmlShort))
        out.push_back(onHost(
            host, Severity::Error, codes::kGpuDriverMissing, nvidia,
            {QT_TRANSLATE_NOOP("rackscope", "%1 NVIDIA GPUs are on PCI (%2) but the driver does not serve "
                                            "them: %3. Without it there is no CUDA, NCCL or GPUDirect here."),
             {QString::number(nvidia.size()), nvidia.join(QStringLiteral(", ")),
              nvmlShort ? QStringLiteral("NVML sees %1 of them").arg(*host.nvmlGpuCount)
                        : host.nvmlMissing}}));
    if (host.gpus.empty())
        out.push_back(onHost(
            host, Severity::Info, codes::kHostNoGpu, {},
            host.nvmlMissing.isEmpty()
                ? FindingText{QT_TRANSLATE_NOOP("rackscope", "The source lists no GPU on this server."), {}}
                : FindingText{QT_TRANSLATE_NOOP("rackscope", "No GPU on this server: none on PCI, and %1."),
                              {host.nvmlMissing}}));

    QStringList without, evidence;
    for (const Device& nic : host.nics)
        if (nic.rdma == false && rdmaCapable(nic)) {
            without << nic.id;
            evidence << QStringLiteral("%1: %2").arg(describe(nic), nic.rdmaEvidence);
        }
    if (!without.isEmpty())
        out.push_back(
            onHost(host, Severity::Error, codes::kRdmaDriverMissing, without,
                   {QT_TRANSLATE_NOOP("rackscope",
                                      "%1 can do RDMA but has no RDMA device, so its RDMA driver is not "
                                      "loaded (%2). NCCL would fall back to TCP sockets over it."),
                    {without.join(QStringLiteral(", ")), evidence.join(QStringLiteral("; "))}}));

    const bool anyRdma = std::any_of(host.nics.begin(), host.nics.end(),
                                     [](const Device& n) { return isRdma(n) || rdmaCapable(n); });
    if (!host.gpus.empty() && anyRdma && host.peerMemoryLoaded == false && host.kernelSupportsDmabuf == false)
        out.push_back(
            onHost(host, Severity::Error, codes::kGpuDirectPrerequisiteMissing, {},
                   {QT_TRANSLATE_NOOP("rackscope",
                                      "Neither a peer-memory module (nvidia_peermem) nor DMA-BUF (Linux "
                                      "5.12 or later) is there: no GPU can use GPUDirect RDMA with a NIC, "
                                      "whatever the PCIe path."),
                    {}}));
}

// Two GPUs with no NVLink between them is a fact only where the source states NVLink at all.
void nvlinkFindings(const HostTopology& host, std::vector<Finding>& out) {
    if (host.gpus.size() < 2)
        return;
    if (host.nvlinkStated) {
        if (host.nvlinkUnstated.empty())
            return;
        const auto [a, b] = *host.nvlinkUnstated.begin();
        const QString first = host.gpus[size_t(a)].id, second = host.gpus[size_t(b)].id;
        out.push_back(
            onHost(host, Severity::Info, codes::kSourceLacksNvlink, {first, second},
                   {QT_TRANSLATE_NOOP(
                        "rackscope",
                        "The source gives each GPU's NVLinks to its NVSwitches but not the links between "
                        "the switches: whether %1 and %2 (and %3 pairs in all) are joined over NVLink is "
                        "not described, and their paths shown are PCIe paths."),
                    {first, second, QString::number(host.nvlinkUnstated.size())}}));
        return;
    }
    out.push_back(
        onHost(host, Severity::Info, codes::kSourceLacksNvlink, {},
               host.source.format == SourceFormat::NcclTopoXml
                   ? FindingText{QT_TRANSLATE_NOOP(
                                     "rackscope",
                                     "This NCCL topology lists no NVLink: the GPUs have none, or the file "
                                     "(a vendor's NCCL_TOPO_FILE) leaves it out. GPU-to-GPU paths shown "
                                     "are PCIe paths."),
                                 {}}
                   : FindingText{QT_TRANSLATE_NOOP(
                                     "rackscope",
                                     "hwloc describes NVLink only when it ran with the NVIDIA driver (its "
                                     "NVML backend), and this source has none: GPU-to-GPU paths shown are "
                                     "PCIe paths, and NVLink is unknown."),
                                 {}}));
}

} // namespace

std::vector<Finding> findingsFor(const HostTopology& host, const HostAnalysis& a) {
    std::vector<Finding> out;
    driverFindings(host, out);
    nvlinkFindings(host, out);
    gpuFindings(host, a, out);
    if (!host.gpus.empty() && std::none_of(host.nics.begin(), host.nics.end(), isRdma))
        out.push_back(
            onHost(host, Severity::Info, codes::kNoRdmaNic, {},
                   {host.nics.empty()
                        ? QT_TRANSLATE_NOOP("rackscope", "The source lists no NIC: GPUDirect RDMA and "
                                                         "NCCL's NIC choice cannot be judged.")
                        : QT_TRANSLATE_NOOP("rackscope", "No NIC is known to be RDMA-capable: NCCL would "
                                                         "fall back to sockets."),
                    {}}));
    throughPeerFindings(host, a, out);
    nicLoadFindings(host, a, out);
    pcieFindings(host, out);
    acsFindings(host, out);
    for (const QString& note : host.notes)
        out.push_back(onHost(host, Severity::Info, codes::kSourceNote, {}, {}, note));
    std::stable_sort(out.begin(), out.end(),
                     [](const Finding& x, const Finding& y) { return int(x.severity) < int(y.severity); });
    return out;
}

} // namespace rackscope
