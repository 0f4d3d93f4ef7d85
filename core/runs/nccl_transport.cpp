#include "nccl_transport.h"

#include "analysis/host_analysis.h"
#include "model/pci_address.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace rackscope {
namespace {

// src/transport/*.cc: "Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s" (and [receive]); before
// NCCL 2.12 "Channel %02d : %d[%lx] -> %d[%lx] via P2P/direct pointer/read", peers by bus id.
const QRegularExpression
    kChannel(QStringLiteral("^Channel \\d+(?:/\\d+)? : (\\d+)\\[[0-9a-fA-F]+\\] -> (\\d+)\\[[0-9a-fA-F]+\\] "
                            "(?:\\[(send|receive)\\] )?via (\\S.*)$"));
// src/init.cc: "ncclCommInitRank comm 0x... rank 3 nranks 8 cudaDev 3 nvmlDev 3 busId 1906000 ..."
const QRegularExpression kInit(QStringLiteral("ncclCommInitRank(?:Config)? comm \\S+ rank (\\d+) nranks \\d+ "
                                              "cudaDev \\d+(?: nvmlDev \\d+)? busId ([0-9a-fA-F]+)"));
// The net plugins' device list: "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ib0:10.0.0.1<0>".
const QRegularExpression kUsing(QStringLiteral("^NET/(\\S+) : Using(.*)$"));
const QRegularExpression kDevice(QStringLiteral("\\[(\\d+)\\]([^:\\s\\[]+):(\\S+)"));
const QRegularExpression kNetwork(QStringLiteral("^Using network (\\S+)"));

QString nicName(const NcclTransport& t, const QString& host, int dev) {
    const auto it = t.devices.find(host);
    if (it != t.devices.end())
        for (const NcclNetDevice& d : it->second)
            if (d.index == dev)
                return d.name;
    return QCoreApplication::translate("rackscope", "NET device %1").arg(dev);
}

NcclRankNetwork& rankOf(std::vector<NcclRankNetwork>& ranks, const QString& host, int rank) {
    for (NcclRankNetwork& r : ranks)
        if (r.host == host && r.rank == rank)
            return r;
    ranks.push_back({});
    ranks.back().host = host;
    ranks.back().rank = rank;
    return ranks.back();
}

} // namespace

NcclTransport readNcclTransport(const QStringList& infoLines) {
    NcclTransport t;
    struct NetUse {
        QString host;
        int rank;
        int dev;
        QString transport;
        bool gdr;
        std::optional<int> cudaDevice;
    };
    std::vector<NetUse> uses; // names are looked up after every device list is read
    for (const QString& line : infoLines) {
        const auto p = readNcclLogLine(line);
        if (!p)
            continue;
        const QString& host = p->host;
        const QString& message = p->message;
        const int cudaDevice = p->cudaDevice;
        if (const auto c = kChannel.match(message); c.hasMatch()) {
            ++t.channelLines;
            const bool receive = c.captured(3) == QLatin1String("receive");
            const int rank = (receive ? c.captured(2) : c.captured(1)).toInt(); // the rank writing the line
            NcclRankNetwork& r = rankOf(t.ranks, host, rank);
            r.cudaDevice = cudaDevice;
            const QStringList via = c.captured(4).trimmed().split(QLatin1Char('/'));
            if (via.size() >= 3 && via[0] == QLatin1String("NET")) {
                const int dev =
                    via[2].section(QLatin1Char('('), 0, 0).toInt(); // "0(1)": the proxy rank follows
                const bool gdr = std::any_of(via.begin() + 3, via.end(), [](const QString& s) {
                    return s.startsWith(QLatin1String("GDRDMA"));
                });
                uses.push_back({host, rank, dev, via[1], gdr, cudaDevice});
                ++r.channels[QStringLiteral("NET/") + via[1] + (gdr ? QStringLiteral("/GDRDMA") : QString())];
            } else if (r.channels.size() < 64) {
                ++r.channels[via.join(QLatin1Char('/')).left(80)];
            }
        } else if (const auto i = kInit.match(message); i.hasMatch()) {
            NcclRankNetwork& r = rankOf(t.ranks, host, i.captured(1).toInt());
            r.cudaDevice = cudaDevice;
            r.busId = ncclBusIdToPci(i.captured(2));
        } else if (auto g = readMnnvlMessage(*p)) {
            g->source = QStringLiteral("NCCL_DEBUG=INFO");
            if (t.mnnvl.size() < 4096 &&
                std::none_of(t.mnnvl.begin(), t.mnnvl.end(), [&](const GpuFabricState& o) {
                    return o.host == g->host && o.busId == g->busId;
                }))
                t.mnnvl.push_back(std::move(*g));
        } else if (const auto u = kUsing.match(message); u.hasMatch()) {
            std::vector<NcclNetDevice>& list = t.devices[host];
            if (!list.empty())
                continue; // every rank prints the same list
            for (auto it = kDevice.globalMatch(u.captured(2).section(QLatin1Char(';'), 0, 0));
                 it.hasNext();) {
                const auto d = it.next();
                QString link = d.captured(3);
                if (link.contains(QLatin1Char('/')))
                    link = link.section(QLatin1Char('/'), 1); // "1/IB": port 1, link layer IB
                list.push_back({d.captured(1).toInt(), d.captured(2), link});
            }
        } else if (const auto n = kNetwork.match(message); n.hasMatch()) {
            t.network[host] = n.captured(1);
        } else if (message.contains(QLatin1String("GPU Direct RDMA"))) {
            QStringList& notes = t.gdrNotes[host];
            if (!notes.contains(message) && notes.size() < 64)
                notes << message;
        }
    }
    for (const NetUse& u : uses) {
        NcclRankNetwork& r = rankOf(t.ranks, u.host, u.rank);
        const QString nic = nicName(t, u.host, u.dev);
        if (!r.nics.contains(nic))
            r.nics << nic;
        r.transports.insert(u.transport);
        ++r.netConnections;
        if (u.gdr)
            ++r.gdrConnections;
    }
    std::sort(t.ranks.begin(), t.ranks.end(), [](const auto& a, const auto& b) {
        return std::tie(a.host, a.rank) < std::tie(b.host, b.rank);
    });
    std::sort(t.mnnvl.begin(), t.mnnvl.end(), [](const auto& a, const auto& b) {
        return std::tie(a.host, a.busId) < std::tie(b.host, b.busId);
    });
    return t;
}

