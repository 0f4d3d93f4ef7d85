#include "measured_checks.h"

#include <algorithm>

namespace rackscope {
namespace {

const QString kRdmaCheck = QStringLiteral("rdma-bandwidth");

std::optional<double> median(std::vector<double> v) {
    if (v.empty())
        return std::nullopt;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

QString gbit(double v) {
    return QStringLiteral("%1 Gb/s").arg(v, 0, 'f', 1);
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
             QStringLiteral("not measured: ib_write_bw needs a second server with an RDMA device")});
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
        if (judge.baseline && best) {
            const auto saved = judge.baseline->measured.find(judge.baselineHost);
            if (saved != judge.baseline->measured.end())
                if (const auto was = saved->second.find(QStringLiteral("rdma.") + d);
                    was != saved->second.end() && *best < was->second * (1 - judge.tolerance))
                    out.push_back({kRdmaCheck, Verdict::Fail, d,
                                   QStringLiteral("best pair %1, below the baseline's %2 by more than %3 %")
                                       .arg(gbit(*best), gbit(was->second))
                                       .arg(judge.tolerance * 100, 0, 'g', 3)});
        }
    }
    return out;
}

} // namespace rackscope
