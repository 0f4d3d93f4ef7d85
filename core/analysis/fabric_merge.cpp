#include "fabric_merge.h"

#include <QCoreApplication>

#include <map>
#include <set>

namespace rackscope {
namespace {

class Merger {
public:
    Fabric out;

    void add(const Fabric& src) {
        std::map<QString, QString> idOf; // source id -> merged id
        for (const FabricNode& n : src.nodes)
            idOf[n.id] = addNode(n, src);
        for (const FabricLink& l : src.links) {
            if (!idOf.count(l.a) || !idOf.count(l.b)) { // a dangling end its reader already reported
                if (!src.design)
                    out.links.push_back(l);
                continue;
            }
            addLink(l, idOf[l.a], idOf[l.b], src);
        }
        for (const FabricBlock& b : src.blocks)
            out.blocks.push_back(b);
        if (out.blockSizes.empty())
            out.blockSizes = src.blockSizes;
        for (const FabricDiagnostic& d : src.diagnostics)
            out.diagnostics.push_back({d.line, d.text, src.source + QStringLiteral(": ") + d.message});
        out.conflicts += src.conflicts;
        if (src.design) {
            if (out.expectedWidth.isEmpty())
                out.expectedWidth = src.expectedWidth;
            if (out.expectedSpeed.isEmpty())
                out.expectedSpeed = src.expectedSpeed;
        }
        out.source += (out.source.isEmpty() ? QString() : QStringLiteral(", ")) + src.source;
    }

    void markMissingDesignLinks() {
        for (size_t i = 0; i < out.links.size(); ++i)
            if (designOnly_.count(i) && discovered_.count(out.links[i].a) &&
                discovered_.count(out.links[i].b))
                out.links[i].state = QStringLiteral("missing");
    }

private:
    std::map<QString, size_t> byGuid_, byHostDevice_, byName_;
    std::map<QString, QString> nodeSource_;
    std::set<QString> discovered_;                         // merged ids some discovered source has
    std::set<size_t> designOnly_;                          // links only a design gave
    std::map<std::pair<QString, QString>, size_t> byEnd_;  // (node, port) -> link, for links with ports
    std::map<std::pair<QString, QString>, size_t> byPair_; // (a, b) -> link, for links without ports

    static QString hostDevice(const FabricNode& n) {
        return n.host.isEmpty() ? QString() : n.host + QLatin1Char('/') + n.device;
    }

    std::optional<size_t> find(const FabricNode& n) const {
        if (!n.guid.isEmpty())
            if (auto it = byGuid_.find(n.guid); it != byGuid_.end())
                return it->second;
        if (const QString hd = hostDevice(n); !hd.isEmpty())
            if (auto it = byHostDevice_.find(hd); it != byHostDevice_.end())
                return it->second;
        if (n.kind == FabricNodeKind::Switch || n.kind == FabricNodeKind::Host)
            for (const QString& name : {n.id, switchName(n)})
                if (auto it = byName_.find(name); it != byName_.end()) {
                    const FabricNode& m = out.nodes[it->second];
                    if (m.kind == n.kind && (m.guid.isEmpty() || n.guid.isEmpty()))
                        return it->second;
                }
        return std::nullopt;
    }

    void index(size_t i) {
        const FabricNode& n = out.nodes[i];
        if (!n.guid.isEmpty())
            byGuid_.emplace(n.guid, i);
        if (const QString hd = hostDevice(n); !hd.isEmpty())
            byHostDevice_.emplace(hd, i);
        if (n.kind == FabricNodeKind::Switch || n.kind == FabricNodeKind::Host) {
            byName_.emplace(n.id, i);
            byName_.emplace(switchName(n), i);
        }
    }

    void conflict(const QString& what, const QString& first, const QString& firstSource,
                  const QString& second, const QString& secondSource) {
        out.conflicts << QCoreApplication::translate("rackscope", "%1: %2 says %3, %4 says %5 (kept %3)")
                             .arg(what, firstSource, first, secondSource, second);
    }

    QString addNode(const FabricNode& n, const Fabric& src) {
        const auto found = find(n);
        if (!found) {
            FabricNode copy = n;
            if (nodeSource_.count(copy.id))
                copy.id = src.source + QLatin1Char(':') +
                          copy.id; // same id, different thing (every node in out has a source)
            out.nodes.push_back(copy);
            nodeSource_[copy.id] = src.source;
            index(out.nodes.size() - 1);
            if (!src.design)
                discovered_.insert(copy.id);
            return copy.id;
        }
        FabricNode& m = out.nodes[*found];
        const QString& firstSource = nodeSource_[m.id];
        auto fill = [&](QString& mine, const QString& theirs, const char* what) {
            if (theirs.isEmpty())
                return;
            if (mine.isEmpty())
                mine = theirs;
            else if (mine != theirs)
                conflict(QStringLiteral("%1 %2").arg(m.id, QLatin1String(what)), mine, firstSource, theirs,
                         src.source);
        };
        fill(m.guid, n.guid, "GUID");
        fill(m.host, n.host, "host");
        fill(m.device, n.device, "device");
        if (m.description.isEmpty())
            m.description = n.description;
        if (n.ports > 0 && m.ports > 0 && n.ports != m.ports)
            conflict(m.id + QStringLiteral(" port count"), QString::number(m.ports), firstSource,
                     QString::number(n.ports), src.source);
        if (m.ports <= 0)
            m.ports = n.ports;
        if (n.tier && m.tier && *n.tier != *m.tier)
            conflict(m.id + QStringLiteral(" tier"), QString::number(*m.tier), firstSource,
                     QString::number(*n.tier), src.source);
        if (!m.tier)
            m.tier = n.tier;
        if (!m.lid)
            m.lid = n.lid;
        for (const QString& p : n.downPorts)
            if (!m.downPorts.contains(p))
                m.downPorts << p;
        if (!src.design)
            discovered_.insert(m.id);
        index(*found);
        return m.id;
    }

