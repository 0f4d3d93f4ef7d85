#include "measured_checks.h"

#include "statistics.h"

#include <algorithm>
#include <functional>

namespace rackscope {
namespace {

const QString kRdmaCheck = QStringLiteral("rdma-bandwidth");
const QString kNcclCheck = QStringLiteral("nccl-bandwidth");

QString gbit(double v) {
    return QStringLiteral("%1 Gb/s").arg(v, 0, 'f', 1);
}
QString gbyte(double v) {
    return QStringLiteral("%1 GB/s").arg(v, 0, 'f', 2);
}

// A figure below its baseline's by more than the tolerance, as an item.
std::optional<MeasuredItem> belowBaseline(const QString& check, const QString& subject, const QString& key,
                                          double value, const MeasuredJudge& judge,
                                          const std::function<QString(double)>& unit) {
    if (!judge.baseline)
        return std::nullopt;
    const auto saved = judge.baseline->measured.find(judge.baselineHost);
    if (saved == judge.baseline->measured.end())
        return std::nullopt;
    const auto was = saved->second.find(key);
    if (was == saved->second.end() || value >= was->second * (1 - judge.tolerance))
        return std::nullopt;
    return MeasuredItem{check, Verdict::Fail, subject,
                        QStringLiteral("%1, below the baseline's %2 by more than %3 %")
                            .arg(unit(value), unit(was->second))
                            .arg(judge.tolerance * 100, 0, 'g', 3)};
}

// One end of a pair: a server's device.
struct End {
    QString host, device;
    bool operator==(const End&) const = default;
};

End ownEnd(const RdmaPairResult& p, const QString& host) {
    return p.test.client == host ? End{p.test.client, p.test.clientDevice}
                                 : End{p.test.server, p.test.serverDevice};
}
End otherEnd(const RdmaPairResult& p, const QString& host) {
    return p.test.client == host ? End{p.test.server, p.test.serverDevice}
                                 : End{p.test.client, p.test.clientDevice};
}
bool involves(const RdmaPairResult& p, const End& e) {
    return (p.test.client == e.host && p.test.clientDevice == e.device) ||
           (p.test.server == e.host && p.test.serverDevice == e.device);
}

} // namespace

std::vector<MeasuredItem> rdmaBandwidthItems(const QString& host, const std::vector<RdmaPairResult>& pairs,
                                             const MeasuredJudge& judge,
                                             std::map<QString, double>* measured) {
    std::vector<MeasuredItem> out;
    std::vector<double> all;
    for (const RdmaPairResult& p : pairs)
        if (p.gbps)
            all.push_back(*p.gbps);
    const std::optional<double> rackMedian = median(all);
    const auto bad = [&](const RdmaPairResult& p) {
        return p.unavailable ? false : !p.gbps || (rackMedian && *p.gbps < kSlowBelowMedian * *rackMedian);
    };
    const auto pairText = [&](const RdmaPairResult& p, const QString& self) {
        const End o = otherEnd(p, self);
        const QString with = QStringLiteral("%1 %2").arg(o.host, o.device);
        return p.gbps ? QStringLiteral("%1 with %2").arg(gbit(*p.gbps), with)
                      : QStringLiteral("no figure with %1: %2").arg(with, p.error);
    };
    // Every measured pair of an end slow or failed: that end is slow with every peer.
    const auto slowEverywhere = [&](const End& e) {
        bool any = false;
        for (const RdmaPairResult& p : pairs)
            if (involves(p, e) && !p.unavailable) {
                any = true;
                if (!bad(p))
                    return false;
            }
        return any;
    };

    std::vector<QString> devices;
    for (const RdmaPairResult& p : pairs)
        if (p.test.client == host || p.test.server == host)
            if (const QString d = ownEnd(p, host).device;
                std::find(devices.begin(), devices.end(), d) == devices.end())
                devices.push_back(d);
    if (devices.empty()) {
        out.push_back(
            {kRdmaCheck,
             Verdict::Unknown,
             {},
             QStringLiteral("not measured: no pair with this server (ib_write_bw needs an RDMA device with a "
                            "port up here and on a second server)")});
        return out;
    }
    const QString medianText = rackMedian ? QStringLiteral("the rack's median pair %1").arg(gbit(*rackMedian))
                                          : QStringLiteral("no pair of the rack gave a figure");
    for (const QString& d : devices) {
        const End self{host, d};
        std::vector<const RdmaPairResult*> mine;
        for (const RdmaPairResult& p : pairs)
            if (involves(p, self))
                mine.push_back(&p);
        QStringList texts;
        std::optional<double> best;
        bool anyBad = false, anyMeasured = false;
        for (const RdmaPairResult* p : mine) {
            texts << pairText(*p, host);
            if (p->unavailable)
                continue;
            anyMeasured = true;
            anyBad |= bad(*p);
            if (p->gbps)
                best = std::max(best.value_or(0.0), *p->gbps);
        }
        const QString said = texts.join(QStringLiteral("; "));
        if (!anyMeasured) {
            out.push_back({kRdmaCheck, Verdict::Unknown, d, QStringLiteral("not measured: %1").arg(said)});
            continue;
        }
        if (best)
            (*measured)[QStringLiteral("rdma.") + d] = *best;
        if (slowEverywhere(self)) {
            QStringList partnersToo;
            for (const RdmaPairResult* p : mine)
                if (slowEverywhere(otherEnd(*p, host)))
                    partnersToo << otherEnd(*p, host).host + QLatin1Char(' ') + otherEnd(*p, host).device;
            out.push_back(
                {kRdmaCheck, Verdict::Fail, d,
                 QStringLiteral("slow or failing with every peer: %1 (%2)%3")
                     .arg(said, medianText,
                          partnersToo.isEmpty()
                              ? QString()
                              : QStringLiteral(
                                    "; %1 is slow with every peer too, so either end may be at fault")
                                    .arg(partnersToo.join(QStringLiteral(", "))))});
        } else if (anyBad) {
            // The slow pair's other end is slow with every peer: it is that end's fault, not this one's.
            bool explained = true;
            for (const RdmaPairResult* p : mine)
                if (bad(*p) && !slowEverywhere(otherEnd(*p, host)))
                    explained = false;
            out.push_back(
                {kRdmaCheck, explained ? Verdict::Pass : Verdict::Warn, d,
                 explained ? QStringLiteral("%1 (%2; the slow pair's other end is slow with every peer)")
                                 .arg(said, medianText)
                           : QStringLiteral("one pair slow, the others not: %1 (%2)").arg(said, medianText)});
        } else {
            out.push_back({kRdmaCheck, Verdict::Pass, d, QStringLiteral("%1 (%2)").arg(said, medianText)});
        }
        if (best)
            if (auto below = belowBaseline(kRdmaCheck, d, QStringLiteral("rdma.") + d, *best, judge, gbit)) {
                below->evidence.prepend(QStringLiteral("best pair "));
                out.push_back(*below);
            }
    }
    return out;
}

std::vector<MeasuredItem> ncclBandwidthItems(const QString& host, const NcclAcceptance& nccl,
                                             const MeasuredJudge& judge,
                                             std::map<QString, double>* measured) {
    std::vector<MeasuredItem> out;
    if (std::none_of(nccl.servers.begin(), nccl.servers.end(),
                     [&](const NcclServer& s) { return s.host == host; })) {
        out.push_back({kNcclCheck,
                       Verdict::Unknown,
                       {},
                       QStringLiteral("not measured: no GPU stated for NCCL to run on")});
        return out;
    }
    for (const Collective c : acceptanceCollectives()) {
        const QString name = collectiveName(c), subject = name + QStringLiteral(" alone");
        std::vector<double> rack;
        const NcclSingleResult* mine = nullptr;
        for (const NcclSingleResult& r : nccl.single)
            if (r.collective == c) {
                if (r.busbw)
                    rack.push_back(*r.busbw);
                if (r.host == host)
                    mine = &r;
            }
        if (!mine)
            continue;
        if (!mine->busbw) {
            out.push_back({kNcclCheck, Verdict::Fail, subject,
                           QStringLiteral("%1 failed: %2").arg(mine->command, mine->error)});
            continue;
        }
        const double value = *mine->busbw, middle = *median(rack);
        (*measured)[QStringLiteral("nccl.") + name] = value;
        const bool slow = value < kSlowBelowMedian * middle;
        out.push_back(
            {kNcclCheck, slow ? Verdict::Fail : Verdict::Pass, subject,
             QStringLiteral("bus bandwidth %1%2 (the rack's median %3 over %4 servers)")
                 .arg(gbyte(value), slow ? QStringLiteral(", below 80 % of") : QString(), gbyte(middle))
                 .arg(rack.size())});
        if (auto below =
                belowBaseline(kNcclCheck, subject, QStringLiteral("nccl.") + name, value, judge, gbyte))
            out.push_back(*below);
    }
    if (!nccl.verdict)
        return out;
    for (const GroupRun& g : nccl.pairs)
        if (g.hosts.contains(host) && !g.busbw)
            out.push_back(
                {kNcclCheck, Verdict::Warn, QStringLiteral("all_reduce in pairs"),
                 QStringLiteral("the run on %1 failed: %2").arg(g.hosts.join(QLatin1Char('+')), g.error)});
    const StragglerVerdict& v = *nccl.verdict;
    for (const Flagged& f : v.slowHosts)
        if (f.hosts.contains(host))
            out.push_back(
                {kNcclCheck, Verdict::Fail, QStringLiteral("all_reduce in pairs"),
                 QStringLiteral("slow in every pair: its pairs' median %1 against the rack's %2 (%3)")
                     .arg(gbyte(f.value), gbyte(v.median), f.reason)});
    for (const Flagged& f : v.slowPairs)
        if (f.hosts.contains(host))
            out.push_back({kNcclCheck, Verdict::Warn, QStringLiteral("all_reduce in pairs"),
                           QStringLiteral("the pair %1 ran at %2 against the rack's %3 (%4)")
                               .arg(f.subject, gbyte(f.value), gbyte(v.median), f.reason)});
    const auto own =
        std::find_if(v.hosts.begin(), v.hosts.end(), [&](const auto& h) { return h.first == host; });
    if (own != v.hosts.end())
        out.push_back({kNcclCheck, Verdict::Pass, QStringLiteral("all_reduce in pairs"),
                       QStringLiteral("its pairs' median %1 (the rack's %2)")
                           .arg(gbyte(own->second), gbyte(v.median))});
    return out;
}

} // namespace rackscope
