#pragma once
// The agent's JSON (nlohmann, key order kept) and its "unavailable" shape.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace rsagent {

using Json = nlohmann::ordered_json;

// A source that could not be read says so, and why: {"available":false,"reason":...}.
inline Json unavailable(const std::string& why) {
    return Json{{"available", false}, {"reason", why}};
}

template <class T> Json orNull(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}

} // namespace rsagent
