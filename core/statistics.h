#pragma once
// The few statistics the runs and the rack check share.
#include <algorithm>
#include <optional>
#include <vector>

namespace rackscope {

// The middle value (the mean of the two middle ones for an even count); nothing for no values.
inline std::optional<double> median(std::vector<double> values) {
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace rackscope
