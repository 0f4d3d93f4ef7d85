#include "collectors.h"

#include <arpa/inet.h>
#include <cstring>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rsagent {
namespace {

std::string basename(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Driver, version and firmware through the ethtool ioctl (what `ethtool -i` prints).
Json ethtoolInfo(int sock, const std::string& ifname) {
    ethtool_drvinfo info{};
    info.cmd = ETHTOOL_GDRVINFO;
    ifreq req{};
    std::strncpy(req.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
    req.ifr_data = reinterpret_cast<char*>(&info);
    if (sock < 0 || ::ioctl(sock, SIOCETHTOOL, &req) != 0)
        return nullptr;
    auto field = [](const char* s, size_t n) { return std::string(s, strnlen(s, n)); };
    return Json{{"driver", field(info.driver, sizeof info.driver)},
                {"version", field(info.version, sizeof info.version)},
                {"firmware", field(info.fw_version, sizeof info.fw_version)},
                {"bus_info", field(info.bus_info, sizeof info.bus_info)}};
}

std::map<std::string, Json> addresses() {
    std::map<std::string, Json> out;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0)
        return out;
    for (ifaddrs* a = list; a; a = a->ifa_next) {
        if (!a->ifa_addr || !a->ifa_name)
            continue;
        char text[INET6_ADDRSTRLEN] = {};
        const int family = a->ifa_addr->sa_family;
        if (family == AF_INET)
            ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
        else if (family == AF_INET6)
            ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(a->ifa_addr)->sin6_addr, text,
                        sizeof text);
        else
            continue;
        Json& entry = out[a->ifa_name];
        if (entry.is_null())
            entry = Json{{"ipv4", Json::array()}, {"ipv6", Json::array()}};
        entry[family == AF_INET ? "ipv4" : "ipv6"].push_back(text);
    }
    ::freeifaddrs(list);
    return out;
}

// /proc/net/route: little-endian hex destinations and gateways.
Json ipv4Routes(const HostFs& fs) {
    const auto text = fs.proc("net/route");
    if (!text)
        return unavailable("cannot read /proc/net/route");
    Json routes = Json::array();
    std::istringstream in(*text);
    std::string line;
    std::getline(in, line); // header
    auto ip = [](const std::string& hex) -> Json {
        const auto v = parseInt(hex, 16);
        if (!v)
            return nullptr;
        in_addr a{};
        a.s_addr = uint32_t(*v);
        char buf[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &a, buf, sizeof buf);
        return std::string(buf);
    };
    while (std::getline(in, line) && routes.size() < 10000) {
        std::istringstream f(line);
        std::string iface, dest, gw, flags, refcnt, use, metric, mask;
        if (!(f >> iface >> dest >> gw >> flags >> refcnt >> use >> metric >> mask))
            continue;
        const Json destination = ip(dest);
        routes.push_back(Json{{"interface", iface},
                              {"destination", destination},
                              {"gateway", ip(gw)},
                              {"mask", ip(mask)},
                              {"metric", orNull(parseInt(metric))},
                              {"default", destination == Json("0.0.0.0")}});
    }
    return routes;
}

// /proc/net/ipv6_route: 32-hex-digit addresses, hex prefix lengths and metric.
Json ipv6Routes(const HostFs& fs) {
    const auto text = fs.proc("net/ipv6_route");
    if (!text)
        return unavailable("cannot read /proc/net/ipv6_route");
    auto ip = [](const std::string& hex) -> Json {
        if (hex.size() != 32)
            return nullptr;
        in6_addr a{};
        for (size_t i = 0; i < 16; ++i) {
            const auto byte = parseInt(hex.substr(2 * i, 2), 16);
            if (!byte)
                return nullptr;
            a.s6_addr[i] = uint8_t(*byte);
        }
        char buf[INET6_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET6, &a, buf, sizeof buf);
        return std::string(buf);
    };
    Json routes = Json::array();
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line) && routes.size() < 10000) {
        std::istringstream f(line);
        std::string dst, dstLen, src, srcLen, next, metric, refcnt, use, flags, iface;
        if (!(f >> dst >> dstLen >> src >> srcLen >> next >> metric >> refcnt >> use >> flags >> iface))
            continue;
        const auto prefix = parseInt(dstLen, 16);
        routes.push_back(Json{{"interface", iface},
                              {"destination", ip(dst)},
                              {"prefix_length", orNull(prefix)},
                              {"gateway", ip(next)},
                              {"metric", orNull(parseInt(metric, 16))},
                              {"default", prefix == 0}});
    }
    return routes;
}

} // namespace

Json collectNet(const HostFs& fs) {
    const auto names = fs.sysList("class/net");
    if (names.empty())
        return unavailable("no interfaces in /sys/class/net");
    const int sock = fs.live() ? ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0) : -1;
    const auto addrs = fs.live() ? addresses() : std::map<std::string, Json>{};
    Json list = Json::array();
    for (const std::string& ifname : names) {
        const std::string base = "class/net/" + ifname;
        const auto speed = fs.sysInt(base + "/speed"); // -1 or unreadable while the link is down
        Json i{{"name", ifname},
               {"operstate", orNull(fs.sys(base + "/operstate"))},
               {"mtu", orNull(fs.sysInt(base + "/mtu"))},
               {"speed_mbps", speed && *speed > 0 ? Json(*speed) : Json(nullptr)},
               {"duplex", orNull(fs.sys(base + "/duplex"))},
               {"address", orNull(fs.sys(base + "/address"))},
               {"type", orNull(fs.sysInt(base + "/type"))},
               {"pci", nullptr},
               {"driver", nullptr}};
        if (auto dev = fs.sysLink(base + "/device"); dev && !pciAddressIn(*dev).empty())
            i["pci"] = pciAddressIn(*dev);
        if (auto drv = fs.sysLink(base + "/device/driver"))
            i["driver"] = basename(*drv);
        i["ethtool"] = fs.live() ? ethtoolInfo(sock, ifname) : Json(nullptr);
        const auto a = addrs.find(ifname);
        i["addresses"] = a == addrs.end() ? Json(nullptr) : a->second;
        list.push_back(std::move(i));
    }
    if (sock >= 0)
        ::close(sock);
    return Json{{"available", true},
                {"interfaces", list},
                {"ipv4_routes", ipv4Routes(fs)},
                {"ipv6_routes", ipv6Routes(fs)},
                {"addresses_source", fs.live() ? "getifaddrs" : "not read: captured tree"}};
}

} // namespace rsagent
