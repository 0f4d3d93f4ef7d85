#include "ras_verdict.h"

#include "runs/torch_watchdog.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>
#include <set>

// The sentences are in the language installed (the window's; the CLI installs none and stays English), made
// again with each answer.
namespace rackscope {
namespace {

// The server shown at `address`, and how it was found.
struct ServerAt {
    QString name, by;
};

class ServerIndex {
public:
    ServerIndex(const Workspace& ws, const SshAddressOf& sshAddress) {
        for (const InspectedHost& ih : ws.hosts()) {
            const QString name = ih.host.name;
            const QJsonArray interfaces =
                ws.agentSnapshot(ih).value("net").toObject().value("interfaces").toArray();
            for (const QJsonValue& v : interfaces) {
                const QJsonObject i = v.toObject();
                const QJsonObject a = i.value("addresses").toObject();
                for (const char* family : {"ipv4", "ipv6"})
                    for (const QJsonValue& addr : a.value(QLatin1String(family)).toArray())
                        byAddress_.try_emplace(
                            addr.toString(),
                            ServerAt{name, QCoreApplication::translate("rackscope", "its %1 has %2")
                                               .arg(i.value("name").toString(), addr.toString())});
            }
            const QString ssh = sshHostOf(ih.host.source.location);
            if (!ssh.isEmpty() && sshAddress)
                if (const QString at = sshAddress(ssh); !at.isEmpty())
                    byAddress_.try_emplace(
                        at,
                        ServerAt{name,
                                 QCoreApplication::translate("rackscope", "reached over SSH at %1").arg(at)});
            byAddress_.try_emplace(name,
                                   ServerAt{name, QCoreApplication::translate("rackscope", "its name")});
            if (!ssh.isEmpty())
                byAddress_.try_emplace(
                    ssh, ServerAt{name, QCoreApplication::translate("rackscope", "its SSH name")});
        }
    }
    std::optional<ServerAt> find(const QString& address) const {
        const auto it = byAddress_.find(address);
        return it == byAddress_.end() ? std::nullopt : std::optional(it->second);
    }

private:
    std::map<QString, ServerAt> byAddress_;
};

// The rank's GPU in the server: by its NVML index (PCI order, as rackscope numbers GPUs) where RAS gave
// one, else by CUDA's device index, which is PCI order unless CUDA_DEVICE_ORDER or CUDA_VISIBLE_DEVICES
// says otherwise.
void placeGpu(const HostTopology& host, RasRankPlace* p) {
    const auto byIndex = [&](int index) -> QString {
        const QString id = QStringLiteral("GPU%1").arg(index);
        return host.findDevice(id) ? id : QString();
    };
    if (p->rank.nvmlGpu) {
        p->gpu = byIndex(*p->rank.nvmlGpu);
        p->gpuBy = QCoreApplication::translate("rackscope", "NVML index %1").arg(*p->rank.nvmlGpu);
    } else if (p->rank.gpu) {
        for (const Device& d : host.gpus)
            if (d.cudaDevice == *p->rank.gpu)
                p->gpu = d.id;
        if (p->gpu.isEmpty())
            p->gpu = byIndex(*p->rank.gpu);
        p->gpuBy =
            QCoreApplication::translate("rackscope", "CUDA device %1, PCI order assumed").arg(*p->rank.gpu);
    }
}

QString stateOf(const NcclRasProblem& p, const NcclRasRank& k) {
    if (!p.lag.isEmpty())
        return p.lag;
    if (!k.status.isEmpty())
        return k.status;
    if (p.kind == QLatin1String("INCOMPLETE"))
        return QCoreApplication::translate("rackscope", "missing: RAS has no data from it");
    return p.kind.toLower();
}

bool isSevere(const NcclRasProblem& p) {
    return p.kind.contains(QLatin1String("DEAD")) || p.kind.contains(QLatin1String("INCOMPLETE")) ||
           p.kind == QLatin1String("ERROR");
}

// The workspace's findings, read once per verdict: each server's, and which checks each server has.
struct Findings {
    std::map<QString, std::vector<const Finding*>> byServer; // errors and warnings, worst first
    std::set<std::pair<QString, QString>> codes;             // (server, finding code)
    std::vector<WorkspaceFinding> all;
    explicit Findings(const Workspace& ws) : all(ws.findings()) {
        for (Severity s : {Severity::Error, Severity::Warning})
            for (const WorkspaceFinding& f : all)
                if (f.finding.severity == s && !f.host.isEmpty())
                    byServer[f.host].push_back(&f.finding);
        for (const WorkspaceFinding& f : all)
            codes.insert({f.host, f.finding.code});
    }
};

// A finding of the server's that no other server under the same leaf has (the same check, on any device).
QStringList onlyUnderLeaf(const Workspace& ws, const Findings& findings, const QString& server,
                          const QStringList& leaves) {
    QStringList out;
    const auto& fabric = ws.fabricAnalysis();
    const auto mine = findings.byServer.find(server);
    if (!fabric || leaves.isEmpty() || mine == findings.byServer.end())
        return out;
    for (const Finding* f : mine->second) {
        for (const QString& leaf : leaves) {
            int neighbours = 0;
            bool shared = false;
            for (const FabricHost& h : fabric->hosts)
                if (h.name != server && h.leaves.contains(leaf)) {
                    ++neighbours;
                    shared = shared || findings.codes.count({h.name, f->code});
                }
            if (neighbours > 0 && !shared) {
                out << QCoreApplication::translate(
                           "rackscope", "%1 is the only one of the %2 servers under leaf %3 where: %4")
                           .arg(server)
                           .arg(neighbours + 1)
                           .arg(leaf, findingText(*f));
                break;
            }
        }
    }
    return out;
}

QStringList nextSteps(const Workspace& ws, const Findings& findings, const RasRankPlace& first,
                      const QList<qint64>& pids) {
    QStringList next;
    if (first.server.isEmpty()) {
        next << QCoreApplication::translate(
                    "rackscope", "%1 is not among the servers shown: connect to it to place these ranks on "
                                 "its GPUs and the fabric")
                    .arg(first.rank.host);
    } else {
        next << onlyUnderLeaf(ws, findings, first.server, first.leaves);
        int shown = 0;
        if (const auto mine = findings.byServer.find(first.server); mine != findings.byServer.end())
            for (const Finding* f : mine->second)
                if (shown < 3 && !next.join(' ').contains(findingText(*f))) {
                    next << QStringLiteral("%1: %2").arg(first.server, findingText(*f));
                    ++shown;
                }
    }
    QStringList pidList;
    for (qint64 pid : pids)
        pidList << QString::number(pid);
    const QString host = first.server.isEmpty() ? first.rank.host : first.server;
    if (first.severe)
        next << QCoreApplication::translate(
                    "rackscope", "the process is gone or cut off: its own log, and %1's kernel log (a GPU "
                                 "Xid, an OOM kill) say which")
                    .arg(host);
    else if (first.state.contains(QLatin1String(" ahead of ")))
        next << QCoreApplication::translate(
            "rackscope", "these ranks wait in their next collective for the others, which are behind: "
                         "VERBOSE STATUS (--verbose) names every rank and where it is");
    else if (!pidList.isEmpty())
        next << QCoreApplication::translate(
                    "rackscope",
                    "a stack dump of process %1 on %2 (py-spy dump --pid %3) shows what it waits "
                    "on before the next collective")
                    .arg(pidList.join(QStringLiteral(", ")), host, QString::number(pids.first()));
    return next;
}

// ", GPU3" or ", GPUs 0-7" (rackscope's GPU ids are "GPU<n>").
QString gpuList(const QStringList& gpus) {
    if (gpus.size() == 1)
        return QStringLiteral(", ") + gpus.front();
    std::vector<int> numbers;
    for (const QString& id : gpus)
        numbers.push_back(id.mid(3).toInt());
    return gpus.isEmpty() ? QString()
                          : QCoreApplication::translate("rackscope", ", GPUs ") + rankRanges(numbers);
}

} // namespace

RasVerdict placeNcclRas(const NcclRasReport& report, const Workspace& ws, const SshAddressOf& sshAddress) {
    RasVerdict v;
    const ServerIndex servers(ws, sshAddress);
    const Findings findings(ws);
    for (const NcclRasProblem& p : report.problems) {
        if (p.kind == QLatin1String("TIMEOUT"))
            continue;
        for (const NcclRasRank& k : p.ranks) {
            RasRankPlace place;
            place.rank = k;
            place.problem = p.kind;
            place.communicator = p.communicator;
            place.state = stateOf(p, k);
            place.severe = isSevere(p);
            if (const auto at = servers.find(k.host)) {
                place.server = at->name;
                place.serverBy = at->by;
                if (const InspectedHost* ih = ws.host(at->name))
                    placeGpu(ih->host, &place);
                if (const auto& fabric = ws.fabricAnalysis())
                    if (const FabricHost* fh = fabric->host(at->name)) {
                        place.leaves = fh->leaves;
                        for (const Rail& rail : fabric->rails)
                            for (const HostPort& port : fh->ports)
                                if (port.device == rail.device && !place.rails.contains(rail.device))
                                    place.rails << rail.device;
                    }
            } else if (!k.host.isEmpty() && !v.unplaced.contains(k.host)) {
                v.unplaced << k.host;
            }
            v.ranks.push_back(place);
        }
    }
    // Groups: one state on one server, in the order first named; severe ones first.
    std::vector<std::pair<QString, std::vector<const RasRankPlace*>>> groups;
    for (const RasRankPlace& r : v.ranks) {
        const QString key = (r.server.isEmpty() ? r.rank.host : r.server) + QLatin1Char('\n') + r.state +
                            QLatin1Char('\n') + r.communicator;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
        if (it == groups.end())
            groups.push_back({key, {&r}});
        else
            it->second.push_back(&r);
    }
    for (const auto& [key, members] : groups) {
        const RasRankPlace& first = *members.front();
        RasGroupVerdict g;
        g.server = first.server;
        g.severe = first.severe;
        std::vector<int> ranks;
        QList<qint64> pids;
        for (const RasRankPlace* r : members) {
            if (r->rank.rank)
                ranks.push_back(*r->rank.rank);
            if (r->rank.pid && !pids.contains(*r->rank.pid))
                pids << *r->rank.pid;
            if (!r->gpu.isEmpty() && !g.gpus.contains(r->gpu))
                g.gpus << r->gpu;
        }
        QString who =
            ranks.empty()       ? QCoreApplication::translate("rackscope", "process %1").arg(pids.value(0))
            : ranks.size() == 1 ? QCoreApplication::translate("rackscope", "rank %1").arg(ranks.front())
                                : QCoreApplication::translate("rackscope", "ranks %1").arg(rankRanges(ranks));
        QString where =
            first.server.isEmpty()
                ? QCoreApplication::translate("rackscope", "%1 (not among the servers shown)")
                      .arg(first.rank.host)
            : first.server == first.rank.host
                ? first.server
                : QCoreApplication::translate("rackscope", "%1 (%2)").arg(first.server, first.rank.host);
        where += gpuList(g.gpus);
        if (first.leaves.size() == 1)
            where += QCoreApplication::translate("rackscope", ", under leaf %1").arg(first.leaves.front());
        else if (first.leaves.size() > 1) // a rail-optimised fabric: a leaf per rail
            where += QCoreApplication::translate("rackscope", ", under %1 leaves").arg(first.leaves.size());
        g.text = QCoreApplication::translate("rackscope", "%1 on %2: %3").arg(who, where, first.state);
        if (!first.communicator.isEmpty())
            g.text += QCoreApplication::translate("rackscope", " (communicator %1)").arg(first.communicator);
        g.next = nextSteps(ws, findings, first, pids);
        v.groups.push_back(g);
    }
    std::stable_sort(
        v.groups.begin(), v.groups.end(),
        [](const RasGroupVerdict& a, const RasGroupVerdict& b) { return a.severe && !b.severe; });
    return v;
}

std::vector<JobMark> jobMarks(const RasVerdict& verdict) {
    std::vector<JobMark> marks;
    for (const RasGroupVerdict& g : verdict.groups)
        if (!g.server.isEmpty())
            marks.push_back({g.server, g.gpus, g.text});
    return marks;
}

} // namespace rackscope
