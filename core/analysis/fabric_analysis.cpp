#include "fabric_analysis.h"

#include "analysis/fabric_tiers.h"
#include "analysis/findings.h"
#include "model/hostlist.h"

#include <QCollator>
#include <QRegularExpression>
#include <algorithm>
#include <set>

namespace rackscope {
namespace {

// Per-lane data rates after line coding, as ibstat and the IBTA specs give them.
std::optional<double> laneGbps(const QString& speed) {
    static const std::map<QString, double> rates{{"SDR", 2.0},    {"DDR", 4.0},   {"QDR", 8.0},
                                                 {"FDR10", 10.0}, {"FDR", 13.64}, {"EDR", 25.0},
                                                 {"HDR", 50.0},   {"NDR", 100.0}, {"XDR", 200.0}};
    const auto it = rates.find(speed);
    return it == rates.end() ? std::nullopt : std::optional(it->second);
}

QString rateText(const FabricLink& l) {
    return l.width + l.speed;
}

Finding finding(Severity s, const char* code, QStringList subjects, FindingText text,
                FindingTarget target = {}) {
    return makeFinding(s, QLatin1String(code), std::move(subjects), std::move(text), std::move(target));
}

QString number(double x) {
    return QStringLiteral("%1").arg(x);
}

template <typename T> T mostCommon(const std::vector<T>& values, int* count = nullptr) {
    std::map<T, int> n;
    for (const T& v : values)
        ++n[v];
    auto best = std::max_element(n.begin(), n.end(),
                                 [](const auto& x, const auto& y) { return x.second < y.second; });
    if (count)
        *count = best->second;
    return best->first;
}

class Analyser {
public:
    explicit Analyser(const Fabric& f) : f_(f) {
        for (const FabricNode& n : f.nodes)
            node_[n.id] = &n;
        a_.tiers = inferSwitchTiers(f);
    }

    FabricAnalysis run() {
        collectHosts();
        sourceFindings();
        rails();
        leafLoads();
        linkRates();
        portsDown();
        mtu();
        leafCounts();
        return std::move(a_);
    }

private:
    const Fabric& f_;
    FabricAnalysis a_;
    std::map<QString, const FabricNode*> node_;

    const FabricNode* node(const QString& id) const {
        auto it = node_.find(id);
        return it == node_.end() ? nullptr : it->second;
    }
    // A finding about one link (or node), which it targets so that a drawing can mark it.
    void onLink(const FabricLink* l, Finding f) {
        if (l)
            f.target.links.push_back(static_cast<std::size_t>(l - f_.links.data()));
        a_.findings.push_back(std::move(f));
    }
    void onNode(const QString& id, Finding f) {
        f.target.nodes << id;
        a_.findings.push_back(std::move(f));
    }
    bool isSwitch(const QString& id) const {
        const FabricNode* n = node(id);
        return n && n->kind == FabricNodeKind::Switch;
    }
    QString nameOf(const QString& id) const {
        const FabricNode* n = node(id);
        return n ? switchName(*n) : id;
    }
    int tierOf(const QString& id) const {
        auto it = a_.tiers.find(id);
        return it == a_.tiers.end() ? 0 : it->second;
    }
    QString endName(const HostPort& p, const QString& host) const {
        return QStringLiteral("%1 %2").arg(host, p.device.isEmpty() ? p.port : p.device).trimmed();
    }

    void collectHosts() {
        std::map<QString, FabricHost> hosts;
        for (const FabricLink& l : f_.links) {
            for (int side = 0; side < 2; ++side) {
                const QString& end = side ? l.b : l.a;
                const QString& other = side ? l.a : l.b;
                const FabricNode* n = node(end);
                if (!n || n->kind == FabricNodeKind::Switch || n->host.isEmpty() || !isSwitch(other))
                    continue;
                FabricHost& h = hosts[n->host];
                h.name = n->host;
                h.ports.push_back(
                    {end, n->device, side ? l.bPort : l.aPort, other, side ? l.aPort : l.bPort, &l});
                if (!h.leaves.contains(other))
                    h.leaves << other;
            }
        }
        QCollator natural;
        natural.setNumericMode(true);
        QStringList names;
        for (auto& [name, h] : hosts) {
            std::sort(h.ports.begin(), h.ports.end(), [&](const HostPort& x, const HostPort& y) {
                return natural.compare(x.device, y.device) < 0;
            });
            h.leaves.sort();
            names << name;
        }
        sortHostsNaturally(names);
        for (const QString& n : names)
            a_.hosts.push_back(std::move(hosts[n]));
    }