std::vector<NcclTestsRank> ranksFromInitLines(const NcclTransport& t) {
    std::vector<NcclTestsRank> out;
    for (const NcclRankNetwork& r : t.ranks)
        if (!r.busId.isEmpty()) {
            NcclTestsRank rank;
            rank.rank = r.rank;
            rank.host = r.host;
            rank.device = r.cudaDevice.value_or(0);
            rank.pci = r.busId;
            out.push_back(rank);
        }
    return out;
}

namespace {

// The GPU of `rank` in `host`'s topology, by the PCI address nccl-tests printed.
const Device* gpuOfRank(const HostTopology& host, const std::vector<NcclTestsRank>& ranks, int rank) {
    for (const NcclTestsRank& r : ranks) {
        if (r.rank != rank)
            continue;
        const auto pci = PciAddress::parse(r.pci + QStringLiteral(".0"));
        if (!pci)
            return nullptr;
        for (const Device& g : host.gpus)
            if (g.pci && g.pci->domain == pci->domain && g.pci->bus == pci->bus &&
                g.pci->device == pci->device)
                return &g;
    }
    return nullptr;
}

const Device* nicNamed(const HostTopology& host, const QString& name) {
    for (const Device& n : host.nics)
        if (n.name == name || n.rdmaDevices.contains(name) || n.netdevs.contains(name))
            return &n;
    return nullptr;
}

// Why a host whose path allows GPUDirect RDMA may not have had it, from what its source says. (A missing
// peer-memory module is not among them: the analysis already rules GPUDirect out, or unknown, without it.)
QString likelyGdrCause(const Device& gpu, const Device& nic) {
    QStringList acs = gpu.acsBridges + nic.acsBridges;
    acs.removeDuplicates();
    if (!acs.isEmpty())
        return QCoreApplication::translate(
                   "rackscope",
                   "ACS redirects peer-to-peer traffic up to the root complex at %1; disable ACS "
                   "on the bridges between the GPU and the NIC")
            .arg(acs.join(QStringLiteral(", ")));
    return QCoreApplication::translate("rackscope",
                                       "its source shows no cause: check that nvidia-peermem (or dma-buf) is "
                                       "loaded, ACS is off on the path, and NCCL_NET_GDR_LEVEL");
}

} // namespace

