#include "rack_check.h"

#include "analysis/findings.h"
#include "analysis/nvlink_findings.h"
#include "measured_checks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <set>

namespace rackscope {
namespace {

QString actionFor(const QString& check) {
    static const std::map<QString, QString> actions = {
        {QStringLiteral("reachable"),
         QStringLiteral("Check that the server is up and reachable over SSH with "
                        "the key and known_hosts given.")},
        {QStringLiteral("gpu-inventory"),
         QStringLiteral(
             "Check that the driver sees every GPU (nvidia-smi -L); reseat or replace a missing one.")},
        {QStringLiteral("nic-inventory"),
         QStringLiteral("Check that every NIC is seated and its driver loaded "
                        "(ibv_devinfo -l); replace a failed NIC.")},
        {QStringLiteral("pcie-links"),
         QStringLiteral("Reseat the device or its riser and check the slot's BIOS "
                        "settings; a link that trained low stays low until reset.")},
        {QStringLiteral("gpu-nic-placement"),
         QStringLiteral("Move the NIC or the GPU to the same socket and PCIe switch, or pin NCCL to the NIC "
                        "beside each GPU.")},
        {QStringLiteral("gpudirect"),
         QStringLiteral(
             "Load nvidia_peermem (or use a kernel with DMA-BUF) and keep GPU and NIC under one PCIe "
             "switch.")},
        {QStringLiteral("acs-iommu"),
         QStringLiteral("Disable ACS redirection on the bridges between GPUs and "
                        "NICs, and boot with iommu=pt or the IOMMU off.")},
        {QStringLiteral("rdma-ports"),
         QStringLiteral(
             "Check the cable, the transceiver and the switch port (ibstat, mlxlink); a port at a lower "
             "rate usually has a bad cable.")},
        {QStringLiteral("mtu"),
         QStringLiteral("Set the MTU the rest of the rack uses (ip link set DEV mtu N) and "
                        "make it persistent.")},
        {QStringLiteral("roce-qos"), QStringLiteral("Configure PFC, ECN and trust the same on every server "
                                                    "(mlnx_qos or the NIC vendor's tool).")},
        {QStringLiteral("cabling"), QStringLiteral("Check the cable against the cabling plan.")},
        {QStringLiteral("nvlink"),
         QStringLiteral("Check the links (nvidia-smi nvlink -s) and the fabric manager; "
                        "reset or replace the GPU or its baseboard.")},
        {QStringLiteral("error-counters"),
         QStringLiteral("Find the link whose errors rise (cable, transceiver, "
                        "switch port) and replace what is failing.")},
        {QStringLiteral("versions"), QStringLiteral("Install the version the rest of the rack runs.")},
        {QStringLiteral("baseline"),
         QStringLiteral("Find out what changed since the baseline; save a new one if "
                        "the change was meant.")},
        {QStringLiteral("rdma-bandwidth"),
         QStringLiteral(
             "Test the slow device's port, cable and switch port (mlxlink, ibdiagnet); check its PCIe "
             "link and the GPU memory path it used.")},
        {QStringLiteral("nccl-bandwidth"),
         QStringLiteral(
             "Read the run's NCCL log for the transports taken; check the server's NVLink, PCIe and "
             "NICs against its peers'.")},
    };
    auto it = actions.find(check);
    return it == actions.end() ? QString() : it->second;
}

// The check a topology or fabric finding answers; empty: none (a note about the source).
QString checkOfFinding(const QString& code) {
    static const std::map<QString, QString> map = {
        {QLatin1String(codes::kGpuDriverMissing), QStringLiteral("gpu-inventory")},
        {QLatin1String(codes::kHostNoGpu), QStringLiteral("gpu-inventory")},
        {QLatin1String(codes::kRdmaDriverMissing), QStringLiteral("nic-inventory")},
        {QLatin1String(codes::kNoRdmaNic), QStringLiteral("nic-inventory")},
        {QLatin1String(codes::kPcieLinkDegraded), QStringLiteral("pcie-links")},
        {QLatin1String(codes::kPcieLinkBelowPeers), QStringLiteral("pcie-links")},
        {QLatin1String(codes::kNearestNicCrossSocket), QStringLiteral("gpu-nic-placement")},
        {QLatin1String(codes::kNicThroughPeer), QStringLiteral("gpu-nic-placement")},
        {QLatin1String(codes::kNicSharedUnevenly), QStringLiteral("gpu-nic-placement")},
        {QLatin1String(codes::kNoGpuDirectNic), QStringLiteral("gpudirect")},
        {QLatin1String(codes::kGpuDirectUnknown), QStringLiteral("gpudirect")},
        {QLatin1String(codes::kGpuDirectPrerequisiteMissing), QStringLiteral("gpudirect")},
        {QLatin1String(codes::kAcsEnabled), QStringLiteral("acs-iommu")},
        {QLatin1String(codes::kFabricRailBreak), QStringLiteral("cabling")},
        {QLatin1String(codes::kFabricHostLeafCount), QStringLiteral("cabling")},
        {QLatin1String(codes::kFabricLinkMissing), QStringLiteral("cabling")},
        {QLatin1String(codes::kFabricLinkBelowExpected), QStringLiteral("rdma-ports")},
        {QLatin1String(codes::kFabricLinkBelowPeers), QStringLiteral("rdma-ports")},
        {QLatin1String(codes::kFabricPortDown), QStringLiteral("rdma-ports")},
        {QLatin1String(codes::kFabricMtuMismatch), QStringLiteral("mtu")},
        {QLatin1String(codes::kNvlinkFabricNotReady), QStringLiteral("nvlink")},
        {QLatin1String(codes::kNvlinkFabricUnhealthy), QStringLiteral("nvlink")},
        {QLatin1String(codes::kNvlinkDomainSplit), QStringLiteral("nvlink")},
        {QLatin1String(codes::kImexPeerDown), QStringLiteral("nvlink")},
        {QLatin1String(codes::kNvlinkErrorsRising), QStringLiteral("error-counters")},
    };
    auto it = map.find(code);
    return it == map.end() ? QString() : it->second;
}

// "400 Gb/sec (4X NDR)" -> 400
std::optional<double> gbps(const QString& rate) {
    static const QRegularExpression number(QStringLiteral("^\\s*([0-9.]+)\\s*Gb/sec"));
    const auto m = number.match(rate);
    return m.hasMatch() ? std::optional<double>(m.captured(1).toDouble()) : std::nullopt;
}

struct Items {
    std::map<QString, std::vector<CheckItem>> byCheck;
    void add(const QString& check, Verdict v, const QString& subject, const QString& evidence) {
        // An unknown has nothing to fix: its evidence says what the source lacks.
        const bool act = v == Verdict::Warn || v == Verdict::Fail;
        byCheck[check].push_back({v, subject, evidence, act ? actionFor(check) : QString()});
    }
    bool bad(const QString& check) const {
        auto it = byCheck.find(check);
        return it != byCheck.end() &&
               std::any_of(it->second.begin(), it->second.end(),
                           [](const CheckItem& i) { return i.verdict != Verdict::Pass; });
    }
    bool has(const QString& check) const { return byCheck.count(check) > 0; }
};

void addFindings(Items& items, const std::vector<Finding>& findings) {
    for (const Finding& f : findings) {
        const QString check = checkOfFinding(f.code);
        if (check.isEmpty() || f.severity == Severity::Info)
            continue;
        const Verdict v = f.code == QLatin1String(codes::kGpuDirectUnknown) ? Verdict::Unknown
                          : f.severity == Severity::Error                   ? Verdict::Fail
                                                                            : Verdict::Warn;
        items.add(check, v, f.subjects.join(QStringLiteral(", ")), f.message);
    }
}

// NVML's own view of each GPU: a link narrower than the GPU can train (the generation drops at idle to save
// power, so only the width is judged), and NVLinks that are not up.
void addNvmlItems(Items& items, const QJsonObject& gpus) {
    for (const QJsonValue& v : gpus.value("gpus").toArray()) {
        const QJsonObject g = v.toObject();
        const QString gpu = QStringLiteral("GPU%1").arg(g.value("index").toInt());
        const QJsonObject pcie = g.value("pcie").toObject();
        const QJsonValue cur = pcie.value("current_width"), max = pcie.value("max_width");
        if (cur.isDouble() && max.isDouble() && cur.toInt() < max.toInt())
            items.add(QStringLiteral("pcie-links"), Verdict::Fail, gpu,
                      QStringLiteral("%1 (%2) runs its PCIe link at x%3 of the x%4 it can (NVML)")
                          .arg(gpu, g.value("name").toString())
                          .arg(cur.toInt())
                          .arg(max.toInt()));
        QStringList down;
        const QJsonArray links = g.value("nvlinks").toArray();
        for (const QJsonValue& l : links)
            if (!l.toObject().value("active").toBool())
                down << QString::number(l.toObject().value("link").toInt());
        if (!down.isEmpty())
            items.add(QStringLiteral("nvlink"), Verdict::Fail, gpu,
                      QStringLiteral("%1: NVLink %2 not active (%3 of %4 up, NVML)")
                          .arg(gpu, down.join(u','))
                          .arg(links.size() - down.size())
                          .arg(links.size()));
    }
}

// The most common rate of the rack's RDMA ports, by link layer.
std::map<QString, QString> commonRates(const std::vector<QJsonObject>& snapshots) {
    std::map<QString, std::map<QString, int>> counts;
    for (const QJsonObject& s : snapshots)
        for (const QJsonValue& d : s.value("rdma").toObject().value("devices").toArray())
            for (const QJsonValue& p : d.toObject().value("ports").toArray())
                ++counts[p.toObject().value("link_layer").toString()][p.toObject().value("rate").toString()];
    std::map<QString, QString> common;
    for (const auto& [layer, rates] : counts) {
        auto best = std::max_element(rates.begin(), rates.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
        common[layer] = best->first;
    }
    return common;
}

void addPortItems(Items& items, const QJsonObject& rdma, const std::map<QString, QString>& common) {
    for (const QJsonValue& dv : rdma.value("devices").toArray()) {
        const QJsonObject d = dv.toObject();
        for (const QJsonValue& pv : d.value("ports").toArray()) {
            const QJsonObject p = pv.toObject();
            const QString subject =
                QStringLiteral("%1 port %2")
                    .arg(d.value("name").toString(), p.value("port").toVariant().toString());
            const QString state = p.value("state").toObject().value("name").toString(),
                          phys = p.value("phys_state").toObject().value("name").toString();
            if (!state.isEmpty() && state != QLatin1String("ACTIVE")) {
                items.add(QStringLiteral("rdma-ports"), Verdict::Fail, subject,
                          QStringLiteral("%1 is %2 (physical state %3)")
                              .arg(subject, state, phys.isEmpty() ? QStringLiteral("unknown") : phys));
                continue;
            }
            const QString layer = p.value("link_layer").toString(), rate = p.value("rate").toString();
            auto c = common.find(layer);
            const auto mine = gbps(rate), usual = c == common.end() ? std::nullopt : gbps(c->second);
            if (mine && usual && *mine < *usual)
                items.add(QStringLiteral("rdma-ports"), Verdict::Fail, subject,
                          QStringLiteral("%1 runs at %2, below the %3 most %4 ports of the rack run at")
                              .arg(subject, rate, c->second, layer));
            // A RoCE port needs a RoCE v2 GID for NCCL to route over IP; the agent lists GIDs only live.
            const QJsonArray gids = p.value("gids").toArray();
            if (layer == QLatin1String("Ethernet") && !gids.isEmpty() &&
                std::none_of(gids.begin(), gids.end(), [](const QJsonValue& g) {
                    return g.toObject().value("type").toString().contains(QLatin1String("v2"));
                }))
                items.add(QStringLiteral("rdma-ports"), Verdict::Warn, subject,
                          QStringLiteral("%1 has no RoCE v2 GID: is an IP address set on its netdev?")
                              .arg(subject));
        }
    }
}

QString listFacts(const HostFacts& f, const QString& check, bool withKeys = true) {
    QStringList parts;
    for (const Fact& fact : f.facts)
        if (fact.check == check)
            parts << (withKeys ? fact.key + QLatin1Char(' ') + fact.text() : fact.text());
    return parts.join(QStringLiteral("; "));
}

// What a check with nothing wrong rests on: its evidence, or why the source cannot say.
void addPassOrUnknown(Items& items, const QString& check, const HostFacts& f, const InspectedHost& h,
                      const QJsonObject& snapshot) {
    if (items.has(check))
        return;
    const auto silent = [&](const QString& fallback) {
        auto it = f.silent.find(check);
        items.add(check, Verdict::Unknown, {}, it != f.silent.end() ? it->second : fallback);
    };
    const QString facts = listFacts(f, check);
    if (check == QLatin1String("pcie-links")) {
        const bool anyLink = std::any_of(h.host.gpus.begin(), h.host.gpus.end(),
                                         [](const Device& d) { return d.linkCurrent.known(); }) ||
                             std::any_of(h.host.nics.begin(), h.host.nics.end(),
                                         [](const Device& d) { return d.linkCurrent.known(); }) ||
                             f.find(QStringLiteral("gpu.pcie_width"));
        if (anyLink)
            items.add(check, Verdict::Pass, {},
                      QStringLiteral("every stated link at its capability and its peers'"));
        else
            silent(QStringLiteral("the source states no PCIe link speed or width"));
    } else if (check == QLatin1String("gpu-nic-placement") || check == QLatin1String("gpudirect")) {
        if (h.analysis.gpuNic.empty())
            silent(QStringLiteral("no GPU–NIC pair in the topology (%1 GPUs, %2 NICs)")
                       .arg(h.host.gpus.size())
                       .arg(h.host.nics.size()));
        else
            items.add(check, Verdict::Pass, {},
                      check == QLatin1String("gpudirect")
                          ? QStringLiteral("GPUDirect RDMA usable on each GPU's NIC")
                          : QStringLiteral("each GPU's NIC under its own socket, evenly shared"));
    } else if (check == QLatin1String("acs-iommu")) {
        const QJsonObject iommu = snapshot.value("gpudirect").toObject().value("iommu").toObject();
        const bool pcie = snapshot.value("pcie").toObject().value("available").toBool();
        if (iommu.isEmpty() || !pcie)
            silent(snapshot.isEmpty() ? QStringLiteral("a topology file states neither ACS nor the IOMMU")
                                      : snapshot.value("pcie").toObject().value("reason").toString(
                                            QStringLiteral("the agent read no IOMMU state")));
        else
            items.add(check, Verdict::Pass, {},
                      QStringLiteral("IOMMU %1; no ACS redirection above a GPU or NIC")
                          .arg(iommu.value("mode").toString()));
    } else if (check == QLatin1String("roce-qos") && facts.isEmpty()) {
        const Fact* layers = f.find(QStringLiteral("port.link_layer"));
        if (layers && !layers->values.contains(QStringLiteral("Ethernet")))
            items.add(check, Verdict::Pass, {},
                      QStringLiteral("no RoCE port: every RDMA port is InfiniBand"));
        else
            silent(QStringLiteral("no QoS stated"));
    } else if (check == QLatin1String("nvlink") && facts.isEmpty() &&
               snapshot.value("gpus").toObject().value("available").toBool()) {
        items.add(check, Verdict::Pass, {}, QStringLiteral("no NVLink: NVML lists none"));
    } else if (!facts.isEmpty()) {
        items.add(check, Verdict::Pass, {}, facts);
    } else {
        silent(QStringLiteral("the source does not say"));
    }
}

QString phrased(const QString& key, const QString& value) {
    return factKind(key).phrase.arg(value);
}

std::vector<Drift> findDrift(const std::vector<HostFacts>& all) {
    std::map<QString, std::vector<std::pair<QString, QString>>> byKey; // key -> (host, value)
    for (const HostFacts& h : all)
        for (const Fact& f : h.facts)
            if (!f.key.startsWith(QLatin1String("lldp."))) // each server has its own switch ports
                byKey[f.key].push_back({h.host, f.text()});
    std::vector<Drift> out;
    for (const auto& [key, values] : byKey) {
        Drift d{key, factKind(key).check, {}, false, {}};
        for (const auto& [host, value] : values) {
            auto it = std::find_if(d.groups.begin(), d.groups.end(),
                                   [&](const auto& g) { return g.first == value; });
            if (it == d.groups.end())
                d.groups.push_back({value, {host}});
            else
                it->second << host;
        }
        if (d.groups.size() < 2)
            continue;
        std::stable_sort(d.groups.begin(), d.groups.end(),
                         [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
        const qsizetype n = qsizetype(values.size());
        d.majority = d.groups.front().second.size() * 2 > n;
        for (size_t i = d.majority ? 1 : 0; i < d.groups.size(); ++i) {
            const auto& [value, hosts] = d.groups[i];
            QString s =
                QStringLiteral("%1 of %2 servers %3").arg(hosts.size()).arg(n).arg(phrased(key, value));
            if (d.majority)
                s += d.groups.size() == 2 ? QStringLiteral("; the other %1 %2")
                                                .arg(d.groups.front().second.size())
                                                .arg(phrased(key, d.groups.front().first))
                                          : QStringLiteral("; %1 of %2 %3")
                                                .arg(d.groups.front().second.size())
                                                .arg(n)
                                                .arg(phrased(key, d.groups.front().first));
            else
                s += QStringLiteral(" (no value is held by more than half the servers)");
            d.sentences << s + QStringLiteral(" (%1)").arg(hosts.join(QStringLiteral(", ")));
        }
        out.push_back(std::move(d));
    }
    return out;
}

// Facts the per-device items judge more precisely: a drift of theirs is not repeated where those spoke.
bool judgedPerDevice(const QString& key) {
    return key == QLatin1String("port.state") || key == QLatin1String("port.rate") ||
           key == QLatin1String("gpu.pcie_width") || key == QLatin1String("nvlink.active");
}

QString subjectOf(const QString& key) {
    if (key.startsWith(QLatin1String("mtu.")) || key.startsWith(QLatin1String("lldp.")))
        return key.mid(key.indexOf(QLatin1Char('.')) + 1);
    if (key.startsWith(QLatin1String("qos.")))
        return key.mid(4, key.lastIndexOf(QLatin1Char('.')) - 4);
    return {};
}

void addDriftItems(Items& items, const QString& host, const std::vector<Drift>& drift) {
    for (const Drift& d : drift) {
        if (judgedPerDevice(d.key) && items.bad(d.check))
            continue;
        for (size_t i = d.majority ? 1 : 0; i < d.groups.size(); ++i)
            if (d.groups[i].second.contains(host))
                items.add(d.check, d.majority ? failedVerdict(d.check) : Verdict::Warn, subjectOf(d.key),
                          d.sentences[i - (d.majority ? 1 : 0)]);
    }
}

void addExpectationItems(Items& items, const HostFacts& f, const Expectation& e) {
    for (const Expectation::Rule& rule : e.rules) {
        bool seen = false;
        for (const Fact& fact : f.facts) {
            if (!wildcardMatch(rule.key, fact.key))
                continue;
            seen = true;
            QStringList wrong;
            for (const QString& v : fact.values)
                if (std::none_of(rule.allowed.begin(), rule.allowed.end(),
                                 [&](const QString& a) { return wildcardMatch(a, v); }) &&
                    !wrong.contains(v))
                    wrong << v;
            if (!wrong.isEmpty())
                items.add(
                    fact.check, failedVerdict(fact.check), subjectOf(fact.key),
                    QStringLiteral("%1 is %2; %3 expects %4")
                        .arg(fact.key, fact.text(), e.location, rule.allowed.join(QStringLiteral(" or "))));
        }
        const QString check = factKind(rule.key).check;
        if (!seen && !check.isEmpty()) { // a key without wildcards the source did not state
            auto why = f.silent.find(check);
            items.add(
                check, Verdict::Unknown, {},
                QStringLiteral("%1 expects %2 = %3; %4")
                    .arg(e.location, rule.key, rule.allowed.join(QStringLiteral(" or ")),
                         why != f.silent.end() ? why->second : QStringLiteral("the source does not say")));
        }
    }
}

void addBaselineItems(Items& items, const HostFacts& f, const Baseline& b) {
    const QString when = b.savedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    auto saved = b.facts.find(f.host);
    if (saved == b.facts.end()) {
        items.add(QStringLiteral("baseline"), Verdict::Warn, {},
                  QStringLiteral("not in the baseline %1 (saved %2)").arg(b.location, when));
        return;
    }
    for (const auto& [key, was] : saved->second) {
        const QString check = factKind(key).check;
        if (check.isEmpty())
            continue;
        const Fact* now = f.find(key);
        if (!now)
            items.add(check, Verdict::Unknown, subjectOf(key),
                      QStringLiteral("%1 was %2 in the baseline of %3; the source says nothing of it now")
                          .arg(key, was, when));
        else if (now->text() != was)
            items.add(
                check, failedVerdict(check), subjectOf(key),
                QStringLiteral("%1 is %2; it was %3 in the baseline of %4").arg(key, now->text(), was, when));
    }
    items.add(QStringLiteral("baseline"), Verdict::Pass, {},
              QStringLiteral("compared with the baseline %1 (saved %2)").arg(b.location, when));
}

void addCounterItems(Items& items, const QString& host, const CheckOptions& o) {
    if (auto it = o.unsampled.find(host); it != o.unsampled.end()) {
        items.add(QStringLiteral("error-counters"), Verdict::Unknown, {}, it->second);
        return;
    }
    int read = 0;
    for (const CounterChange& c : o.counterChanges) {
        if (c.host != host)
            continue;
        ++read;
        if (c.kind == CounterKind::Error && c.delta && *c.delta > 0)
            items.add(
                QStringLiteral("error-counters"), Verdict::Warn, c.counter.section(u'/', 1, -2),
                QStringLiteral("%1 rose by %2 in %3 s").arg(c.counter).arg(*c.delta).arg(*o.sampleSeconds));
    }
    if (!items.has(QStringLiteral("error-counters")))
        items.add(QStringLiteral("error-counters"), read ? Verdict::Pass : Verdict::Unknown, {},
                  read ? QStringLiteral("no error counter rose in %1 s (%2 counters read)")
                             .arg(*o.sampleSeconds)
                             .arg(read)
                       : QStringLiteral("the agent gave no counter"));
}

ServerCheck finish(const QString& host, const QString& source, Items& items, const CheckOptions& o) {
    ServerCheck s{host, source, Verdict::Pass, {}};
    for (const CheckInfo& info : checkCatalogue()) {
        const QString id = QLatin1String(info.id);
        if ((id == QLatin1String("error-counters") && !o.sampleSeconds) ||
            (id == QLatin1String("baseline") && !o.baseline) ||
            (id == QLatin1String("rdma-bandwidth") && !o.rdmaPairs) ||
            (id == QLatin1String("nccl-bandwidth") && !o.nccl))
            continue;
        CheckResult r{id, Verdict::Pass, std::move(items.byCheck[id])};
        // A pass beside an item that is not: the pass is what the check rests on otherwise, dropped.
        if (std::any_of(r.items.begin(), r.items.end(),
                        [](const CheckItem& i) { return i.verdict != Verdict::Pass; }))
            std::erase_if(r.items, [](const CheckItem& i) { return i.verdict == Verdict::Pass; });
        for (const CheckItem& i : r.items)
            r.verdict = worse(r.verdict, i.verdict);
        s.verdict = worse(s.verdict, r.verdict);
        s.checks.push_back(std::move(r));
    }
    return s;
}

} // namespace

const CheckResult* ServerCheck::check(const QString& id) const {
    for (const CheckResult& c : checks)
        if (c.id == id)
            return &c;
    return nullptr;
}

Verdict RackCheck::verdict() const {
    Verdict v = Verdict::Pass;
    for (const ServerCheck& s : servers)
        v = worse(v, s.verdict);
    return v;
}

int RackCheck::exitStatus() const {
    const Verdict v = verdict();
    return v == Verdict::Fail ? 2 : v == Verdict::Pass ? 0 : 1;
}

RackCheck checkRack(const Workspace& ws, const CheckOptions& o) {
    RackCheck rack;
    rack.checkedAt = QDateTime::currentDateTimeUtc();
    if (o.expect)
        rack.expectation = o.expect->location;
    if (o.baseline)
        rack.baseline = o.baseline->location;

    std::vector<const InspectedHost*> hosts;
    std::vector<QJsonObject> snapshots;
    for (const ServerEntry& e : ws.servers())
        if (e.host) {
            hosts.push_back(e.host);
            snapshots.push_back(ws.agentSnapshot(*e.host));
            rack.facts.push_back(factsOf(*e.host, snapshots.back()));
        }
    rack.drift = findDrift(rack.facts);
    const std::map<QString, QString> rates = commonRates(snapshots);
    std::vector<Finding> fabricFindings;
    if (ws.fabricAnalysis())
        fabricFindings = ws.fabricAnalysis()->findings;
    std::vector<WorkspaceFinding> nvlinkVerdicts;
    for (WorkspaceFinding& w : ws.findings())
        if (w.finding.code.startsWith(QLatin1String("nvlink-")) ||
            w.finding.code == QLatin1String(codes::kImexPeerDown))
            nvlinkVerdicts.push_back(std::move(w));

    size_t next = 0;
    for (const ServerEntry& e : ws.servers()) {
        Items items;
        if (e.unreachable) {
            const UnreachableServer& u = *e.unreachable;
            items.add(QStringLiteral("reachable"), Verdict::Fail, {},
                      QStringLiteral("%1 failed: %2").arg(u.stage, u.message));
            for (const CheckInfo& info : checkCatalogue())
                if (!items.has(QLatin1String(info.id)))
                    items.add(QLatin1String(info.id), Verdict::Unknown, {}, QStringLiteral("not reached"));
            rack.servers.push_back(finish(u.name, u.location, items, o));
            continue;
        }
        const InspectedHost& h = *hosts[next];
        const QJsonObject& snapshot = snapshots[next];
        const HostFacts& f = rack.facts[next++];
        items.add(QStringLiteral("reachable"), Verdict::Pass, {}, QStringLiteral("read from ") + f.source);
        addFindings(items, h.analysis.findings);
        for (const Finding& finding : fabricFindings)
            if (finding.target.host == f.host)
                addFindings(items, {finding});
        for (const WorkspaceFinding& nvlink : nvlinkVerdicts) // registration, health, domain, IMEX (NVML)
            if (nvlink.host == f.host)
                addFindings(items, {nvlink.finding});
        addNvmlItems(items, snapshot.value("gpus").toObject());
        addPortItems(items, snapshot.value("rdma").toObject(), rates);
        if (snapshot.value("gpudirect").toObject().value("iommu").toObject().value("mode").toString() ==
            QLatin1String("translated"))
            items.add(
                QStringLiteral("acs-iommu"), Verdict::Warn, {},
                QStringLiteral("the IOMMU translates DMA: peer-to-peer traffic between GPU and NIC goes "
                               "through it (boot with iommu=pt)"));
        addDriftItems(items, f.host, rack.drift);
        if (o.expect)
            addExpectationItems(items, f, *o.expect);
        if (o.baseline)
            addBaselineItems(items, f, *o.baseline);
        if (o.sampleSeconds)
            addCounterItems(items, f.host, o);
        const MeasuredJudge judge{o.baseline ? &*o.baseline : nullptr, o.tolerance, f.host};
        // The active checks know a server by the name the console reached it by.
        const QString ssh = sshHostOf(h.host.source.location), alias = ssh.isEmpty() ? f.host : ssh;
        std::map<QString, double> figures;
        std::vector<MeasuredItem> measuredItems;
        if (o.rdmaPairs)
            measuredItems = rdmaBandwidthItems(alias, *o.rdmaPairs, judge, &figures);
        if (o.nccl)
            for (MeasuredItem& m : ncclBandwidthItems(alias, *o.nccl, judge, &figures))
                measuredItems.push_back(std::move(m));
        for (const MeasuredItem& m : measuredItems)
            items.add(m.check, m.verdict, m.subject, m.evidence);
        if (!figures.empty())
            rack.measured[f.host] = figures;
        for (const CheckInfo& info : checkCatalogue())
            if (QLatin1String(info.id) != QLatin1String("error-counters") &&
                QLatin1String(info.id) != QLatin1String("baseline"))
                addPassOrUnknown(items, QLatin1String(info.id), f, h, snapshot);
        rack.servers.push_back(finish(f.host, f.source, items, o));
    }
    if (o.baseline)
        for (const auto& [host, facts] : o.baseline->facts)
            if (std::none_of(rack.servers.begin(), rack.servers.end(),
                             [&](const ServerCheck& s) { return s.host == host; }))
                rack.notes << QStringLiteral("%1 is in the baseline but was not checked").arg(host);
    return rack;
}

} // namespace rackscope
