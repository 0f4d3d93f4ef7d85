#include "slurm_topology_writer.h"

#include "analysis/fabric_tiers.h"
#include "model/hostlist.h"

#include <QRegularExpression>
#include <map>

namespace rackscope {

namespace {

struct SlurmSwitch {
    QString name, description;
    QStringList switches, hosts; // one tier down; servers it reaches
};

// Below each switch: the switches one tier down and the servers it reaches, each once however many cables
// join them, in the fabric's order. Ends that are not servers (SHARP aggregation nodes) are left out.
std::vector<SlurmSwitch> slurmTree(const Fabric& f) {
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
    std::vector<SlurmSwitch> out;
    for (const FabricNode& n : f.nodes) {
        if (n.kind != FabricNodeKind::Switch)
            continue;
        SlurmSwitch s{n.id, n.description, childSwitches[n.id], childHosts[n.id]};
        sortHostsNaturally(s.switches);
        sortHostsNaturally(s.hosts);
        out.push_back(std::move(s));
    }
    return out;
}

// A YAML scalar: plain where Slurm's own examples write it so (names and hostlists), else single-quoted.
QString yamlScalar(const QString& s) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_.][A-Za-z0-9_.,\\[\\]-]*$"));
    if (plain.match(s).hasMatch())
        return s;
    return QLatin1Char('\'') + QString(s).replace(QLatin1Char('\''), QStringLiteral("''")) +
           QLatin1Char('\'');
}

} // namespace

QString writeSlurmTopology(const Fabric& f) {
    QString out;
    for (const SlurmSwitch& s : slurmTree(f)) {
        if (!s.description.isEmpty())
            out += QStringLiteral("# %1=%2\n").arg(s.name, s.description);
        out += QStringLiteral("SwitchName=") + s.name;
        if (!s.switches.isEmpty())
            out += QStringLiteral(" Switches=") + compressHostlist(s.switches);
        if (!s.hosts.isEmpty())
            out += QStringLiteral(" Nodes=") + compressHostlist(s.hosts);
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

QString writeSlurmTopologyYaml(const Fabric& f) {
    const std::vector<SlurmSwitch> tree = slurmTree(f);
    const bool hasTree = !tree.empty(), hasBlocks = !f.blocks.empty();
    QString out = QStringLiteral("# Slurm topology.yaml (25.05 and later), written by rackscope from %1.\n")
                      .arg(f.source.isEmpty() ? QStringLiteral("a discovered fabric") : f.source);
    if (hasTree && hasBlocks)
        out += QStringLiteral(
            "# The block topology is the default; a partition takes the tree with Topology=tree.\n");
    out += QStringLiteral("---\n");
    if (hasTree) {
        out += QStringLiteral("- topology: tree\n  cluster_default: %1\n  tree:\n    switches:\n")
                   .arg(hasBlocks ? QStringLiteral("false") : QStringLiteral("true"));
        for (const SlurmSwitch& s : tree) {
            if (!s.description.isEmpty())
                out += QStringLiteral("      # %1\n")
                           .arg(QString(s.description).replace(QLatin1Char('\n'), QLatin1Char(' ')));
            out += QStringLiteral("      - switch: %1\n").arg(yamlScalar(s.name));
            if (!s.switches.isEmpty())
                out += QStringLiteral("        children: %1\n").arg(yamlScalar(compressHostlist(s.switches)));
            if (!s.hosts.isEmpty())
                out += QStringLiteral("        nodes: %1\n").arg(yamlScalar(compressHostlist(s.hosts)));
        }
    }
    if (hasBlocks) {
        out += QStringLiteral("- topology: block\n  cluster_default: true\n  block:\n");
        if (!f.blockSizes.empty()) {
            out += QStringLiteral("    block_sizes:\n");
            for (int size : f.blockSizes)
                out += QStringLiteral("      - %1\n").arg(size);
        }
        out += QStringLiteral("    blocks:\n");
        for (const FabricBlock& b : f.blocks) {
            if (!b.description.isEmpty())
                out += QStringLiteral("      # %1\n")
                           .arg(QString(b.description).replace(QLatin1Char('\n'), QLatin1Char(' ')));
            out += QStringLiteral("      - block: %1\n        nodes: %2\n")
                       .arg(yamlScalar(b.name), yamlScalar(compressHostlist(b.hosts)));
        }
    }
    return out;
}

} // namespace rackscope