    void addLink(FabricLink l, const QString& a, const QString& b, const Fabric& src) {
        l.a = a;
        l.b = b;
        if (src.design) {
            if (l.expectedWidth.isEmpty())
                l.expectedWidth = src.expectedWidth;
            if (l.expectedSpeed.isEmpty())
                l.expectedSpeed = src.expectedSpeed;
        }
        const bool ported = !l.aPort.isEmpty() || !l.bPort.isEmpty();
        std::optional<size_t> same;
        if (ported) {
            // Ends are the same when the nodes are and the ports agree, or one source names no port.
            auto sameEnd = [](const QString& n1, const QString& p1, const QString& n2, const QString& p2) {
                return n1 == n2 && (p1 == p2 || p1.isEmpty() || p2.isEmpty());
            };
            for (const auto& [node, port] : {std::pair{a, l.aPort}, std::pair{b, l.bPort}}) {
                const auto it = port.isEmpty() ? byEnd_.end() : byEnd_.find({node, port});
                if (it == byEnd_.end())
                    continue;
                const FabricLink& had = out.links[it->second];
                if ((sameEnd(had.a, had.aPort, a, l.aPort) && sameEnd(had.b, had.bPort, b, l.bPort)) ||
                    (sameEnd(had.a, had.aPort, b, l.bPort) && sameEnd(had.b, had.bPort, a, l.aPort))) {
                    same = it->second;
                    break;
                }
                const bool atA = had.a == node && had.aPort == port;
                const QString peer = atA ? QStringLiteral("%1[%2]").arg(had.b, had.bPort)
                                         : QStringLiteral("%1[%2]").arg(had.a, had.aPort);
                const QString mine = node == a ? QStringLiteral("%1[%2]").arg(b, l.bPort)
                                               : QStringLiteral("%1[%2]").arg(a, l.aPort);
                conflict(QStringLiteral("%1[%2]").arg(node, port), QStringLiteral("it reaches ") + peer,
                         linkSource_[it->second], QStringLiteral("it reaches ") + mine, src.source);
                return;
            }
        } else if (auto it = byPair_.find(std::minmax(a, b)); it != byPair_.end()) {
            same = it->second;
        }
        if (!same) {
            out.links.push_back(l);
            const size_t i = out.links.size() - 1;
            linkSource_[i] = src.source;
            if (src.design)
                designOnly_.insert(i);
            if (ported) {
                if (!l.aPort.isEmpty())
                    byEnd_[{a, l.aPort}] = i;
                if (!l.bPort.isEmpty())
                    byEnd_[{b, l.bPort}] = i;
            } else {
                byPair_[std::minmax(a, b)] = i;
            }
            return;
        }
        FabricLink& m = out.links[*same];
        const bool flipped = m.a != a;
        if (!src.design)
            designOnly_.erase(*same);
        QString& portA = flipped ? m.bPort : m.aPort;
        QString& portB = flipped ? m.aPort : m.bPort;
        if (portA.isEmpty() && !l.aPort.isEmpty())
            byEnd_[{a, portA = l.aPort}] = *same;
        if (portB.isEmpty() && !l.bPort.isEmpty())
            byEnd_[{b, portB = l.bPort}] = *same;
        auto fill = [&](QString& mine, const QString& theirs, const char* what) {
            if (theirs.isEmpty())
                return;
            if (mine.isEmpty())
                mine = theirs;
            else if (mine != theirs)
                conflict(QStringLiteral("link %1[%2]-%3[%4] %5")
                             .arg(m.a, m.aPort, m.b, m.bPort, QLatin1String(what)),
                         mine, linkSource_[*same], theirs, src.source);
        };
        if (src.design) {
            if (m.expectedWidth.isEmpty())
                m.expectedWidth = l.expectedWidth;
            if (m.expectedSpeed.isEmpty())
                m.expectedSpeed = l.expectedSpeed;
        } else {
            fill(m.width, l.width, "width");
            fill(m.speed, l.speed, "speed");
            fill(m.state, l.state, "state");
        }
        auto& mtuA = flipped ? m.bMtu : m.aMtu;
        auto& mtuB = flipped ? m.aMtu : m.bMtu;
        if (!mtuA)
            mtuA = l.aMtu;
        if (!mtuB)
            mtuB = l.bMtu;
    }

    std::map<size_t, QString> linkSource_;
};

} // namespace

Fabric mergeFabrics(const std::vector<Fabric>& sources) {
    if (sources.size() == 1)
        return sources.front();
    Merger m;
    for (const Fabric& f : sources)
        m.add(f);
    m.markMissingDesignLinks();
    return std::move(m.out);
}

} // namespace rackscope