std::vector<Finding> ncclTransportFindings(const NcclTransport& t, const std::vector<NcclTestsRank>& ranks,
                                           const std::map<QString, HostTopology>& topologies) {
    std::vector<Finding> out;
    std::map<QString, QStringList> socketRanks;
    for (const NcclRankNetwork& r : t.ranks)
        if (r.transports.contains(QStringLiteral("Socket")))
            socketRanks[r.host] << QString::number(r.rank);
    for (const auto& [host, network] : t.network)
        if (network == QLatin1String("Socket"))
            socketRanks.try_emplace(host);
    for (const auto& [host, list] : socketRanks)
        out.push_back(makeFinding(
            Severity::Error, QLatin1String(codes::kNcclSocketFallback), {host},
            {list.isEmpty()
                 ? QT_TRANSLATE_NOOP("rackscope",
                                     "%1: NCCL sent over TCP sockets (NET/Socket), not RDMA: it found no "
                                     "usable RDMA device, or NCCL_IB_DISABLE / NCCL_NET / NCCL_IB_HCA "
                                     "kept it from one")
                 : QT_TRANSLATE_NOOP("rackscope",
                                     "%1: NCCL sent over TCP sockets (NET/Socket), not RDMA, for ranks "
                                     "%2: it found no usable RDMA device, or NCCL_IB_DISABLE / NCCL_NET "
                                     "/ NCCL_IB_HCA kept it from one"),
             {host, list.join(QStringLiteral(", "))}},
            serverTarget(host)));

    std::map<QString, HostAnalysis> analyses;
    for (const NcclRankNetwork& r : t.ranks) {
        if (r.netConnections == 0 || r.transports.contains(QStringLiteral("Socket")))
            continue;
        const auto topo = topologies.find(r.host);
        const Device* gpu = topo == topologies.end() ? nullptr : gpuOfRank(topo->second, ranks, r.rank);
        const HostAnalysis* analysis = nullptr;
        if (gpu)
            analysis = &analyses.try_emplace(r.host, analyzeHost(topo->second)).first->second;
        const QString who = QStringLiteral("rank %1 on %2%3")
                                .arg(r.rank)
                                .arg(r.host, gpu ? QStringLiteral(" (%1)").arg(gpu->id) : QString());
        for (const QString& nicName : r.nics) {
            const Device* nic = gpu ? nicNamed(topo->second, nicName) : nullptr;
            const GpuNicPair* pair = nic ? analysis->pair(gpu->id, nic->id) : nullptr;
            QStringList subjects{r.host};
            FindingTarget target = serverTarget(r.host);
            for (const Device* d : {gpu, nic})
                if (d) {
                    subjects << r.host + QLatin1Char('/') + d->id;
                    target.devices << d->id;
                }
            if (analysis && nic) {
                const auto nearest = std::find_if(analysis->ncclNic.begin(), analysis->ncclNic.end(),
                                                  [&](const auto& gn) { return gn.first == gpu->id; });
                const GpuNicPair* best =
                    nearest == analysis->ncclNic.end() ? nullptr : analysis->pair(gpu->id, nearest->second);
                if (best && best->viaNccl() && pair && pair->viaNccl() &&
                    ncclRank(*best->viaNccl()) < ncclRank(*pair->viaNccl()))
                    out.push_back(makeFinding(
                        Severity::Info, QLatin1String(codes::kNcclNicDiffers), subjects,
                        {QT_TRANSLATE_NOOP("rackscope",
                                           "%1 used %2 (%3), not its nearest NIC %4: check NCCL_IB_HCA"),
                         {who, nicName, pathTypeName(*pair->viaNccl()), nearest->second}},
                        target));
            }
            if (r.gdrConnections == r.netConnections)
                continue;
            const QStringList said = t.gdrNotes.count(r.host) ? t.gdrNotes.at(r.host) : QStringList();
            const QString ncclSaid = said.isEmpty()
                                         ? QString()
                                         : QStringLiteral("; NCCL said: ") + said.join(QStringLiteral("; "));
            // %1 reached %2 without GPUDirect RDMA (%3 of %4 network connections) ...
            QStringList args{who, nicName, QString::number(r.netConnections - r.gdrConnections),
                             QString::number(r.netConnections)};
            if (pair && pair->gpudirect == true)
                out.push_back(makeFinding(
                    Severity::Warning, QLatin1String(codes::kNcclGdrNotUsed), subjects,
                    {QT_TRANSLATE_NOOP("rackscope",
                                       "%1 reached %2 without GPUDirect RDMA (%3 of %4 network connections), "
                                       "though the topology allows it (%5): %6%7"),
                     args << pair->gpudirectReason << likelyGdrCause(*gpu, *nic) << ncclSaid},
                    target));
            else if (pair && pair->gpudirect == false)
                out.push_back(makeFinding(
                    Severity::Warning, QLatin1String(codes::kNcclNoGdr), subjects,
                    {QT_TRANSLATE_NOOP(
                         "rackscope",
                         "%1 reached %2 without GPUDirect RDMA (%3 of %4 network connections), as "
                         "the topology predicts: %5%6"),
                     args << pair->gpudirectReason << ncclSaid},
                    target));
            else
                out.push_back(
                    makeFinding(Severity::Warning, QLatin1String(codes::kNcclNoGdr), subjects,
                                {QT_TRANSLATE_NOOP(
                                     "rackscope",
                                     "%1 reached %2 without GPUDirect RDMA (%3 of %4 network connections)%5"),
                                 args << ncclSaid},
                                target));
        }
    }
    return out;
}

} // namespace rackscope
