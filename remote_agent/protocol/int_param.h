#pragma once
// An integer request parameter in a range, as every method reads one: its value, the fallback when it is
// absent, or the bad-params message that names it and the range.
#include "collect/json.h"

#include <optional>
#include <string>

namespace rsagent {

inline bool readIntParam(const Json& params, const char* name, int64_t lo, int64_t hi,
                         std::optional<int64_t> fallback, std::optional<int64_t>* out, std::string* why) {
    if (!params.contains(name)) {
        *out = fallback;
        return true;
    }
    const Json& v = params[name];
    if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi) {
        *why = std::string("\"") + name + "\" must be an integer from " + std::to_string(lo) + " to " +
               std::to_string(hi);
        return false;
    }
    *out = v.get<int64_t>();
    return true;
}

} // namespace rsagent