    void sourceFindings() {
        for (const FabricDiagnostic& d : f_.diagnostics)
            a_.findings.push_back(finding(Severity::Warning, codes::kFabricSourceLine,
                                          {QStringLiteral("line %1").arg(d.line)},
                                          {QT_TRANSLATE_NOOP("rackscope", "%1 (line %2: %3)"),
                                           {d.message, QString::number(d.line), d.text}}));
        for (const QString& c : f_.conflicts)
            a_.findings.push_back(finding(Severity::Warning, codes::kFabricSourceConflict, {},
                                          {QT_TRANSLATE_NOOP("rackscope", "sources disagree on %1"), {c}}));
        const auto inferred = inferSwitchTiers(f_, false);
        for (const FabricNode& n : f_.nodes) {
            const auto it = inferred.find(n.id);
            if (n.tier && it != inferred.end() && it->second != *n.tier)
                onNode(n.id,
                       finding(Severity::Warning, codes::kFabricTierDiffers, {switchName(n)},
                               {QT_TRANSLATE_NOOP("rackscope", "%1 is declared %2 but is cabled as a %3"),
                                {switchName(n), tierName(*n.tier), tierName(it->second)}}));
        }
    }

    // Rail k is where most servers cable their device k: each leaf gets the
    // device name most of its server ports have, when more than half do.
    void rails() {
        std::vector<int> portsPerHost;
        for (const FabricHost& h : a_.hosts)
            portsPerHost.push_back(int(h.ports.size()));
        if (portsPerHost.empty() || mostCommon(portsPerHost) < 2)
            return;
        std::map<QString, std::vector<QString>> devicesOnLeaf;
        for (const FabricHost& h : a_.hosts)
            for (const HostPort& p : h.ports)
                if (!p.device.isEmpty())
                    devicesOnLeaf[p.switchId].push_back(p.device);
        std::map<QString, QString> railOf;
        std::map<QString, std::pair<int, int>>
            share; // leaf -> (ports of its rail's device, all server ports)
        std::map<QString, Rail> rails;
        for (const auto& [leaf, devices] : devicesOnLeaf) {
            int count = 0;
            const QString device = mostCommon(devices, &count);
            if (count * 2 <= int(devices.size()))
                continue; // not rail-aligned here
            railOf[leaf] = device;
            share[leaf] = {count, int(devices.size())};
            Rail& r = rails[device];
            r.device = device;
            r.leaves << nameOf(leaf);
            r.hostPorts += count;
        }
        QCollator natural;
        natural.setNumericMode(true);
        for (auto& [device, r] : rails) {
            std::sort(r.leaves.begin(), r.leaves.end(),
                      [&](const QString& x, const QString& y) { return natural.compare(x, y) < 0; });
            a_.rails.push_back(r);
        }
        std::sort(a_.rails.begin(), a_.rails.end(),
                  [&](const Rail& x, const Rail& y) { return natural.compare(x.device, y.device) < 0; });
        for (const FabricHost& h : a_.hosts)
            for (const HostPort& p : h.ports) {
                const auto rail = railOf.find(p.switchId);
                if (p.device.isEmpty() || rail == railOf.end() || rail->second == p.device)
                    continue;
                const auto [n, all] = share[p.switchId];
                onLink(p.link, finding(Severity::Warning, codes::kFabricRailBreak,
                                       {h.name, p.device, nameOf(p.switchId)},
                                       {QT_TRANSLATE_NOOP(
                                            "rackscope", "%1 %2 is cabled to %3, the leaf of rail %4 (%5 of "
                                                         "its %6 server ports are %4): on a rail-optimised "
                                                         "fabric device k of every server reaches rail k, so "
                                                         "traffic between rails crosses the spines"),
                                        {h.name, p.device, nameOf(p.switchId), rail->second,
                                         QString::number(n), QString::number(all)}},
                                       serverTarget(h.name, {p.device})));
            }
    }

    void leafLoads() {
        std::map<QString, LeafLoad> loads;
        std::set<QString> unknownDown, unknownUp;
        for (const FabricLink& l : f_.links) {
            for (int side = 0; side < 2; ++side) {
                const QString& leaf = side ? l.b : l.a;
                const QString& other = side ? l.a : l.b;
                if (tierOf(leaf) != 1)
                    continue;
                const FabricNode* o = node(other);
                if (!o)
                    continue;
                const bool down = o->kind != FabricNodeKind::Switch && !o->host.isEmpty();
                const bool up = o->kind == FabricNodeKind::Switch && tierOf(other) > 1;
                if (!down && !up)
                    continue;
                LeafLoad& load = loads[leaf];
                load.leaf = leaf;
                const auto gbps = linkGbps(l.width, l.speed);
                (down ? load.downlinks : load.uplinks)++;
                auto& sum = down ? load.downGbps : load.upGbps;
                auto& unknown = down ? unknownDown : unknownUp;
                if (!gbps)
                    unknown.insert(leaf);
                else
                    sum = sum.value_or(0) + *gbps;
            }
        }
        for (auto& [leaf, load] : loads) {
            if (unknownDown.count(leaf))
                load.downGbps.reset();
            if (unknownUp.count(leaf))
                load.upGbps.reset();
            a_.leaves.push_back(load);
            if (const auto r = load.ratio(); r && *r > 1.0 + 1e-9)
                onNode(leaf, finding(Severity::Info, codes::kFabricOversubscribed, {nameOf(leaf)},
                                     {QT_TRANSLATE_NOOP("rackscope",
                                                        "%1 is oversubscribed %2:1 (%3 Gb/s to servers "
                                                        "over %4 Gb/s to spines)"),
                                      {nameOf(leaf), QString::number(*r, 'g', 3), number(*load.downGbps),
                                       number(*load.upGbps)}}));
        }
    }

