#pragma once
#include "collectors.h"

#include <set>

namespace rsagent {

struct CollectOptions {
    HostFs fs;
    LldpOptions lldp;
};

// The section names a snapshot can hold, in the order they are collected.
const std::vector<std::string>& snapshotSections();
// One snapshot; `sections` empty means all of them.
Json collectSnapshot(const CollectOptions& options, const std::set<std::string>& sections = {});
std::string hostName();

} // namespace rsagent
