#include "fabric_placement.h"

#include "model/hostlist.h"

#include <deque>
#include <set>

namespace rackscope {

FabricDistances::FabricDistances(const Fabric& f, const FabricAnalysis& analysis) {
    std::map<QString, std::vector<QString>> neighbours;
    std::set<QString> switches;
    for (const FabricNode& n : f.nodes)
        if (n.kind == FabricNodeKind::Switch)
            switches.insert(n.id);
    for (const FabricLink& l : f.links)
        if (switches.count(l.a) && switches.count(l.b)) {
            neighbours[l.a].push_back(l.b);
            neighbours[l.b].push_back(l.a);
        }
    for (const FabricHost& h : analysis.hosts) {
        leaves_[h.name] = &h.leaves;
        for (const QString& leaf : h.leaves) {
            if (fromLeaf_.count(leaf))
                continue;
            std::map<QString, int>& dist = fromLeaf_[leaf];
            std::deque<QString> queue{leaf};
            dist[leaf] = 1;
            while (!queue.empty()) {
                const QString s = queue.front();
                queue.pop_front();
                for (const QString& n : neighbours[s])
                    if (!dist.count(n)) {
                        dist[n] = dist[s] + 1;
                        queue.push_back(n);
                    }
            }
        }
    }
}

std::optional<int> FabricDistances::switchHops(const QString& a, const QString& b) const {
    const auto ha = leaves_.find(a), hb = leaves_.find(b);
    if (ha == leaves_.end() || hb == leaves_.end())
        return std::nullopt;
    std::optional<int> best;
    for (const QString& la : *ha->second) {
        const auto& dist = fromLeaf_.at(la);
        for (const QString& lb : *hb->second)
            if (const auto it = dist.find(lb); it != dist.end() && (!best || it->second < *best))
                best = it->second;
    }
    return best;
}

Placement proposeGroups(const Fabric& f, const FabricAnalysis& analysis, const QStringList& wanted,
                        int groupSize) {
    Placement out;
    if (groupSize <= 0)
        return out;
    const FabricDistances distances(f, analysis);
    std::map<QStringList, QStringList> byLeaves; // the same leaves -> hosts
    for (const QString& h : wanted) {
        const FabricHost* fh = analysis.host(h);
        if (!fh || fh->leaves.isEmpty())
            out.unplaced << h;
        else if (!byLeaves[fh->leaves].contains(h))
            byLeaves[fh->leaves] << h;
    }
    auto finish = [&](QStringList hosts) {
        PlacementGroup g;
        g.hosts = hosts;
        const FabricHost* first = analysis.host(hosts.front());
        for (const QString& leaf : first->leaves) {
            bool everyone = true;
            for (const QString& h : hosts)
                everyone = everyone && analysis.host(h)->leaves.contains(leaf);
            if (everyone) {
                const FabricNode* n = f.node(leaf);
                g.sharedLeaves << (n ? switchName(*n) : leaf);
            }
        }
        for (int i = 0; i < hosts.size(); ++i)
            for (int j = i + 1; j < hosts.size(); ++j) {
                const auto d = distances.switchHops(hosts[i], hosts[j]);
                if (!d) {
                    g.maxHops.reset();
                    i = j = int(hosts.size());
                    break;
                }
                g.maxHops = std::max(g.maxHops.value_or(0), *d);
            }
        if (hosts.size() == 1)
            g.maxHops = 0;
        out.groups.push_back(g);
    };
    QStringList rest;
    for (auto& [leaves, hosts] : byLeaves) {
        sortHostsNaturally(hosts);
        int i = 0;
        for (; i + groupSize <= hosts.size(); i += groupSize)
            finish(hosts.mid(i, groupSize));
        rest += hosts.mid(i);
    }
    // What is left: greedily the nearest hosts to the first one still free.
    while (rest.size() >= groupSize) {
        const QString seed = rest.takeFirst();
        std::vector<std::pair<int, QString>> byDistance;
        for (const QString& h : rest)
            byDistance.emplace_back(distances.switchHops(seed, h).value_or(1 << 20), h);
        std::stable_sort(byDistance.begin(), byDistance.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        QStringList g{seed};
        rest.clear();
        for (const auto& [d, h] : byDistance)
            (g.size() < groupSize ? g : rest) << h;
        finish(g);
    }
    out.unplaced += rest;
    return out;
}

} // namespace rackscope
