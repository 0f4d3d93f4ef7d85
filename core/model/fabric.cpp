#include "fabric.h"

namespace rackscope {

const FabricNode* Fabric::node(const QString& id) const {
    for (const FabricNode& n : nodes)
        if (n.id == id)
            return &n;
    return nullptr;
}

FabricNodeIndex::FabricNodeIndex(const Fabric& fabric) {
    byId_.reserve(qsizetype(fabric.nodes.size()));
    for (const FabricNode& n : fabric.nodes)
        if (!byId_.contains(n.id))
            byId_.insert(n.id, &n); // the first of a repeated id, as node() finds it
}

QString switchName(const FabricNode& n) {
    QString name = n.description;
    if (const qsizetype semi = name.indexOf(QLatin1Char(';')); semi >= 0)
        name = name.mid(semi + 1);
    if (const qsizetype colon = name.indexOf(QLatin1Char(':')); colon >= 0)
        name = name.left(colon);
    name = name.trimmed();
    return name.isEmpty() ? n.id : name;
}

QString tierName(int tier) {
    switch (tier) {
    case 1:
        return QStringLiteral("leaf");
    case 2:
        return QStringLiteral("spine");
    case 3:
        return QStringLiteral("core");
    default:
        return QStringLiteral("tier-%1").arg(tier);
    }
}

} // namespace rackscope
