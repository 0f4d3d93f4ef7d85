#include "straggler.h"

#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace rackscope {
namespace {

// A slow host, or a slow pair: the first host, and the other as its peer.
FindingTarget pairTarget(const QStringList& hosts) {
    FindingTarget t = serverTarget(hosts.value(0));
    t.peers = hosts.mid(1);
    return t;
}

} // namespace

std::vector<std::vector<HostPair>> roundRobinRounds(const QStringList& hosts) {
    if (hosts.size() < 2)
        return {};
    QStringList ring = hosts;
    const bool odd = ring.size() % 2 == 1;
    if (odd)
        ring << QString(); // the resting slot
    const qsizetype n = ring.size();
    std::vector<std::vector<HostPair>> rounds;
    for (qsizetype r = 0; r < n - 1; ++r) {
        std::vector<HostPair> round;
        for (qsizetype i = 0; i < n / 2; ++i) {
            const QString& a = ring[i];
            const QString& b = ring[n - 1 - i];
            if (!a.isEmpty() && !b.isEmpty())
                round.emplace_back(a, b);
        }
        rounds.push_back(round);
        ring.insert(1, ring.takeLast()); // the first stays, the rest turn
    }
    return rounds;
}

std::vector<std::vector<QStringList>> bisectionLevels(const QStringList& hosts, int minGroup) {
    std::vector<std::vector<QStringList>> levels;
    if (hosts.size() < std::max(2, minGroup))
        return levels;
    levels.push_back({hosts});
    for (;;) {
        std::vector<QStringList> next;
        for (const QStringList& g : levels.back()) {
            if (g.size() / 2 < minGroup)
                continue;
            next.push_back(g.mid(0, g.size() / 2));
            next.push_back(g.mid(g.size() / 2));
        }
        if (next.empty())
            break;
        levels.push_back(next);
    }
    return levels;
}

StragglerVerdict findStragglers(const std::vector<PairBandwidth>& pairs, const StragglerRule& rule) {
    StragglerVerdict v;
    if (pairs.empty())
        return v;
    std::map<QString, std::vector<double>> byHost;
    for (const PairBandwidth& p : pairs) {
        byHost[p.a].push_back(p.busbw);
        byHost[p.b].push_back(p.busbw);
    }
    const std::optional<double> lineFloor =
        rule.lineRateGBs ? std::optional(rule.lineRateFraction * *rule.lineRateGBs) : std::nullopt;
    // Why x is slow against values like it: the robust statistical rule, and the line rate where it is known.
    struct Reference {
        double median, mad, spread;
    };
    auto reference = [&](const std::vector<double>& values) {
        Reference r{median(values).value_or(0), 0, 0};
        std::vector<double> deviations;
        for (double x : values)
            deviations.push_back(std::abs(x - r.median));
        r.mad = median(deviations).value_or(0);
        r.spread = std::max(r.mad, rule.madFloorFraction * r.median);
        return r;
    };
    auto why = [&](double x, const Reference& ref) -> QString {
        QStringList r;
        if (x < ref.median - rule.madFactor * ref.spread)
            r << QStringLiteral("below median %1 - %2 x MAD %3")
                     .arg(ref.median, 0, 'f', 2)
                     .arg(rule.madFactor)
                     .arg(ref.spread, 0, 'f', 2);
        if (lineFloor && x < *lineFloor)
            r << QStringLiteral("below %1 % of the %2 GB/s line rate")
                     .arg(rule.lineRateFraction * 100)
                     .arg(*rule.lineRateGBs);
        return r.join(QStringLiteral("; "));
    };
    // Hosts against the other hosts: with one slow host of n, 2/n of the pairs are slow
    // (half of them for four hosts), but only 1/n of the host scores.
    std::vector<double> scores;
    for (const auto& [host, values] : byHost) {
        v.hosts.emplace_back(host, median(values).value_or(0));
        scores.push_back(v.hosts.back().second);
    }
    std::sort(v.hosts.begin(), v.hosts.end(),
              [](const auto& x, const auto& y) { return x.second < y.second; });
    const Reference hostRef = reference(scores);
    std::set<QString> slow;
    for (const auto& [host, score] : v.hosts)
        if (const QString reason = why(score, hostRef); !reason.isEmpty()) {
            v.slowHosts.push_back({host, {host}, score, reason});
            slow.insert(host);
        }
    // Pairs against the pairs no slow host explains.
    std::vector<double> clean;
    for (const PairBandwidth& p : pairs)
        if (!slow.count(p.a) && !slow.count(p.b))
            clean.push_back(p.busbw);
    if (clean.empty())
        return v;
    const Reference pairRef = reference(clean);
    v.median = pairRef.median;
    v.mad = pairRef.mad;
    for (const PairBandwidth& p : pairs)
        if (!slow.count(p.a) && !slow.count(p.b))
            if (const QString reason = why(p.busbw, pairRef); !reason.isEmpty())
                v.slowPairs.push_back({p.a + QStringLiteral(" - ") + p.b, {p.a, p.b}, p.busbw, reason});
    return v;
}

std::vector<Finding> stragglerFindings(const StragglerVerdict& v) {
    std::vector<Finding> out;
    const auto finding = [](Severity severity, const char* code, const Flagged& f) {
        return makeFinding(severity, QLatin1String(code), f.hosts,
                           {QT_TRANSLATE_NOOP("rackscope", "%1: %2 GB/s, %3"),
                            {f.subject, QString::number(f.value, 'f', 2), f.reason}},
                           pairTarget(f.hosts));
    };
    for (const Flagged& f : v.slowHosts)
        out.push_back(finding(Severity::Error, "run-slow-host", f));
    for (const Flagged& f : v.slowPairs)
        out.push_back(finding(Severity::Warning, "run-slow-link", f));
    return out;
}

} // namespace rackscope
