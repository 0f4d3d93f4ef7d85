#pragma once
#include "analysis/finding.h"

#include <QJsonArray>
#include <QJsonObject>
#include <vector>

namespace rackscope {

// The finding shape every report shares: {"severity", "code", "subjects", "message"}, with "params" (the
// values in the message, in order) and "target" ({"host", "devices", "links", "nodes", "peers"}, each only
// when given).
inline QJsonObject findingToJson(const Finding& f) {
    QJsonObject o{{"severity", severityName(f.severity)},
                  {"code", f.code},
                  {"subjects", QJsonArray::fromStringList(f.subjects)},
                  {"message", f.message}};
    if (!f.text.source.isEmpty())
        o.insert("params", QJsonArray::fromStringList(f.text.args));
    const FindingTarget& t = f.target;
    QJsonObject target;
    if (!t.host.isEmpty())
        target.insert("host", t.host);
    if (!t.devices.isEmpty())
        target.insert("devices", QJsonArray::fromStringList(t.devices));
    if (!t.links.empty()) {
        QJsonArray links;
        for (std::size_t l : t.links)
            links.append(qint64(l));
        target.insert("links", links);
    }
    if (!t.nodes.isEmpty())
        target.insert("nodes", QJsonArray::fromStringList(t.nodes));
    if (!t.peers.isEmpty())
        target.insert("peers", QJsonArray::fromStringList(t.peers));
    if (!target.isEmpty())
        o.insert("target", target);
    return o;
}

inline QJsonArray findingsToJson(const std::vector<Finding>& findings) {
    QJsonArray out;
    for (const Finding& f : findings)
        out.append(findingToJson(f));
    return out;
}

} // namespace rackscope
