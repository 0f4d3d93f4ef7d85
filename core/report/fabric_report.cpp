#include "fabric_report.h"

#include "analysis/fabric_tiers.h"

#include <QJsonArray>
#include <QTextStream>

namespace rackscope {
namespace {

QString nameOf(const FabricNode& n) { return n.description.isEmpty() ? n.id : n.description; }

} // namespace

QJsonObject fabricToJson(const Fabric& f) {
    const auto tiers = inferSwitchTiers(f);
    QJsonArray switches, links, hosts, findings;
    for (const FabricNode& n : f.nodes) {
        if (n.kind == FabricNodeKind::Switch) {
            const auto t = tiers.find(n.id);
            switches.append(QJsonObject{{"id", n.id},
                                        {"name", nameOf(n)},
                                        {"tier", t == tiers.end() ? QJsonValue() : QJsonValue(tierName(t->second))},
                                        {"ports", n.ports > 0 ? QJsonValue(n.ports) : QJsonValue()}});
        } else {
            hosts.append(QJsonObject{{"id", n.id},
                                     {"host", n.host.isEmpty() ? QJsonValue() : QJsonValue(n.host)},
                                     {"device", n.device.isEmpty() ? QJsonValue() : QJsonValue(n.device)},
                                     {"description", n.description.isEmpty() ? QJsonValue() : QJsonValue(n.description)}});
        }
    }
    auto orNull = [](int port) { return port > 0 ? QJsonValue(port) : QJsonValue(); };
    auto textOrNull = [](const QString& s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); };
    for (const FabricLink& l : f.links)
        links.append(QJsonObject{{"a", l.a}, {"a_port", orNull(l.aPort)}, {"b", l.b}, {"b_port", orNull(l.bPort)},
                                 {"width", textOrNull(l.width)}, {"speed", textOrNull(l.speed)},
                                 {"state", QJsonValue()}}); // ibnetdiscover and topology.conf list only links that are up, and say no state
    for (const FabricDiagnostic& d : f.diagnostics)
        findings.append(QJsonObject{{"severity", "warning"},
                                    {"code", "fabric-source-line"},
                                    {"subjects", QJsonArray{QStringLiteral("line %1").arg(d.line)}},
                                    {"message", QStringLiteral("%1: %2 (line %3: %4)").arg(f.source, d.message).arg(d.line).arg(d.text)}});
    return {{"source", f.source}, {"switches", switches}, {"links", links}, {"hosts", hosts}, {"findings", findings}};
}

QString fabricToText(const Fabric& f) {
    QString text;
    QTextStream out(&text);
    const auto tiers = inferSwitchTiers(f);
    std::map<int, QStringList> byTier;
    int hosts = 0;
    for (const FabricNode& n : f.nodes) {
        if (n.kind == FabricNodeKind::Switch) {
            const auto t = tiers.find(n.id);
            byTier[t == tiers.end() ? 0 : t->second] << nameOf(n);
        } else {
            ++hosts;
        }
    }
    out << "== fabric  [" << f.source << "]\n";
    out << hosts << " hosts/adapters, " << f.links.size() << " links\n";
    for (auto it = byTier.rbegin(); it != byTier.rend(); ++it)
        out << (it->first ? tierName(it->first) : QStringLiteral("unconnected")) << " (" << it->second.size() << "): "
            << it->second.mid(0, 8).join(QStringLiteral(", ")) << (it->second.size() > 8 ? ", ..." : "") << "\n";
    for (const FabricDiagnostic& d : f.diagnostics)
        out << "[warning] line " << d.line << ": " << d.message << "\n";
    return text;
}

} // namespace rackscope
