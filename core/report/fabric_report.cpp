#include "fabric_report.h"

#include "analysis/fabric_tiers.h"
#include "analysis/findings.h"
#include "finding_json.h"
#include "model/json_values.h"

#include <QJsonArray>
#include <QTextStream>
#include <set>

namespace rackscope {
namespace {

// Port numbers stay numbers; named Ethernet ports stay names.
QJsonValue portJson(const QString& port) {
    bool ok = false;
    const int n = port.toInt(&ok);
    return ok ? QJsonValue(n) : orNull(port);
}
QString tierOf(const FabricAnalysis& a, const QString& id) {
    const auto t = a.tiers.find(id);
    return t == a.tiers.end() ? QString() : tierName(t->second);
}
QString nameOf(const FabricNodeIndex& node, const QString& id) {
    const FabricNode* n = node(id);
    return n ? switchName(*n) : id;
}

} // namespace

QJsonObject fabricToJson(const Fabric& f, const FabricAnalysis& a) {
    const FabricNodeIndex node(f);
    QJsonArray switches, links, hosts, other, rails, leaves, findings;
    for (const FabricNode& n : f.nodes) {
        if (n.kind == FabricNodeKind::Switch)
            switches.append(QJsonObject{{"id", n.id},
                                        {"name", switchName(n)},
                                        {"description", orNull(n.description)},
                                        {"guid", orNull(n.guid)},
                                        {"tier", orNull(tierOf(a, n.id))},
                                        {"ports", n.ports > 0 ? QJsonValue(n.ports) : QJsonValue()}});
        else if (n.host.isEmpty())
            other.append(
                QJsonObject{{"id", n.id}, {"description", orNull(n.description)}, {"guid", orNull(n.guid)}});
    }
    for (const FabricLink& l : f.links)
        links.append(QJsonObject{
            {"a", l.a},
            {"a_port", portJson(l.aPort)},
            {"b", l.b},
            {"b_port", portJson(l.bPort)},
            {"width", orNull(l.width)},
            {"speed", orNull(l.speed)},
            {"gbps", orNull(linkGbps(l.width, l.speed))},
            {"state", orNull(l.state)},
            {"a_mtu", orNull(l.aMtu)},
            {"b_mtu", orNull(l.bMtu)},
            {"expected_width", orNull(l.expectedWidth.isEmpty() ? f.expectedWidth : l.expectedWidth)},
            {"expected_speed", orNull(l.expectedSpeed.isEmpty() ? f.expectedSpeed : l.expectedSpeed)}});
    for (const FabricHost& h : a.hosts) {
        QJsonArray nics;
        for (const HostPort& p : h.ports)
            nics.append(QJsonObject{{"node", p.node},
                                    {"device", orNull(p.device)},
                                    {"port", portJson(p.port)},
                                    {"switch", p.switchId},
                                    {"switch_port", portJson(p.switchPort)}});
        QStringList leafNames;
        for (const QString& l : h.leaves)
            leafNames << nameOf(node, l);
        hosts.append(
            QJsonObject{{"name", h.name}, {"nics", nics}, {"leaves", QJsonArray::fromStringList(leafNames)}});
    }
    for (const Rail& r : a.rails)
        rails.append(QJsonObject{{"device", r.device},
                                 {"leaves", QJsonArray::fromStringList(r.leaves)},
                                 {"host_ports", r.hostPorts}});
    for (const LeafLoad& l : a.leaves)
        leaves.append(QJsonObject{{"switch", l.leaf},
                                  {"name", nameOf(node, l.leaf)},
                                  {"downlinks", l.downlinks},
                                  {"uplinks", l.uplinks},
                                  {"down_gbps", orNull(l.downGbps)},
                                  {"up_gbps", orNull(l.upGbps)},
                                  {"oversubscription", orNull(l.ratio())}});
    for (const Finding& x : a.findings)
        findings.append(findingToJson(x));
    return {{"source", f.source},   {"switches", switches}, {"links", links},   {"hosts", hosts},
            {"other_nodes", other}, {"rails", rails},       {"leaves", leaves}, {"findings", findings}};
}

QString fabricToText(const Fabric& f, const FabricAnalysis& a) {
    const FabricNodeIndex node(f);
    QString text;
    QTextStream out(&text);
    std::map<int, QStringList> byTier;
    for (const FabricNode& n : f.nodes) {
        if (n.kind != FabricNodeKind::Switch)
            continue;
        const auto t = a.tiers.find(n.id);
        byTier[t == a.tiers.end() ? 0 : t->second] << switchName(n);
    }
    out << "== fabric  [" << f.source << "]\n";
    out << a.hosts.size() << " hosts, " << f.links.size() << " links\n";
    for (auto it = byTier.rbegin(); it != byTier.rend(); ++it)
        out << (it->first ? tierName(it->first) : QStringLiteral("unconnected")) << " (" << it->second.size()
            << "): " << it->second.mid(0, 8).join(QStringLiteral(", "))
            << (it->second.size() > 8 ? ", ..." : "") << "\n";
    // Links by the tiers they join and their rate: "server-leaf: 4xNDR x582".
    auto level = [&](const QString& id) -> std::pair<int, QString> {
        const FabricNode* n = node(id);
        if (n && n->kind != FabricNodeKind::Switch)
            return n->host.isEmpty() ? std::pair(99, QStringLiteral("other"))
                                     : std::pair(0, QStringLiteral("server"));
        const auto t = a.tiers.find(id);
        return t == a.tiers.end() ? std::pair(98, QStringLiteral("switch"))
                                  : std::pair(t->second, tierName(t->second));
    };
    std::map<std::pair<int, int>, std::pair<QString, std::map<QString, int>>> linksByTiers;
    for (const FabricLink& l : f.links) {
        auto la = level(l.a), lb = level(l.b);
        if (lb.first < la.first)
            std::swap(la, lb);
        auto& [name, rates] = linksByTiers[{la.first, lb.first}];
        name = la.second + QLatin1Char('-') + lb.second;
        const QString rate = l.width + l.speed;
        rates[rate.isEmpty() ? QStringLiteral("rate unknown") : rate]++;
    }
    for (const auto& [key, entry] : linksByTiers) {
        const auto& [name, rates] = entry;
        out << "links " << name << ":";
        for (const auto& [rate, n] : rates)
            out << " " << rate << " x" << n;
        out << "\n";
    }
    if (!a.rails.empty()) {
        out << "rails:\n";
        for (const Rail& r : a.rails)
            out << "  " << r.device << ": " << r.leaves.join(QStringLiteral(", ")) << "\n";
    }
    std::map<QString, int> ratios; // "2:1" -> leaves
    int unknown = 0;
    for (const LeafLoad& l : a.leaves) {
        if (const auto r = l.ratio())
            ratios[QStringLiteral("%1:1").arg(*r, 0, 'g', 3)]++;
        else
            ++unknown;
    }
    if (!a.leaves.empty()) {
        out << "leaf oversubscription (downlink:uplink):";
        for (const auto& [ratio, n] : ratios)
            out << " " << ratio << " x" << n;
        if (unknown)
            out << " unknown x" << unknown;
        out << "\n";
    }
    if (a.findings.empty())
        out << "No findings.\n";
    for (const Finding& x : a.findings)
        out << "[" << severityName(x.severity) << "] " << x.code << ": " << x.message << "\n";
    return text;
}

QString fabricToDot(const Fabric& f, const FabricAnalysis& a) {
    const FabricNodeIndex node(f);
    auto quote = [](QString s) {
        return QLatin1Char('"') +
               s.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
                   .replace(QLatin1Char('"'), QLatin1String("\\\"")) +
               QLatin1Char('"');
    };
    std::set<QString> flagged; // nodes some finding names
    for (const Finding& x : a.findings)
        if (x.code == QLatin1String(codes::kFabricRailBreak) ||
            x.code == QLatin1String(codes::kFabricHostLeafCount))
            flagged.insert(x.subjects.value(0));
    QString out;
    QTextStream s(&out);
    s << "// rackscope fabric: " << f.source << "\n";
    s << "graph fabric {\n  rankdir=BT;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge "
         "[fontname=\"Helvetica\", fontsize=8];\n";
    std::map<int, QStringList> byTier;
    for (const FabricNode& n : f.nodes)
        if (n.kind == FabricNodeKind::Switch) {
            const auto t = a.tiers.find(n.id);
            byTier[t == a.tiers.end() ? 0 : t->second] << n.id;
            s << "  " << quote(n.id)
              << " [shape=box, style=filled, fillcolor=\"#dbe8f7\", label=" << quote(switchName(n)) << "];\n";
        }
    for (const auto& [tier, ids] : byTier) {
        s << "  { rank=same;";
        for (const QString& id : ids)
            s << " " << quote(id) << ";";
        s << " }\n";
    }
    // Servers as one node each; their ports are the edges' labels.
    std::map<QString, QString> hostOf;
    for (const FabricNode& n : f.nodes)
        if (n.kind != FabricNodeKind::Switch && !n.host.isEmpty())
            hostOf[n.id] = n.host;
    s << "  { rank=same;";
    for (const FabricHost& h : a.hosts)
        s << " " << quote(QStringLiteral("host:") + h.name) << ";";
    s << " }\n";
    for (const FabricHost& h : a.hosts)
        s << "  " << quote(QStringLiteral("host:") + h.name) << " [shape=ellipse, label=" << quote(h.name)
          << (flagged.count(h.name) ? ", color=\"#d62728\", penwidth=2" : "") << "];\n";
    struct Edge {
        int cables = 0;
        QString rate;
        bool mixed = false, down = false;
        QStringList devices;
    };
    std::map<std::pair<QString, QString>, Edge> edges;
    for (const FabricLink& l : f.links) {
        auto end = [&](const QString& id) {
            return hostOf.count(id) ? QStringLiteral("host:") + hostOf[id] : id;
        };
        const FabricNode *na = node(l.a), *nb = node(l.b);
        if (!na || !nb || (!hostOf.count(l.a) && na->kind != FabricNodeKind::Switch) ||
            (!hostOf.count(l.b) && nb->kind != FabricNodeKind::Switch))
            continue; // SHARP aggregation nodes and dangling ends
        const QString ea = end(l.a), eb = end(l.b);
        Edge& e = edges[std::pair<QString, QString>(std::min(ea, eb), std::max(ea, eb))];
        const QString rate = l.width + l.speed;
        if (e.cables++ && rate != e.rate)
            e.mixed = true;
        e.rate = rate;
        e.down = e.down || l.state == QLatin1String("down") || l.state == QLatin1String("missing");
        if (const FabricNode* n = hostOf.count(l.a) ? na : nb; n && !n->device.isEmpty())
            e.devices << n->device;
    }
    for (const auto& [ends, e] : edges) {
        QString label = e.mixed ? QStringLiteral("mixed") : e.rate;
        if (e.cables > 1)
            label = QStringLiteral("%1x %2").arg(e.cables).arg(label);
        if (!e.devices.isEmpty())
            label = e.devices.join(QLatin1Char(',')) +
                    (label.isEmpty() ? QString() : QStringLiteral(" ") + label);
        s << "  " << quote(ends.first) << " -- " << quote(ends.second) << " [label=" << quote(label.trimmed())
          << (e.down ? ", color=\"#d62728\", style=dashed" : "") << (e.mixed ? ", color=\"#ff7f0e\"" : "")
          << "];\n";
    }
    s << "}\n";
    return out;
}

QJsonObject switchHopsToJson(const QString& a, const QString& b, const std::optional<int>& hops) {
    return {{"a", a}, {"b", b}, {"switch_hops", orNull(hops)}};
}

QJsonObject placementToJson(int groupSize, const Placement& placement) {
    QJsonArray groups;
    for (const PlacementGroup& g : placement.groups)
        groups.append(QJsonObject{
            {"hosts", QJsonArray::fromStringList(g.hosts)},
            {"shared_leaves", QJsonArray::fromStringList(g.sharedLeaves)},
            {"max_switch_hops", orNull(g.maxHops)},
            {"nvlink_domain", g.nvlinkDomain.isEmpty() ? QJsonValue() : QJsonValue(g.nvlinkDomain)}});
    return {{"group_size", groupSize},
            {"groups", groups},
            {"unplaced", QJsonArray::fromStringList(placement.unplaced)}};
}

} // namespace rackscope