    QString linkName(const FabricLink& l) const {
        auto end = [&](const QString& id, const QString& port) {
            const FabricNode* n = node(id);
            const QString name = n && n->kind != FabricNodeKind::Switch && !n->host.isEmpty()
                                     ? QStringLiteral("%1 %2").arg(n->host, n->device)
                                     : nameOf(id);
            return port.isEmpty() ? name : QStringLiteral("%1[%2]").arg(name, port);
        };
        return end(l.a, l.aPort) + QStringLiteral(" - ") + end(l.b, l.bPort);
    }

    // Below expectation where a design gives one; else below most links of the same tiers.
    void linkRates() {
        auto tierPair = [&](const FabricLink& l) {
            const int ta = isSwitch(l.a) ? tierOf(l.a) : 0, tb = isSwitch(l.b) ? tierOf(l.b) : 0;
            return std::pair<int, int>(std::min(ta, tb), std::max(ta, tb));
        };
        std::map<std::pair<int, int>, std::vector<double>> rates;
        for (const FabricLink& l : f_.links)
            if (const auto g = linkGbps(l.width, l.speed))
                rates[tierPair(l)].push_back(*g);
        // The usual rate of each pair of tiers, counted once: not once per link (250,000 switches).
        struct Usual {
            double gbps = 0;
            int count = 0;
            size_t of = 0;
        };
        std::map<std::pair<int, int>, Usual> usual;
        for (const auto& [tiers, peers] : rates) {
            Usual& u = usual[tiers];
            u.gbps = mostCommon(peers, &u.count);
            u.of = peers.size();
        }
        for (const FabricLink& l : f_.links) {
            const QString ew = l.expectedWidth.isEmpty() ? f_.expectedWidth : l.expectedWidth;
            const QString es = l.expectedSpeed.isEmpty() ? f_.expectedSpeed : l.expectedSpeed;
            if (l.width.isEmpty() && l.speed.isEmpty())
                continue;
            if (!ew.isEmpty() || !es.isEmpty()) {
                const bool narrow =
                    !ew.isEmpty() && !l.width.isEmpty() && l.width.chopped(1).toInt() < ew.chopped(1).toInt();
                const auto have = linkGbps(QStringLiteral("1x"), l.speed),
                           want = linkGbps(QStringLiteral("1x"), es);
                const bool slow = have && want && *have < *want;
                if (narrow || slow)
                    onLink(&l,
                           finding(Severity::Warning, codes::kFabricLinkBelowExpected, {linkName(l)},
                                   {QT_TRANSLATE_NOOP("rackscope", "%1 runs at %2, the design expects %3"),
                                    {linkName(l), rateText(l), ew + es}}));
                continue;
            }
            const auto g = linkGbps(l.width, l.speed);
            if (!g)
                continue;
            const Usual& u = usual[tierPair(l)];
            if (u.of < 3)
                continue;
            if (*g < u.gbps && u.count * 2 > int(u.of))
                onLink(&l,
                       finding(Severity::Warning, codes::kFabricLinkBelowPeers, {linkName(l)},
                               {QT_TRANSLATE_NOOP("rackscope", "%1 runs at %2 (%3 Gb/s) where %4 of %5 links "
                                                               "between the same tiers run at %6 Gb/s"),
                                {linkName(l), rateText(l), number(*g), QString::number(u.count),
                                 QString::number(u.of), number(u.gbps)}}));
        }
    }

