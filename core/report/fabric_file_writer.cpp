#include "fabric_file_writer.h"

#include "analysis/fabric_tiers.h"

#include <QRegularExpression>
#include <map>

namespace rackscope {
namespace {

// A name the file can carry as one word.
QString fileName(const FabricNode& n) {
    static const QRegularExpression kWord(QStringLiteral("^[A-Za-z0-9._-]+$"));
    const QString name = switchName(n);
    return kWord.match(name).hasMatch() ? name : n.id;
}

} // namespace

QString writeFabricFile(const Fabric& f) {
    QString out = QStringLiteral("rackscope-fabric 1\n");
    if (!f.source.isEmpty())
        out += QStringLiteral("# from %1\n").arg(f.source);
    if (!f.expectedWidth.isEmpty() || !f.expectedSpeed.isEmpty()) {
        out += QStringLiteral("expect");
        if (!f.expectedWidth.isEmpty())
            out += QStringLiteral(" width=") + f.expectedWidth;
        if (!f.expectedSpeed.isEmpty())
            out += QStringLiteral(" speed=") + f.expectedSpeed;
        out += QLatin1Char('\n');
    }
    const auto tiers = inferSwitchTiers(f);
    std::map<QString, QString> name; // node id -> how the file names it
    std::map<QString, int> used;
    for (const FabricNode& n : f.nodes) {
        if (n.kind != FabricNodeKind::Switch) {
            if (!n.host.isEmpty())
                name[n.id] = n.device.isEmpty() ? n.host : n.host + QLatin1Char('/') + n.device;
            continue;
        }
        QString s = fileName(n);
        if (used[s]++)
            s = n.id; // two switches with one description keep their ids
        name[n.id] = s;
        out += QStringLiteral("switch ") + s;
        if (const auto t = tiers.find(n.id); t != tiers.end())
            out += QStringLiteral(" tier=") + tierName(t->second);
        if (n.ports > 0)
            out += QStringLiteral(" ports=%1").arg(n.ports);
        if (!n.guid.isEmpty())
            out += QStringLiteral(" guid=") + n.guid;
        out += QLatin1Char('\n');
    }
    for (const FabricNode& n : f.nodes)
        if (n.kind == FabricNodeKind::Host)
            out += QStringLiteral("host ") + n.host + QLatin1Char('\n');
    for (const FabricLink& l : f.links) {
        const auto a = name.find(l.a), b = name.find(l.b);
        if (a == name.end() || b == name.end())
            continue; // ends that are not switches or servers (SHARP nodes)
        auto end = [](const QString& n, const QString& port) {
            return port.isEmpty() ? n : n + QLatin1Char(':') + port;
        };
        out += QStringLiteral("link %1 %2").arg(end(a->second, l.aPort), end(b->second, l.bPort));
        const QString width = l.width.isEmpty() ? l.expectedWidth : l.width;
        const QString speed = l.speed.isEmpty() ? l.expectedSpeed : l.speed;
        if (!width.isEmpty() && width != f.expectedWidth)
            out += QStringLiteral(" width=") + width;
        if (!speed.isEmpty() && speed != f.expectedSpeed)
            out += QStringLiteral(" speed=") + speed;
        if (l.aMtu && l.aMtu == l.bMtu)
            out += QStringLiteral(" mtu=%1").arg(*l.aMtu);
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace rackscope
