#pragma once
// Finding the slow server or link: schedules of small runs across a host
// list, and a robust verdict over their bus bandwidths.
#include "analysis/finding.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace rackscope {

using HostPair = std::pair<QString, QString>;

// Every pair exactly once, in rounds of disjoint pairs (the circle method):
// n-1 rounds for an even n, n rounds for an odd n (one host rests each round).
std::vector<std::vector<HostPair>> roundRobinRounds(const QStringList& hosts);

// Halves, then quarters...: each level splits every group of the level above
// in two, down to groups of minGroup. Level 0 is the whole list.
std::vector<std::vector<QStringList>> bisectionLevels(const QStringList& hosts, int minGroup = 2);

struct PairBandwidth {
    QString a, b;
    double busbw = 0; // GB/s
};

struct Flagged {
    QString subject;   // a host, or "a - b" for a pair, as people read it
    QStringList hosts; // the host, or the pair's two hosts: the finding's targets
    double value = 0;  // its bus bandwidth (a host's: the median of its pairs)
    QString reason;
};

struct StragglerVerdict {
    double median = 0, mad = 0;                    // over the pairs no slow host is in
    std::vector<std::pair<QString, double>> hosts; // each host's median pair bandwidth, slowest first
    std::vector<Flagged> slowHosts, slowPairs;
};

struct StragglerRule {
    double madFactor = 3.0; // flagged below median - madFactor * MAD ...
    double madFloorFraction =
        0.01; // ... with MAD taken as at least 1 % of the median, so equal runs flag nobody
    std::optional<double> lineRateGBs; // and below lineRateFraction of the line rate, where it is known
    double lineRateFraction = 0.8;
};

// A slow host drags every pair it is in; a slow link drags one. So a host is
// judged by the median of its pairs, and a pair is flagged alone when
// neither of its hosts is.
StragglerVerdict findStragglers(const std::vector<PairBandwidth>& pairs, const StragglerRule& rule = {});

// The verdict as findings, the same in the window and the CLI: run-slow-host (error) for each slow host,
// run-slow-link (warning) for each slow pair, with the hosts as subjects.
std::vector<Finding> stragglerFindings(const StragglerVerdict& verdict);

} // namespace rackscope
