#pragma once
// Two runs side by side, size by size: a run against a saved baseline, or
// today's rack against last week's.
#include "nccl_tests_output.h"

#include <vector>

namespace rackscope {

struct SizeComparison {
    qint64 size = 0;
    std::optional<double> busbwA, busbwB; // out-of-place, GB/s; empty where that run lacks the size
    std::optional<double> ratio;          // B / A
};

std::vector<SizeComparison> compareRuns(const NcclTestsRun& a, const NcclTestsRun& b);

// The bus bandwidth a run reached: out-of-place at its largest size, where
// small sizes are latency and not bandwidth.
std::optional<double> peakBusbw(const NcclTestsRun& run);

} // namespace rackscope
