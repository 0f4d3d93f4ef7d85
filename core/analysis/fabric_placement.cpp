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
                        int groupSize, const std::map<QString, QString>& nvlinkDomain) {
    Placement out;
    if (groupSize <= 0)
        return out;
    const FabricDistances distances(f, analysis);
    const auto leavesOf = [&](const QString& h) {
        const FabricHost* fh = analysis.host(h);
        return fh ? fh->leaves : QStringList();
    };
    const auto domainOf = [&](const QString& h) {
        const auto it = nvlinkDomain.find(h);
        return it == nvlinkDomain.end() ? QString() : it->second;
    };
    auto finish = [&](const QStringList& hosts) {
        PlacementGroup g;
        g.hosts = hosts;
        g.nvlinkDomain = domainOf(hosts.front());
        for (const QString& h : hosts)
            if (domainOf(h) != g.nvlinkDomain)
                g.nvlinkDomain.clear();
        for (const QString& leaf : leavesOf(hosts.front())) {
            bool everyone = true;
            for (const QString& h : hosts)
                everyone = everyone && leavesOf(h).contains(leaf);
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
    // Hosts that reach the same leaves, in groups; what does not fill one is returned.
    auto byLeaves = [&](const QStringList& hosts) {
        std::map<QStringList, QStringList> same;
        for (const QString& h : hosts)
            same[leavesOf(h)] << h;
        QStringList rest;
        for (auto& [leaves, members] : same) {
            sortHostsNaturally(members);
            int i = 0;
            for (; i + groupSize <= members.size(); i += groupSize)
                finish(members.mid(i, groupSize));
            rest += members.mid(i);
        }
        return rest;
    };
    // Greedily the nearest hosts to the first one still free; what does not fill a group is returned.
    auto nearest = [&](QStringList rest) {
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
        return rest;
    };
    // An NVLink domain first (its servers reach each other over NVLink), then one leaf, then the nearest.
    std::map<QString, QStringList> byDomain; // "" : on no NVLink domain
    for (const QString& h : wanted) {
        const QString domain = domainOf(h);
        if (domain.isEmpty() && leavesOf(h).isEmpty())
            out.unplaced << h;
        else if (!byDomain[domain].contains(h))
            byDomain[domain] << h;
    }
    QStringList rest;
    for (const auto& [domain, hosts] : byDomain)
        rest += domain.isEmpty() ? byLeaves(hosts) : nearest(byLeaves(hosts));
    out.unplaced += nearest(rest);
    return out;
}

} // namespace rackscope
