#include "slurm_topology_check.h"

#include "model/hostlist.h"

#include <map>
#include <set>

namespace rackscope {
namespace {

Finding finding(Severity s, const char* code, QStringList subjects, FindingText text) {
    return makeFinding(s, QLatin1String(code), std::move(subjects), std::move(text));
}

QString groups(const std::map<QString, QStringList>& members) {
    QStringList parts;
    for (const auto& [name, hosts] : members)
        parts << QStringLiteral("%1 (%2)").arg(name, compressHostlist(hosts));
    return parts.join(QStringLiteral(", "));
}

void checkBlocks(const Fabric& declared, const NvlinkFabric& nvlink, std::vector<Finding>* out) {
    const std::map<QString, QString> domainOf = hostDomains(nvlink);
    std::map<QString, QString> blockOf;
    for (const FabricBlock& b : declared.blocks) {
        std::map<QString, QStringList> domains;
        for (const QString& h : b.hosts) {
            blockOf[h] = b.name;
            if (const auto it = domainOf.find(h); it != domainOf.end())
                domains[it->second] << h;
        }
        if (domains.size() > 1)
            out->push_back(finding(
                Severity::Error, codes::kSlurmBlockSpansDomains, {b.name},
                {QT_TRANSLATE_NOOP("rackscope", "Block %1 spans %2 NVLink domains: %3. A job "
                                                "Slurm places in it cannot keep its traffic on NVLink."),
                 {b.name, QString::number(domains.size()), groups(domains)}}));
    }
    // Each domain belongs to the block that holds most of its servers; the others are misplaced.
    std::map<QString, QStringList> domainHosts;
    for (const auto& [host, domain] : domainOf)
        domainHosts[domain] << host;
    for (auto& [domain, hosts] : domainHosts) {
        sortHostsNaturally(hosts);
        std::map<QString, QStringList> byBlock;
        QStringList none;
        for (const QString& h : hosts) {
            if (const auto it = blockOf.find(h); it != blockOf.end())
                byBlock[it->second] << h;
            else
                none << h;
        }
        if (!none.isEmpty() && !declared.blocks.empty())
            out->push_back(finding(
                Severity::Warning, codes::kSlurmServerNoBlock, none,
                {QT_TRANSLATE_NOOP("rackscope", "%1 of NVLink domain %2 is in no block: Slurm's "
                                                "topology/block will not place jobs on it with its domain."),
                 {compressHostlist(none), domain}}));
        if (byBlock.size() < 2)
            continue;
        const auto home = std::max_element(byBlock.begin(), byBlock.end(), [](const auto& a, const auto& b) {
            return a.second.size() < b.second.size();
        });
        for (const auto& [block, misplaced] : byBlock)
            if (block != home->first)
                out->push_back(
                    finding(Severity::Error, codes::kSlurmServerWrongBlock, misplaced,
                            {QT_TRANSLATE_NOOP("rackscope", "%1 is in block %2, but its NVLink domain %3 "
                                                            "is block %4's (%5 of its servers)."),
                             {compressHostlist(misplaced), block, domain, home->first,
                              QString::number(home->second.size())}}));
    }
}

// Each declared switch that lists servers, against the discovered leaf that shares most of them.
void checkSwitches(const Fabric& declared, const FabricAnalysis& analysis, std::vector<Finding>* out) {
    std::map<QString, QStringList> underLeaf; // discovered leaf -> servers
    std::set<QString> discovered;
    for (const FabricHost& h : analysis.hosts) {
        discovered.insert(h.name);
        for (const QString& leaf : h.leaves)
            underLeaf[leaf] << h.name;
    }
    const FabricNodeIndex node(declared);
    std::map<QString, QStringList> declaredHosts; // declared switch -> servers
    for (const FabricLink& l : declared.links) {
        const FabricNode *a = node(l.a), *b = node(l.b);
        if (a && b && a->kind == FabricNodeKind::Switch && b->kind == FabricNodeKind::Host)
            declaredHosts[l.a] << b->id;
    }
    for (const auto& [sw, listed] : declaredHosts) {
        QStringList known;
        for (const QString& h : listed)
            if (discovered.count(h))
                known << h;
        if (known.isEmpty())
            continue; // nothing of this switch was discovered: no evidence either way
        QString leaf;
        int best = 0;
        for (const auto& [candidate, hosts] : underLeaf) {
            const int shared = int(std::count_if(known.begin(), known.end(),
                                                 [&](const QString& h) { return hosts.contains(h); }));
            if (shared > best) {
                best = shared;
                leaf = candidate;
            }
        }
        QStringList elsewhere, missing;
        for (const QString& h : known)
            if (!underLeaf[leaf].contains(h))
                elsewhere << h;
        for (const QString& h : underLeaf[leaf])
            if (!listed.contains(h))
                missing << h;
        if (elsewhere.isEmpty() && missing.isEmpty())
            continue;
        QStringList parts;
        if (!elsewhere.isEmpty())
            parts << QStringLiteral("%1 are not under it").arg(compressHostlist(elsewhere));
        if (!missing.isEmpty())
            parts << QStringLiteral("%1 are under it but not listed").arg(compressHostlist(missing));
        out->push_back(
            finding(Severity::Error, codes::kSlurmSwitchMembers, {sw},
                    {QT_TRANSLATE_NOOP("rackscope", "Switch %1 matches leaf %2 of the fabric, but %3: "
                                                    "Slurm will place jobs by cabling that is not there."),
                     {sw, leaf, parts.join(QStringLiteral("; "))}}));
    }
}

} // namespace

std::vector<Finding> checkSlurmTopology(const Fabric& declared, const FabricAnalysis* analysis,
                                        const NvlinkFabric* nvlink) {
    std::vector<Finding> out;
    if (nvlink)
        checkBlocks(declared, *nvlink, &out);
    if (analysis)
        checkSwitches(declared, *analysis, &out);
    return out;
}

} // namespace rackscope
