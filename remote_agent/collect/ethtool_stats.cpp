#include "ethtool_stats.h"

#include <cstring>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <memory>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace rsagent {
namespace {

constexpr uint32_t kMaxStats = 8192; // bounded: a driver cannot make the agent allocate without limit

bool ethtoolIoctl(int sock, const std::string& ifname, void* data) {
    ifreq req{};
    std::strncpy(req.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
    req.ifr_data = static_cast<char*>(data);
    return ::ioctl(sock, SIOCETHTOOL, &req) == 0;
}

} // namespace

std::map<std::string, uint64_t> ethtoolStats(const std::string& ifname) {
    std::map<std::string, uint64_t> out;
    const int sock = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0)
        return out;
    // How many statistics: ETHTOOL_GSSET_INFO for the ETH_SS_STATS string set.
    std::vector<uint8_t> info(sizeof(ethtool_sset_info) + sizeof(uint32_t), 0);
    auto* sset = reinterpret_cast<ethtool_sset_info*>(info.data());
    sset->cmd = ETHTOOL_GSSET_INFO;
    sset->sset_mask = 1ULL << ETH_SS_STATS;
    uint32_t count = 0;
    if (ethtoolIoctl(sock, ifname, sset) && (sset->sset_mask & (1ULL << ETH_SS_STATS)))
        std::memcpy(&count, info.data() + sizeof(ethtool_sset_info), sizeof count);
    if (count == 0 || count > kMaxStats) {
        ::close(sock);
        return out;
    }
    std::vector<uint8_t> names(sizeof(ethtool_gstrings) + size_t(count) * ETH_GSTRING_LEN, 0);
    auto* strings = reinterpret_cast<ethtool_gstrings*>(names.data());
    strings->cmd = ETHTOOL_GSTRINGS;
    strings->string_set = ETH_SS_STATS;
    strings->len = count;
    std::vector<uint8_t> values(sizeof(ethtool_stats) + size_t(count) * sizeof(uint64_t), 0);
    auto* stats = reinterpret_cast<ethtool_stats*>(values.data());
    stats->cmd = ETHTOOL_GSTATS;
    stats->n_stats = count;
    if (ethtoolIoctl(sock, ifname, strings) && ethtoolIoctl(sock, ifname, stats)) {
        const uint32_t n = std::min(count, std::min(strings->len, stats->n_stats));
        for (uint32_t i = 0; i < n; ++i) {
            const char* name = reinterpret_cast<const char*>(names.data() + sizeof(ethtool_gstrings)) +
                               size_t(i) * ETH_GSTRING_LEN;
            uint64_t v = 0;
            std::memcpy(&v, values.data() + sizeof(ethtool_stats) + size_t(i) * sizeof(uint64_t), sizeof v);
            out[std::string(name, strnlen(name, ETH_GSTRING_LEN))] = v;
        }
    }
    ::close(sock);
    return out;
}

} // namespace rsagent
