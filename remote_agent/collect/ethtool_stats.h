#pragma once
// `ethtool -S IFACE`: the driver's own statistics, through the ethtool ioctl.
#include <cstdint>
#include <map>
#include <string>

namespace rsagent {

// Name -> value; empty when the interface has no driver statistics.
std::map<std::string, uint64_t> ethtoolStats(const std::string& ifname);

} // namespace rsagent
