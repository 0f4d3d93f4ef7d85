#include "slurm_fabric_builder.h"

#include "model/hostlist.h"

namespace rackscope {

void SlurmFabricBuilder::diagnose(int line, const QString& text, const QString& message) {
    f_.diagnostics.push_back({line, text.trimmed().left(200), message});
}

bool SlurmFabricBuilder::expand(const char* key, const QString& list, int line, const QString& text,
                                QStringList* out) {
    if (list.isEmpty())
        return true;
    const HostlistResult h = expandHostlist(list);
    if (!h.error.isEmpty()) {
        diagnose(line, text, QStringLiteral("%1: %2").arg(QLatin1String(key), h.error));
        return false;
    }
    *out = h.hosts;
    return true;
}

std::size_t SlurmFabricBuilder::node(FabricNodeKind kind, const QString& name, int line) {
    if (auto it = byName_.find(name); it != byName_.end())
        return it->second;
    FabricNode n;
    n.kind = kind;
    n.id = name;
    n.host = kind == FabricNodeKind::Host ? name : QString();
    n.line = line;
    byName_[name] = f_.nodes.size();
    f_.nodes.push_back(n);
    return f_.nodes.size() - 1;
}

void SlurmFabricBuilder::addSwitch(const QString& name, const QString& switches, const QString& nodes,
                                   int line, const QString& text) {
    if (name.isEmpty()) {
        diagnose(line, text, QStringLiteral("a switch without a name"));
        return;
    }
    if (!declared_.insert(name).second) {
        diagnose(line, text, QStringLiteral("switch %1 is declared twice").arg(name));
        return;
    }
    f_.nodes[node(FabricNodeKind::Switch, name, line)].line = line;
    QStringList childSwitches, hosts;
    if (!expand(keys_.switches, switches, line, text, &childSwitches) ||
        !expand(keys_.nodes, nodes, line, text, &hosts))
        return;
    for (const QString& s : childSwitches)
        children_.push_back({name, s, line, text});
    for (const QString& h : hosts) {
        node(FabricNodeKind::Host, h, line);
        f_.links.push_back(linkBetween(name, {}, h, {}, line));
    }
}

void SlurmFabricBuilder::addBlock(const QString& name, const QString& nodes, int line, const QString& text) {
    FabricBlock b{name, {}, {}, line};
    if (!expand(keys_.nodes, nodes, line, text, &b.hosts))
        return;
    for (const QString& h : b.hosts)
        node(FabricNodeKind::Host, h, line);
    f_.blocks.push_back(b);
}

void SlurmFabricBuilder::addBlockSize(const QString& size, int line, const QString& text) {
    bool ok = false;
    const int n = size.trimmed().toInt(&ok);
    if (ok && n > 0)
        f_.blockSizes.push_back(n);
    else
        diagnose(line, text,
                 QStringLiteral("%1: '%2' is not a size").arg(QLatin1String(keys_.sizes), size.left(40)));
}

SlurmTopologyImport SlurmFabricBuilder::finish(const QString& empty) {
    for (const Child& c : children_) {
        if (!declared_.count(c.child))
            diagnose(c.line, c.text,
                     QStringLiteral("switch %1 lists %2, which no %3 declares")
                         .arg(c.parent, c.child, QLatin1String(keys_.declare)));
        node(FabricNodeKind::Switch, c.child, c.line);
        f_.links.push_back(linkBetween(c.parent, {}, c.child, {}, c.line));
    }
    for (FabricNode& n : f_.nodes)
        if (auto it = descriptions_.find(n.id); it != descriptions_.end())
            n.description = it->second;
    for (FabricBlock& b : f_.blocks)
        if (auto it = descriptions_.find(b.name); it != descriptions_.end())
            b.description = it->second;
    if (f_.nodes.empty() && f_.blocks.empty())
        return {std::nullopt, empty};
    return {std::move(f_), {}};
}

} // namespace rackscope
