#include "slurm_topology_writer.h"

#include "analysis/fabric_tiers.h"
#include "model/hostlist.h"

#include <map>

namespace rackscope {

QString writeSlurmTopology(const Fabric& f) {
    QString out;
    // Below each switch: the switches one tier down and the servers it reaches,
    // each once however many cables join them. Ends that are not servers
    // (SHARP aggregation nodes) are left out.
    const auto tiers = inferSwitchTiers(f);
    std::map<QString, QStringList> childSwitches, childHosts;
    auto addOnce = [](QStringList& list, const QString& name) {
        if (!list.contains(name))
            list << name;
    };
    const FabricNodeIndex node(f);
    for (const FabricLink& l : f.links) {
        const FabricNode* a = node(l.a);
        const FabricNode* b = node(l.b);
        if (!a || !b)
            continue;
        const bool sa = a->kind == FabricNodeKind::Switch, sb = b->kind == FabricNodeKind::Switch;
        if (sa && sb) {
            const auto ta = tiers.find(l.a), tb = tiers.find(l.b);
            if (ta == tiers.end() || tb == tiers.end() || ta->second == tb->second)
                continue;
            if (ta->second > tb->second)
                addOnce(childSwitches[l.a], l.b);
            else
                addOnce(childSwitches[l.b], l.a);
        } else if (sa != sb) {
            const FabricNode* end = sa ? b : a;
            if (!end->host.isEmpty())
                addOnce(childHosts[sa ? l.a : l.b], end->host);
        }
    }
    for (const FabricNode& n : f.nodes) {
        if (n.kind != FabricNodeKind::Switch)
            continue;
        if (!n.description.isEmpty())
            out += QStringLiteral("# %1=%2\n").arg(n.id, n.description);
        out += QStringLiteral("SwitchName=") + n.id;
        for (auto* list : {&childSwitches, &childHosts})
            if (list->count(n.id))
                sortHostsNaturally((*list)[n.id]);
        if (childSwitches.count(n.id))
            out += QStringLiteral(" Switches=") + compressHostlist(childSwitches[n.id]);
        if (childHosts.count(n.id))
            out += QStringLiteral(" Nodes=") + compressHostlist(childHosts[n.id]);
        out += QLatin1Char('\n');
    }
    for (const FabricBlock& b : f.blocks) {
        if (!b.description.isEmpty())
            out += QStringLiteral("# %1=%2\n").arg(b.name, b.description);
        out += QStringLiteral("BlockName=%1 Nodes=%2\n").arg(b.name, compressHostlist(b.hosts));
    }
    if (!f.blockSizes.empty()) {
        QStringList sizes;
        for (int s : f.blockSizes)
            sizes << QString::number(s);
        out += QStringLiteral("BlockSizes=") + sizes.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace rackscope
