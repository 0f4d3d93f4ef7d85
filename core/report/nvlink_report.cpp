#include "nvlink_report.h"

#include "finding_json.h"
#include "model/hostlist.h"

#include <QJsonArray>
#include <map>

namespace rackscope {
namespace {

QJsonValue orNull(const QString& s) {
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

QString gpuLine(const GpuFabricState& g) {
    QStringList parts;
    parts << (g.state.isEmpty() ? QStringLiteral("state not stated") : g.state);
    if (!g.status.isEmpty())
        parts << g.status;
    if (!g.health.isEmpty())
        parts << QStringLiteral("health %1").arg(g.health);
    if (!g.healthConditions.isEmpty())
        parts << g.healthConditions.join(QStringLiteral(", "));
    return QStringLiteral("%1: %2 (%3)").arg(g.label(), parts.join(QStringLiteral(", ")), g.source);
}

// Per GPU: "18 × 53.125 GB/s" or "17 active, link 5 inactive".
std::map<std::pair<QString, QString>, std::vector<const NvlinkLinkState*>> linksByGpu(const NvlinkFabric& f) {
    std::map<std::pair<QString, QString>, std::vector<const NvlinkLinkState*>> out;
    for (const NvlinkLinkState& l : f.links)
        out[{l.host, l.gpu}].push_back(&l);
    return out;
}

} // namespace

QString nvlinkToText(const NvlinkFabric& fabric, const std::vector<Finding>& findings) {
    QString out;
    const std::vector<NvlinkDomain> domains = nvlinkDomains(fabric);
    std::vector<bool> placed(fabric.gpus.size(), false);
    for (const NvlinkDomain& d : domains) {
        out += QStringLiteral("NVLink domain %1 (ClusterUUID %2, CliqueId %3): %4 GPU(s) on %5\n")
                   .arg(d.name(), d.clusterUuid)
                   .arg(d.cliqueId)
                   .arg(d.gpus.size())
                   .arg(d.hosts.isEmpty() ? QStringLiteral("a server the source does not name")
                                          : QStringLiteral("%1 server(s) %2")
                                                .arg(d.hosts.size())
                                                .arg(compressHostlist(d.hosts)));
        for (std::size_t i : d.gpus) {
            placed[i] = true;
            out += QStringLiteral("  %1\n").arg(gpuLine(fabric.gpus[i]));
        }
    }
    bool header = false;
    for (std::size_t i = 0; i < fabric.gpus.size(); ++i) {
        if (placed[i])
            continue;
        if (!header)
            out += QStringLiteral("GPUs in no NVLink domain (or whose source names none):\n");
        header = true;
        out += QStringLiteral("  %1\n").arg(gpuLine(fabric.gpus[i]));
    }
    for (const auto& [gpu, links] : linksByGpu(fabric)) {
        int active = 0;
        QStringList down, speeds;
        for (const NvlinkLinkState* l : links) {
            if (l->state == QLatin1String("active"))
                ++active;
            else
                down << QStringLiteral("link %1 %2")
                            .arg(l->link)
                            .arg(l->state.isEmpty() ? QStringLiteral("?") : l->state);
            if (l->gbPerSecond && !speeds.contains(QString::number(*l->gbPerSecond)))
                speeds << QString::number(*l->gbPerSecond);
        }
        out += QStringLiteral("NVLinks of %1: %2 listed, %3 active at %4 GB/s%5\n")
                   .arg((gpu.first + QLatin1Char(' ') + gpu.second).trimmed())
                   .arg(links.size())
                   .arg(active)
                   .arg(speeds.isEmpty() ? QStringLiteral("?") : speeds.join(QLatin1Char('/')))
                   .arg(down.isEmpty() ? QString() : QStringLiteral("; ") + down.join(QStringLiteral(", ")));
    }
    if (!fabric.links.empty() && fabric.gpus.empty())
        out +=
            QStringLiteral("Link speeds say the links trained, not that the GPUs joined their NVLink domain: "
                           "give `nvidia-smi -q` for that.\n");
    for (const ImexView& v : fabric.imex) {
        int ready = 0;
        for (const ImexNode& n : v.nodes)
            ready += n.status == QLatin1String("READY") ? 1 : 0;
        out += QStringLiteral("IMEX%1: %2 of %3 nodes READY, domain %4 (%5)\n")
                   .arg(v.host.isEmpty() ? QString() : QStringLiteral(" on ") + v.host)
                   .arg(ready)
                   .arg(v.nodes.size())
                   .arg(v.domainState.isEmpty() ? QStringLiteral("state not stated") : v.domainState)
                   .arg(v.source.isEmpty() ? v.unavailable : v.source);
    }
    for (const Finding& f : findings)
        out += QStringLiteral("[%1] %2: %3\n").arg(severityName(f.severity), f.code, f.message);
    return out;
}

QJsonObject nvlinkToJson(const NvlinkFabric& fabric, const std::vector<Finding>& findings) {
    QJsonArray domains;
    for (const NvlinkDomain& d : nvlinkDomains(fabric)) {
        QJsonArray gpus;
        for (std::size_t i : d.gpus)
            gpus.append(qint64(i));
        domains.append(QJsonObject{{"name", d.name()},
                                   {"cluster_uuid", d.clusterUuid},
                                   {"clique_id", qint64(d.cliqueId)},
                                   {"hosts", QJsonArray::fromStringList(d.hosts)},
                                   {"gpus", gpus}});
    }
    QJsonArray gpus;
    for (const GpuFabricState& g : fabric.gpus)
        gpus.append(
            QJsonObject{{"host", orNull(g.host)},
                        {"gpu", orNull(g.gpu)},
                        {"bus_id", orNull(g.busId)},
                        {"uuid", orNull(g.uuid)},
                        {"model", orNull(g.model)},
                        {"state", orNull(g.state)},
                        {"status", orNull(g.status)},
                        {"cluster_uuid", orNull(g.clusterUuid)},
                        {"clique_id", g.cliqueId ? QJsonValue(qint64(*g.cliqueId)) : QJsonValue()},
                        {"health", orNull(g.health)},
                        {"health_conditions", QJsonArray::fromStringList(g.healthConditions)},
                        {"health_mask", g.healthMask ? QJsonValue(qint64(*g.healthMask)) : QJsonValue()},
                        {"in_domain", g.inDomain()},
                        {"source", g.source}});
    QJsonArray links;
    for (const NvlinkLinkState& l : fabric.links) {
        QJsonObject errors;
        for (const auto& [name, value] : l.errors)
            errors.insert(name, qint64(value));
        links.append(QJsonObject{{"host", orNull(l.host)},
                                 {"gpu", l.gpu},
                                 {"link", l.link},
                                 {"state", orNull(l.state)},
                                 {"gb_per_s", l.gbPerSecond ? QJsonValue(*l.gbPerSecond) : QJsonValue()},
                                 {"remote", orNull(l.remote)},
                                 {"errors", errors},
                                 {"source", l.source}});
    }
    QJsonArray imex;
    for (const ImexView& v : fabric.imex) {
        QJsonArray nodes, matrix;
        for (const ImexNode& n : v.nodes)
            nodes.append(QJsonObject{{"index", n.index},
                                     {"address", n.address},
                                     {"status", n.status},
                                     {"version", orNull(n.version)}});
        for (const QStringList& row : v.connectivity)
            matrix.append(QJsonArray::fromStringList(row));
        imex.append(
            QJsonObject{{"host", orNull(v.host)},
                        {"taken", orNull(v.taken)},
                        {"nodes", nodes},
                        {"connectivity", matrix},
                        {"domain_state", orNull(v.domainState)},
                        {"channel_device", v.channelDevice ? QJsonValue(*v.channelDevice) : QJsonValue()},
                        {"unavailable", orNull(v.unavailable)},
                        {"source", orNull(v.source)}});
    }
    return {{"type", "rackscope-nvlink"},
            {"format", 1},
            {"domains", domains},
            {"gpus", gpus},
            {"links", links},
            {"imex", imex},
            {"sources", QJsonArray::fromStringList(fabric.sources)},
            {"findings", findingsToJson(findings)}};
}

} // namespace rackscope
