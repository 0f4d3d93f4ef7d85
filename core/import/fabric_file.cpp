#include "fabric_file.h"

#include <QRegularExpression>
#include <map>

namespace rackscope {
namespace {

const QLatin1String kHeader("rackscope-fabric");

std::optional<int> tierFromName(const QString& word) {
    for (int t = 1; t <= 9; ++t)
        if (word == tierName(t) || word == QString::number(t))
            return t;
    return std::nullopt;
}

struct End {
    QString name, device, port;
};

// "leaf-01:Ethernet1/1" -> {leaf-01, "", Ethernet1/1}; "node01/mlx5_0:1" -> {node01, mlx5_0, 1}
End parseEnd(const QString& text) {
    End e;
    const qsizetype cut = text.indexOf(QRegularExpression(QStringLiteral("[:/]")));
    e.name = text.left(cut);
    if (cut < 0)
        return e;
    QString rest = text.mid(cut);
    if (rest.startsWith(QLatin1Char('/'))) {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        e.device = rest.mid(1, colon < 0 ? -1 : colon - 1);
        rest = colon < 0 ? QString() : rest.mid(colon);
    }
    if (rest.startsWith(QLatin1Char(':')))
        e.port = rest.mid(1);
    return e;
}

} // namespace

bool looksLikeFabricFile(const QByteArray& text) {
    for (const QByteArray& line : text.left(64 * 1024).split('\n')) {
        const QByteArray t = line.trimmed();
        if (t.isEmpty() || t.startsWith('#'))
            continue;
        return t.startsWith(kHeader.data());
    }
    return false;
}

FabricFileImport importFabricFile(const QByteArray& text, const QString& location) {
    Fabric f;
    f.source = location;
    f.design = true;
    std::map<QString, size_t> byId;
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    bool header = false;
    for (int i = 0; i < lines.size(); ++i) {
        const int lineNo = i + 1;
        QString line = lines[i];
        if (const qsizetype hash = line.indexOf(QLatin1Char('#')); hash >= 0)
            line.truncate(hash);
        const QStringList words = line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        if (words.isEmpty())
            continue;
        auto diag = [&](const QString& message) {
            f.diagnostics.push_back({lineNo, lines[i].trimmed().left(200), message});
        };
        if (!header) {
            if (words[0] != kHeader)
                return {std::nullopt,
                        QStringLiteral("line %1: a rackscope fabric file begins with \"rackscope-fabric 1\"")
                            .arg(lineNo)};
            if (words.value(1) != QLatin1String("1"))
                return {std::nullopt,
                        QStringLiteral("line %1: fabric file version '%2'; this rackscope reads version 1")
                            .arg(lineNo)
                            .arg(words.value(1))};
            header = true;
            continue;
        }
        std::map<QString, QString> keys;
        QStringList plain;
        for (const QString& w : words.mid(1)) {
            const qsizetype eq = w.indexOf(QLatin1Char('='));
            if (eq > 0)
                keys[w.left(eq)] = w.mid(eq + 1);
            else
                plain << w;
        }
        auto unknownKeys = [&](std::initializer_list<const char*> allowed) {
            for (const auto& [k, v] : keys) {
                bool ok = false;
                for (const char* a : allowed)
                    ok = ok || k == QLatin1String(a);
                if (!ok)
                    return k;
            }
            return QString();
        };
        auto nodeFor = [&](const End& e) -> std::optional<QString> {
            if (e.device.isEmpty() && !e.port.isEmpty()) {
                const auto it = byId.find(e.name);
                if (it == byId.end() || f.nodes[it->second].kind != FabricNodeKind::Switch) {
                    diag(QStringLiteral(
                             "%1 is not a switch declared above (a server's end is HOST/DEVICE[:PORT])")
                             .arg(e.name));
                    return std::nullopt;
                }
                return e.name;
            }
            if (const auto sw = byId.find(e.name); !e.device.isEmpty() && sw != byId.end() &&
                                                   f.nodes[sw->second].kind == FabricNodeKind::Switch) {
                diag(QStringLiteral("%1 is a switch, not a server").arg(e.name));
                return std::nullopt;
            }
            const QString id = e.device.isEmpty() ? e.name : e.name + QLatin1Char('/') + e.device;
            if (!byId.count(id)) {
                FabricNode n;
                n.kind = e.device.isEmpty() ? FabricNodeKind::Host : FabricNodeKind::ChannelAdapter;
                n.id = id;
                n.host = e.name;
                n.device = e.device;
                n.line = lineNo;
                byId[id] = f.nodes.size();
                f.nodes.push_back(n);
            }
            return id;
        };
        const QString& verb = words[0];
        if (verb == QLatin1String("expect")) {
            if (const QString k = unknownKeys({"width", "speed"}); !k.isEmpty())
                diag(QStringLiteral("unknown key %1=").arg(k));
            f.expectedWidth = keys[QStringLiteral("width")];
            f.expectedSpeed = keys[QStringLiteral("speed")];
        } else if (verb == QLatin1String("switch") || verb == QLatin1String("host")) {
            const bool isSwitch = verb == QLatin1String("switch");
            if (plain.size() != 1) {
                diag(QStringLiteral("%1 takes one name").arg(verb));
                continue;
            }
            if (const QString k = isSwitch ? unknownKeys({"tier", "ports", "guid"}) : unknownKeys({});
                !k.isEmpty()) {
                diag(QStringLiteral("unknown key %1=").arg(k));
                continue;
            }
            if (byId.count(plain[0])) {
                diag(QStringLiteral("%1 was already declared at line %2")
                         .arg(plain[0])
                         .arg(f.nodes[byId[plain[0]]].line));
                continue;
            }
            FabricNode n;
            n.kind = isSwitch ? FabricNodeKind::Switch : FabricNodeKind::Host;
            n.id = plain[0];
            n.host = isSwitch ? QString() : n.id;
            n.line = lineNo;
            if (keys.count(QStringLiteral("tier"))) {
                n.tier = tierFromName(keys[QStringLiteral("tier")]);
                if (!n.tier)
                    diag(QStringLiteral("tier '%1' is not leaf, spine, core or a number")
                             .arg(keys[QStringLiteral("tier")]));
            }
            if (keys.count(QStringLiteral("ports"))) {
                bool ok = false;
                n.ports = keys[QStringLiteral("ports")].toInt(&ok);
                if (!ok || n.ports <= 0 || n.ports > 4096) {
                    diag(QStringLiteral("ports '%1' is not a port count").arg(keys[QStringLiteral("ports")]));
                    n.ports = 0;
                }
            }
            n.guid = keys[QStringLiteral("guid")].toLower();
            byId[n.id] = f.nodes.size();
            f.nodes.push_back(n);
        } else if (verb == QLatin1String("link")) {
            if (plain.size() != 2) {
                diag(QStringLiteral("link takes two ends"));
                continue;
            }
            if (const QString k = unknownKeys({"width", "speed", "mtu"}); !k.isEmpty()) {
                diag(QStringLiteral("unknown key %1=").arg(k));
                continue;
            }
            const End ea = parseEnd(plain[0]), eb = parseEnd(plain[1]);
            const auto a = nodeFor(ea);
            const auto b = a ? nodeFor(eb) : std::nullopt;
            if (!a || !b)
                continue;
            FabricLink l = linkBetween(*a, ea.port, *b, eb.port, lineNo);
            l.expectedWidth = keys[QStringLiteral("width")];
            l.expectedSpeed = keys[QStringLiteral("speed")];
            if (keys.count(QStringLiteral("mtu"))) {
                bool ok = false;
                const int mtu = keys[QStringLiteral("mtu")].toInt(&ok);
                if (ok && mtu > 0)
                    l.aMtu = l.bMtu = mtu;
                else
                    diag(QStringLiteral("mtu '%1' is not a size").arg(keys[QStringLiteral("mtu")]));
            }
            f.links.push_back(l);
        } else {
            diag(QStringLiteral("'%1' is not switch, host, link or expect").arg(verb));
        }
    }
    if (!header)
        return {std::nullopt, QStringLiteral("empty: no \"rackscope-fabric 1\" line")};
    return {std::move(f), {}};
}

} // namespace rackscope
