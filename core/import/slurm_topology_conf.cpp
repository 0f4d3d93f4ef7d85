#include "slurm_topology_conf.h"

#include "model/hostlist.h"

#include <QRegularExpression>
#include <map>
#include <set>

namespace rackscope {
namespace {

const QRegularExpression kComment(QString::fromUtf8(R"re(^#\s*([^=\s]+)=(.*)$)re"));
const QRegularExpression kKey(QString::fromUtf8(R"re(^(SwitchName|BlockName|BlockSizes)=)re"));

// "SwitchName=a Switches=b[1-2] LinkSpeed=100" -> {SwitchName:a, Switches:b[1-2], LinkSpeed:100}
std::map<QString, QString> fields(const QString& line) {
    std::map<QString, QString> out;
    for (const QString& word : line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        const int eq = int(word.indexOf(QLatin1Char('=')));
        if (eq > 0)
            out[word.left(eq)] = word.mid(eq + 1);
        else
            out[word] = QString();
    }
    return out;
}

} // namespace

bool looksLikeSlurmTopology(const QByteArray& text) {
    return QRegularExpression(QStringLiteral("^\\s*(SwitchName|BlockName)="),
                              QRegularExpression::MultilineOption)
        .match(QString::fromUtf8(text.left(64 * 1024)))
        .hasMatch();
}

SlurmTopologyImport importSlurmTopology(const QByteArray& text, const QString& location) {
    Fabric f;
    f.source = location;
    std::map<QString, QString> descriptions;
    std::map<QString, size_t> byName;
    auto addNode = [&](FabricNodeKind kind, const QString& name, int line) -> size_t {
        if (auto it = byName.find(name); it != byName.end())
            return it->second;
        FabricNode n;
        n.kind = kind;
        n.id = name;
        n.host = kind == FabricNodeKind::Host ? name : QString();
        n.line = line;
        byName[name] = f.nodes.size();
        f.nodes.push_back(n);
        return f.nodes.size() - 1;
    };
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    std::set<QString> declared;
    struct Child {
        QString parent, child;
        int line;
    };
    std::vector<Child> switchChildren;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        const int lineNo = i + 1;
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('#'))) {
            if (const auto m = kComment.match(line); m.hasMatch())
                descriptions[m.captured(1)] = m.captured(2).trimmed();
            continue;
        }
        if (!kKey.match(line).hasMatch()) {
            f.diagnostics.push_back({lineNo, line.left(200), QStringLiteral("not a topology.conf line")});
            continue;
        }
        const auto kv = fields(line);
        auto hostlist = [&](const char* key, QStringList* out) {
            const auto it = kv.find(QLatin1String(key));
            if (it == kv.end())
                return true;
            const HostlistResult h = expandHostlist(it->second);
            if (!h.error.isEmpty()) {
                f.diagnostics.push_back(
                    {lineNo, line.left(200), QStringLiteral("%1=: %2").arg(QLatin1String(key), h.error)});
                return false;
            }
            *out = h.hosts;
            return true;
        };
        if (kv.count(QStringLiteral("BlockSizes"))) {
            for (const QString& n : kv.at(QStringLiteral("BlockSizes")).split(QLatin1Char(','))) {
                bool ok = false;
                const int size = n.toInt(&ok);
                if (ok && size > 0)
                    f.blockSizes.push_back(size);
                else
                    f.diagnostics.push_back(
                        {lineNo, line.left(200), QStringLiteral("BlockSizes: '%1' is not a size").arg(n)});
            }
            continue;
        }
        if (kv.count(QStringLiteral("BlockName"))) {
            FabricBlock b{kv.at(QStringLiteral("BlockName")), {}, {}, lineNo};
            if (!hostlist("Nodes", &b.hosts))
                continue;
            for (const QString& h : b.hosts)
                addNode(FabricNodeKind::Host, h, lineNo);
            f.blocks.push_back(b);
            continue;
        }
        const QString name = kv.at(QStringLiteral("SwitchName"));
        if (name.isEmpty()) {
            f.diagnostics.push_back({lineNo, line.left(200), QStringLiteral("SwitchName= without a name")});
            continue;
        }
        if (!declared.insert(name).second) {
            f.diagnostics.push_back(
                {lineNo, line.left(200), QStringLiteral("switch %1 is declared twice").arg(name)});
            continue;
        }
        const size_t sw = addNode(FabricNodeKind::Switch, name, lineNo);
        f.nodes[sw].line = lineNo;
        QStringList switches, hosts;
        if (!hostlist("Switches", &switches) || !hostlist("Nodes", &hosts))
            continue;
        for (const QString& s : switches)
            switchChildren.push_back({name, s, lineNo});
        for (const QString& h : hosts) {
            addNode(FabricNodeKind::Host, h, lineNo);
            f.links.push_back(linkBetween(name, {}, h, {}, lineNo));
        }
    }
    for (const Child& c : switchChildren) {
        if (!declared.count(c.child))
            f.diagnostics.push_back(
                {c.line, lines[c.line - 1].trimmed().left(200),
                 QStringLiteral("switch %1 lists %2, which no SwitchName= declares").arg(c.parent, c.child)});
        addNode(FabricNodeKind::Switch, c.child, c.line);
        f.links.push_back(linkBetween(c.parent, {}, c.child, {}, c.line));
    }
    for (FabricNode& n : f.nodes)
        if (auto it = descriptions.find(n.id); it != descriptions.end())
            n.description = it->second;
    for (FabricBlock& b : f.blocks)
        if (auto it = descriptions.find(b.name); it != descriptions.end())
            b.description = it->second;
    if (f.nodes.empty() && f.blocks.empty())
        return {std::nullopt, QStringLiteral("no SwitchName= or BlockName= lines")};
    return {std::move(f), {}};
}

} // namespace rackscope
