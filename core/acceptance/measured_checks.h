#pragma once
// The verdicts of the active checks (`check --active`): what was measured on each server judged against the
// rack's own median (a figure below 80 % of it is slow) and against a baseline's figure with a tolerance.
// A pair's figure belongs to both its ends, so a slow end is told from a slow partner by the partner's
// other pair.
#include "baseline.h"
#include "check_result.h"
#include "nccl_acceptance.h"
#include "rdma_pairs.h"

namespace rackscope {

inline constexpr double kSlowBelowMedian = 0.8;

struct MeasuredItem {
    QString check;
    Verdict verdict = Verdict::Pass;
    QString subject, evidence;
};

struct MeasuredJudge {
    const Baseline* baseline = nullptr;
    double tolerance = 0.10; // a figure this far below its baseline's fails
    QString baselineHost;    // the server's name in the baseline (its facts' name)
};

// Server `host`'s items of the rdma-bandwidth check from every pair of the rack; its figures (the best
// pair of each device, Gb/s, as "rdma.DEVICE") go to `measured` for a baseline.
std::vector<MeasuredItem> rdmaBandwidthItems(const QString& host, const std::vector<RdmaPairResult>& pairs,
                                             const MeasuredJudge& judge, std::map<QString, double>* measured);

} // namespace rackscope

namespace rackscope {

// Server `host`'s items of the nccl-bandwidth check: each collective alone against the rack's median for it
// and the baseline, and the pairwise hunt's verdict; its figures (GB/s, as "nccl.all_reduce") to `measured`.
std::vector<MeasuredItem> ncclBandwidthItems(const QString& host, const NcclAcceptance& nccl,
                                             const MeasuredJudge& judge, std::map<QString, double>* measured);

} // namespace rackscope
