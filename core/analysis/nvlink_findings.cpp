#include "nvlink_findings.h"

#include "model/hostlist.h"

#include <QCoreApplication>
#include <map>
#include <set>

namespace rackscope {
namespace {

Finding finding(Severity s, const char* code, QStringList subjects, FindingText text, FindingTarget target) {
    return makeFinding(s, QLatin1String(code), std::move(subjects), std::move(text), std::move(target));
}

bool stated(const QString& value) {
    return !value.isEmpty() && value != QLatin1String("N/A");
}

// What the source said of a GPU's registration, for the evidence: "CliqueId 0, ClusterUUID all zeros".
QString registration(const GpuFabricState& g) {
    QStringList parts;
    if (g.cliqueId)
        parts << QStringLiteral("CliqueId %1").arg(*g.cliqueId);
    if (!g.clusterUuid.isEmpty())
        parts << (isZeroUuid(g.clusterUuid) ? QStringLiteral("ClusterUUID all zeros")
                                            : QStringLiteral("ClusterUUID %1").arg(g.clusterUuid));
    return parts.join(QStringLiteral(", "));
}

// States a registration (a clique or cluster), so that its absence from every domain means something.
bool statesRegistration(const GpuFabricState& g) {
    return g.cliqueId.has_value() || !g.clusterUuid.isEmpty();
}

void readiness(const GpuFabricState& g, std::vector<Finding>* out) {
    if (g.state == QLatin1String("Not Supported") || (!stated(g.state) && !stated(g.status)))
        return;
    QStringList wrong;
    if (stated(g.state) && g.state != QLatin1String("Completed"))
        wrong << QStringLiteral("state %1").arg(g.state);
    if (stated(g.status) && g.status != QLatin1String("Success"))
        wrong << QStringLiteral("status %1").arg(g.status);
    if (wrong.isEmpty())
        return;
    if (statesRegistration(g))
        wrong << registration(g);
    out->push_back(
        finding(Severity::Error, codes::kNvlinkFabricNotReady, {g.label()},
                {QT_TRANSLATE_NOOP("rackscope",
                                   "%1 is not registered with its NVLink domain (%2; from %3): its "
                                   "peers cannot reach it over NVLink, and a job that spans it runs "
                                   "slow or hangs. Check the fabric manager and the NVLink switch trays."),
                 {g.label(), wrong.join(QStringLiteral(", ")), g.source}},
                serverTarget(g.host, {g.device()})));
}

void health(const GpuFabricState& g, std::vector<Finding>* out) {
    const bool unhealthy = g.health == QLatin1String("Unhealthy");
    const bool limited = g.health == QLatin1String("Limited Capacity");
    if (!unhealthy && !limited && g.healthConditions.isEmpty())
        return;
    const QString why =
        !g.healthConditions.isEmpty()
            ? g.healthConditions.join(QStringLiteral(", "))
            : QStringLiteral("the source names no condition: %1")
                  .arg(g.healthDetails.isEmpty() ? QStringLiteral("no detail")
                                                 : g.healthDetails.join(QStringLiteral(", ")));
    out->push_back(finding(
        limited && g.healthConditions.isEmpty() ? Severity::Warning : Severity::Error,
        codes::kNvlinkFabricUnhealthy, {g.label()},
        {QT_TRANSLATE_NOOP("rackscope", "%1's NVLink fabric health is %2 (%3; from %4), although its "
                                        "links may all show their full speed: NVLink traffic to its peers "
                                        "is degraded or lost."),
         {g.label(), g.health.isEmpty() ? QStringLiteral("not stated") : g.health, why, g.source}},
        serverTarget(g.host, {g.device()})));
}

// "dc6e40c4/2 (GPU0, GPU1), dc6e40c4/3 (GPU2)"; a count where the source numbers no GPU.
QString domainList(const std::map<QString, QStringList>& members) {
    QStringList parts;
    for (const auto& [domain, who] : members)
        parts << QStringLiteral("%1 (%2)").arg(domain, who.contains(QString())
                                                           ? QStringLiteral("%1 GPU(s)").arg(who.size())
                                                           : who.join(QStringLiteral(", ")));
    return parts.join(QStringLiteral(", "));
}

QString serversIn(const std::map<QString, QStringList>& members) {
    QStringList parts;
    for (const auto& [domain, who] : members)
        parts << QStringLiteral("%1 (%2)").arg(domain, compressHostlist(who));
    return parts.join(QStringLiteral(", "));
}

void splits(const NvlinkFabric& f, const std::vector<FabricBlock>& racks, std::vector<Finding>* out) {
    const std::vector<NvlinkDomain> domains = nvlinkDomains(f);
    std::map<std::size_t, QString> domainOfGpu;
    for (const NvlinkDomain& d : domains)
        for (std::size_t i : d.gpus)
            domainOfGpu[i] = d.name();
    // A server's GPUs in several domains, or some in none while the others are in one.
    std::map<QString, std::map<QString, QStringList>> byHost; // host -> domain -> GPUs
    std::map<QString, std::vector<std::size_t>> outside;      // host -> GPUs that state no domain
    for (std::size_t i = 0; i < f.gpus.size(); ++i) {
        const GpuFabricState& g = f.gpus[i];
        if (const auto it = domainOfGpu.find(i); it != domainOfGpu.end())
            byHost[g.host][it->second] << g.device();
        else if (statesRegistration(g))
            outside[g.host].push_back(i);
    }
    for (const auto& [host, members] : byHost) {
        if (members.size() > 1)
            out->push_back(finding(
                Severity::Error, codes::kNvlinkDomainSplit, {host},
                {QT_TRANSLATE_NOOP("rackscope", "%1's GPUs are in %2 NVLink domains: %3. A job on this "
                                                "server cannot keep its tensor-parallel group on NVLink."),
                 {host.isEmpty() ? QStringLiteral("One server") : host, QString::number(members.size()),
                  domainList(members)}},
                serverTarget(host)));
    }
    if (!domains.empty())
        for (const auto& [host, gpus] : outside)
            for (std::size_t i : gpus) {
                const GpuFabricState& g = f.gpus[i];
                const auto peers = byHost.find(host);
                QStringList where;
                if (peers != byHost.end())
                    for (const auto& [name, devices] : peers->second)
                        where << name;
                else
                    for (const NvlinkDomain& d : domains)
                        where << d.name();
                out->push_back(finding(
                    Severity::Error, codes::kNvlinkDomainSplit, {g.label()},
                    {QT_TRANSLATE_NOOP("rackscope", "%1 is outside every NVLink domain (%2; from %3) while "
                                                    "its peers are in %4: it fell out of its domain."),
                     {g.label(), registration(g), g.source, where.join(QStringLiteral(", "))}},
                    serverTarget(g.host, {g.device()})));
            }
    // Racks of the design whose servers registered with different domains.
    const std::map<QString, QString> hostDomain = hostDomains(f);
    for (const FabricBlock& rack : racks) {
        std::map<QString, QStringList> members;
        for (const QString& h : rack.hosts)
            if (const auto it = hostDomain.find(h); it != hostDomain.end())
                members[it->second] << h;
        if (members.size() > 1)
            out->push_back(finding(
                Severity::Error, codes::kNvlinkDomainSplit, {rack.name},
                {QT_TRANSLATE_NOOP("rackscope", "%1 (%2) is one NVLink rack in the design, but its servers "
                                                "registered with %3 domains: %4."),
                 {rack.name, compressHostlist(rack.hosts), QString::number(members.size()),
                  serversIn(members)}},
                {}));
    }
}

QString codeMeaning(const QString& code) {
    static const std::map<QString, QString> meanings{
        {QStringLiteral("N"), QStringLiteral("never connected")},
        {QStringLiteral("I"), QStringLiteral("invalid: not reachable")},
        {QStringLiteral("R"), QStringLiteral("recovering: connection lost")},
        {QStringLiteral("D"), QStringLiteral("disconnected")},
        {QStringLiteral("A"), QStringLiteral("authenticating")},
        {QStringLiteral("!V!"), QStringLiteral("version mismatch")},
        {QStringLiteral("!M!"), QStringLiteral("node map mismatch")}};
    const auto it = meanings.find(code);
    return it == meanings.end() ? code : it->second;
}

void imex(const ImexView& v, std::vector<Finding>* out) {
    const QString daemon =
        v.host.isEmpty() ? QStringLiteral("the IMEX daemon") : QStringLiteral("%1's IMEX daemon").arg(v.host);
    auto add = [&](const QString& what) {
        out->push_back(finding(Severity::Error, codes::kImexPeerDown, {v.host},
                               {QT_TRANSLATE_NOOP("rackscope", "%1 reports %2 (from %3): memory shared over "
                                                               "NVLink between these servers fails."),
                                {daemon, what, v.source}},
                               serverTarget(v.host)));
    };
    auto nodeName = [&](int index) {
        for (const ImexNode& n : v.nodes)
            if (n.index == index)
                return QStringLiteral("node #%1 (%2)").arg(index).arg(n.address);
        return QStringLiteral("node #%1").arg(index);
    };
    for (const ImexNode& n : v.nodes)
        if (n.status != QLatin1String("READY"))
            add(QStringLiteral("%1 as %2").arg(nodeName(n.index), n.status));
    QStringList pairs;
    for (std::size_t from = 0; from < v.connectivity.size(); ++from)
        for (int to = 0; to < v.connectivity[from].size(); ++to)
            if (v.connectivity[from][to] != QLatin1String("C"))
                pairs << QStringLiteral("%1 to %2: %3")
                             .arg(nodeName(int(from)), nodeName(to), codeMeaning(v.connectivity[from][to]));
    if (!pairs.isEmpty()) {
        const qsizetype shown = std::min<qsizetype>(pairs.size(), 6);
        add(QStringLiteral("%1 connection(s) not connected: %2%3")
                .arg(pairs.size())
                .arg(pairs.mid(0, shown).join(QStringLiteral("; ")))
                .arg(pairs.size() > shown ? QStringLiteral("; …") : QString()));
    }
    if (!v.domainState.isEmpty() && v.domainState != QLatin1String("UP"))
        add(QStringLiteral("the domain as %1").arg(v.domainState));
    if (!v.unavailable.isEmpty())
        add(QStringLiteral("no view of its peers: %1").arg(v.unavailable));
    if (v.channelDevice == false)
        add(QStringLiteral("no /dev/nvidia-caps-imex-channels, so no job can import memory through it"));
}

// nvidia-smi lists every link of a GPU, "<inactive>" for one that did not train; a listing cut short is
// not a link down.
void links(const NvlinkFabric& f, std::vector<Finding>* out) {
    std::map<std::pair<QString, QString>, std::pair<QStringList, int>> perGpu; // (host, gpu) -> down, listed
    for (const NvlinkLinkState& l : f.links) {
        auto& [down, listed] = perGpu[{l.host, l.gpu}];
        ++listed;
        if (!l.state.isEmpty() && l.state != QLatin1String("active"))
            down << QString::number(l.link);
    }
    for (const auto& [gpu, n] : perGpu) {
        if (n.first.isEmpty())
            continue;
        const QString label = gpu.first.isEmpty() ? gpu.second : gpu.first + QLatin1Char(' ') + gpu.second;
        out->push_back(
            finding(Severity::Warning, codes::kNvlinkLinkInactive, {label},
                    {QT_TRANSLATE_NOOP("rackscope", "%1 has %2 of its %3 NVLinks not active (link %4): "
                                                    "its NVLink bandwidth is cut."),
                     {label, QString::number(n.first.size()), QString::number(n.second),
                      n.first.join(QStringLiteral(", "))}},
                    serverTarget(gpu.first, {gpu.second})));
    }
}

} // namespace

std::vector<Finding> nvlinkFindings(const NvlinkFabric& fabric, const std::vector<FabricBlock>& racks) {
    std::vector<Finding> out;
    for (const GpuFabricState& g : fabric.gpus) {
        readiness(g, &out);
        health(g, &out);
    }
    splits(fabric, racks, &out);
    for (const ImexView& v : fabric.imex)
        imex(v, &out);
    links(fabric, &out);
    return out;
}

std::vector<Finding> nvlinkErrorFindings(const NvlinkFabric& before, const NvlinkFabric& after) {
    std::map<std::tuple<QString, QString, int>, const NvlinkLinkState*> first;
    for (const NvlinkLinkState& l : before.links)
        first[{l.host, l.gpu, l.link}] = &l;
    std::vector<Finding> out;
    for (const NvlinkLinkState& l : after.links) {
        const auto it = first.find({l.host, l.gpu, l.link});
        if (it == first.end())
            continue;
        QStringList grew;
        for (const auto& [counter, value] : l.errors)
            if (const auto was = it->second->errors.find(counter);
                was != it->second->errors.end() && value > was->second)
                grew << QStringLiteral("%1 +%2").arg(counter).arg(value - was->second);
        if (grew.isEmpty())
            continue;
        const QString label = QStringLiteral("%1 %2 link %3").arg(l.host, l.gpu).arg(l.link).trimmed();
        out.push_back(
            finding(Severity::Warning, codes::kNvlinkErrorsRising, {label},
                    {QT_TRANSLATE_NOOP("rackscope", "%1 counted NVLink errors during the sample (%2): "
                                                    "the link retrains or replays, and its traffic slows."),
                     {label, grew.join(QStringLiteral(", "))}},
                    serverTarget(l.host, {l.gpu})));
    }
    return out;
}

} // namespace rackscope
