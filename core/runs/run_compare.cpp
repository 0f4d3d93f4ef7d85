#include "run_compare.h"

#include <map>

namespace rackscope {

std::vector<SizeComparison> compareRuns(const NcclTestsRun& a, const NcclTestsRun& b) {
    std::map<qint64, SizeComparison> bySize;
    for (const NcclTestsRow& r : a.rows) {
        bySize[r.size].size = r.size;
        bySize[r.size].busbwA = r.outOfPlace.busbw;
    }
    for (const NcclTestsRow& r : b.rows) {
        bySize[r.size].size = r.size;
        bySize[r.size].busbwB = r.outOfPlace.busbw;
    }
    std::vector<SizeComparison> out;
    for (auto& [size, c] : bySize) {
        if (c.busbwA && c.busbwB && *c.busbwA > 0)
            c.ratio = *c.busbwB / *c.busbwA;
        out.push_back(c);
    }
    return out;
}

std::optional<double> peakBusbw(const NcclTestsRun& run) {
    const NcclTestsRow* largest = nullptr;
    for (const NcclTestsRow& r : run.rows)
        if (!largest || r.size >= largest->size)
            largest = &r;
    return largest ? std::optional(largest->outOfPlace.busbw) : std::nullopt;
}

} // namespace rackscope
