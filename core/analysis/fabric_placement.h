#pragma once
// How far apart two servers are on the fabric, and groups of servers that
// stay under one leaf: where tensor- and expert-parallel groups belong, off
// the long links.
#include "analysis/fabric_analysis.h"

namespace rackscope {

class FabricDistances {
public:
    FabricDistances(const Fabric& fabric, const FabricAnalysis& analysis);
    // Switches a packet crosses on the shortest path between any port of a
    // and any port of b: 1 under a shared leaf, 3 through a spine. Empty when
    // either host is not on the fabric or no path joins them.
    std::optional<int> switchHops(const QString& a, const QString& b) const;

private:
    std::map<QString, const QStringList*> leaves_; // host -> the leaves it reaches
    std::map<QString, std::map<QString, int>>
        fromLeaf_; // leaf -> switch -> switches crossed, counting both ends
};

struct PlacementGroup {
    QStringList hosts;
    QStringList sharedLeaves;   // leaves every host in the group reaches (switch names)
    std::optional<int> maxHops; // the farthest pair in the group
    QString nvlinkDomain;       // the NVLink domain every host is in; empty when they are not in one
};

struct Placement {
    std::vector<PlacementGroup> groups;
    QStringList unplaced; // hosts the fabric does not know, or left over (fewer than a group)
};

// Groups of groupSize from `hosts`: hosts of one NVLink domain first (`nvlinkDomain`: host -> domain),
// then hosts that reach the same leaves, in natural order; the rest together, nearest first.
Placement proposeGroups(const Fabric& fabric, const FabricAnalysis& analysis, const QStringList& hosts,
                        int groupSize, const std::map<QString, QString>& nvlinkDomain = {});

} // namespace rackscope