    void portsDown() {
        for (const FabricNode& n : f_.nodes)
            for (const QString& p : n.downPorts) {
                const QString who =
                    n.host.isEmpty() ? switchName(n) : QStringLiteral("%1 %2").arg(n.host, n.device);
                onNode(n.id, finding(Severity::Warning, codes::kFabricPortDown, {who},
                                     {QT_TRANSLATE_NOOP("rackscope", "%1 port %2 is not active"), {who, p}},
                                     serverTarget(n.host,
                                                  n.host.isEmpty() ? QStringList() : QStringList{n.device})));
            }
        for (const FabricLink& l : f_.links) {
            if (l.state == QLatin1String("down"))
                onLink(&l, finding(Severity::Warning, codes::kFabricPortDown, {linkName(l)},
                                   {QT_TRANSLATE_NOOP("rackscope", "%1 is down"), {linkName(l)}}));
            else if (l.state == QLatin1String("missing"))
                onLink(&l,
                       finding(Severity::Warning, codes::kFabricLinkMissing, {linkName(l)},
                               {QT_TRANSLATE_NOOP(
                                    "rackscope", "%1 is in the design, but no discovered source shows it up"),
                                {linkName(l)}}));
        }
    }

    void mtu() {
        std::vector<int> hostMtus;
        std::map<QString, int> hostMtu;
        for (const FabricHost& h : a_.hosts)
            for (const HostPort& p : h.ports) {
                const FabricLink& l = *p.link;
                const bool hostIsA = l.a == p.node;
                const auto mine = hostIsA ? l.aMtu : l.bMtu, theirs = hostIsA ? l.bMtu : l.aMtu;
                if (mine && theirs && *mine > *theirs)
                    onLink(&l,
                           finding(Severity::Warning, codes::kFabricMtuMismatch,
                                   {endName(p, h.name), nameOf(p.switchId)},
                                   {QT_TRANSLATE_NOOP("rackscope", "%1 sends MTU %2 but %3 port %4 takes at "
                                                                   "most %5: larger packets are dropped"),
                                    {endName(p, h.name), QString::number(*mine), nameOf(p.switchId),
                                     p.switchPort, QString::number(*theirs)}},
                                   serverTarget(h.name,
                                                p.device.isEmpty() ? QStringList() : QStringList{p.device})));
                if (mine && !hostMtu.count(h.name)) {
                    hostMtu[h.name] = *mine;
                    hostMtus.push_back(*mine);
                }
            }
        if (hostMtus.size() < 2)
            return;
        int count = 0;
        const int usual = mostCommon(hostMtus, &count);
        for (const auto& [host, m] : hostMtu)
            if (m != usual)
                a_.findings.push_back(
                    finding(Severity::Warning, codes::kFabricMtuMismatch, {host},
                            {QT_TRANSLATE_NOOP("rackscope", "%1 uses MTU %2 where %3 of %4 hosts use %5: "
                                                            "traffic between them is limited to the smaller"),
                             {host, QString::number(m), QString::number(count),
                              QString::number(hostMtus.size()), QString::number(usual)}},
                            serverTarget(host)));
    }

    void leafCounts() {
        std::vector<int> counts;
        for (const FabricHost& h : a_.hosts)
            counts.push_back(int(h.leaves.size()));
        if (counts.size() < 2)
            return;
        int n = 0;
        const int usual = mostCommon(counts, &n);
        for (const FabricHost& h : a_.hosts)
            if (int(h.leaves.size()) != usual)
                a_.findings.push_back(finding(
                    Severity::Warning, codes::kFabricHostLeafCount, {h.name},
                    {QT_TRANSLATE_NOOP("rackscope", "%1 reaches %2 leaf switch(es) where %3 of %4 hosts "
                                                    "reach %5: a cable or port is missing or extra"),
                     {h.name, QString::number(h.leaves.size()), QString::number(n),
                      QString::number(counts.size()), QString::number(usual)}},
                    serverTarget(h.name)));
    }
};

} // namespace

std::optional<double> linkGbps(const QString& width, const QString& speed) {
    static const QRegularExpression kEthernet(QStringLiteral("^(\\d+(?:\\.\\d+)?)G$"));
    if (const auto m = kEthernet.match(speed); m.hasMatch())
        return m.captured(1).toDouble();
    const auto lane = laneGbps(speed);
    bool ok = false;
    const int lanes = width.endsWith(QLatin1Char('x')) ? width.chopped(1).toInt(&ok) : 0;
    if (!lane || !ok || lanes <= 0)
        return std::nullopt;
    return *lane * lanes;
}

std::optional<double> LeafLoad::ratio() const {
    if (!downGbps || !upGbps || *upGbps <= 0)
        return std::nullopt;
    return *downGbps / *upGbps;
}

const FabricHost* FabricAnalysis::host(const QString& name) const {
    for (const FabricHost& h : hosts)
        if (h.name == name)
            return &h;
    return nullptr;
}

FabricAnalysis analyseFabric(const Fabric& fabric) {
    return Analyser(fabric).run();
}

} // namespace rackscope
