#include "fabric_tiers.h"

#include <deque>
#include <set>

namespace rackscope {

std::map<QString, int> inferSwitchTiers(const Fabric& f, bool statedTiers) {
    std::map<QString, FabricNodeKind> kind;
    std::set<QString> hosts; // ends that are servers: not switches, not SHARP aggregation nodes
    for (const FabricNode& n : f.nodes) {
        kind[n.id] = n.kind;
        if (n.kind != FabricNodeKind::Switch && !n.host.isEmpty())
            hosts.insert(n.id);
    }
    auto isSwitch = [&](const QString& id) {
        auto it = kind.find(id);
        return it != kind.end() && it->second == FabricNodeKind::Switch;
    };
    std::map<QString, std::vector<QString>> neighbours;
    std::map<QString, int> tier;
    std::deque<QString> queue;
    for (const FabricLink& l : f.links) {
        const bool sa = isSwitch(l.a), sb = isSwitch(l.b);
        if (sa && sb) {
            neighbours[l.a].push_back(l.b);
            neighbours[l.b].push_back(l.a);
        } else if (sa != sb && hosts.count(sa ? l.b : l.a)) { // a switch with a server below it: a leaf
            const QString& sw = sa ? l.a : l.b;
            if (!tier.count(sw)) {
                tier[sw] = 1;
                queue.push_back(sw);
            }
        }
    }
    // Breadth first from the leaves: each switch is one tier above its nearest lower neighbour.
    while (!queue.empty()) {
        const QString s = queue.front();
        queue.pop_front();
        for (const QString& n : neighbours[s])
            if (!tier.count(n)) {
                tier[n] = tier[s] + 1;
                queue.push_back(n);
            }
    }
    if (statedTiers)
        for (const FabricNode& n : f.nodes)
            if (n.kind == FabricNodeKind::Switch && n.tier)
                tier[n.id] = *n.tier;
    return tier;
}

} // namespace rackscope
