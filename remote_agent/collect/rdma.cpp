#include "collectors.h"
#include "dynlib.h"

#if __has_include(<infiniband/verbs.h>)
#include <infiniband/verbs.h>
#define RSAGENT_HAVE_VERBS_H 1
#endif

#include <map>

namespace rsagent {
namespace {

// "4: ACTIVE" -> {"code":4,"name":"ACTIVE"}, as the kernel writes port states.
Json codedState(const std::optional<std::string>& text) {
    if (!text)
        return nullptr;
    const auto colon = text->find(':');
    if (colon == std::string::npos)
        return Json{{"code", nullptr}, {"name", *text}};
    return Json{{"code", orNull(parseInt(trim(text->substr(0, colon))))},
                {"name", trim(text->substr(colon + 1))}};
}

bool zeroGid(const std::string& gid) {
    return gid.find_first_not_of("0:") == std::string::npos;
}

// Active MTU per "device/port", from libibverbs when it and a device are there.
struct VerbsFacts {
    std::map<std::string, int> activeMtu;
    std::string status;
};

VerbsFacts queryVerbs() {
    VerbsFacts out;
#ifdef RSAGENT_HAVE_VERBS_H
    DynLib lib("libibverbs.so.1");
    if (!lib.loaded()) {
        out.status = "libibverbs not loaded: " + lib.error();
        return out;
    }
    using GetList = ibv_device** (*)(int*);
    using FreeList = void (*)(ibv_device**);
    using Name = const char* (*)(ibv_device*);
    using Open = ibv_context* (*)(ibv_device*);
    using Close = int (*)(ibv_context*);
    using QueryDevice = int (*)(ibv_context*, ibv_device_attr*);
    using QueryPort = int (*)(ibv_context*, uint8_t, ibv_port_attr*);
    auto getList = lib.get<GetList>("ibv_get_device_list");
    auto freeList = lib.get<FreeList>("ibv_free_device_list");
    auto name = lib.get<Name>("ibv_get_device_name");
    auto open = lib.get<Open>("ibv_open_device");
    auto close = lib.get<Close>("ibv_close_device");
    auto queryDevice = lib.get<QueryDevice>("ibv_query_device");
    auto queryPort = lib.get<QueryPort>("ibv_query_port");
    if (!getList || !freeList || !name || !open || !close || !queryDevice || !queryPort) {
        out.status = "libibverbs lacks the verbs rackscope uses";
        return out;
    }
    int n = 0;
    ibv_device** list = getList(&n);
    if (!list) {
        out.status = "libibverbs found no RDMA devices";
        return out;
    }
    for (int i = 0; i < n; ++i) {
        ibv_context* ctx = open(list[i]);
        if (!ctx)
            continue;
        ibv_device_attr dev{};
        if (queryDevice(ctx, &dev) == 0)
            for (uint8_t p = 1; p <= dev.phys_port_cnt; ++p) {
                ibv_port_attr attr{};
                if (queryPort(ctx, p, &attr) == 0)
                    out.activeMtu[std::string(name(list[i])) + "/" + std::to_string(p)] =
                        128 << int(attr.active_mtu);
            }
        close(ctx);
    }
    freeList(list);
    out.status =
        n == 0 ? "libibverbs found no RDMA devices" : "libibverbs queried " + std::to_string(n) + " devices";
#else
    out.status = "built without infiniband/verbs.h";
#endif
    return out;
}

} // namespace

Json collectRdma(const HostFs& fs) {
    const auto devices = fs.sysList("class/infiniband");
    if (devices.empty() && !fs.sysExists("class/infiniband"))
        return unavailable("no /sys/class/infiniband: no RDMA driver loaded");
    const VerbsFacts verbs =
        fs.live() ? queryVerbs() : VerbsFacts{{}, "not queried: reading a captured tree"};
    Json list = Json::array();
    for (const std::string& dev : devices) {
        const std::string base = "class/infiniband/" + dev;
        Json d{{"name", dev},
               {"pci", nullptr},
               {"node_type", codedState(fs.sys(base + "/node_type"))},
               {"hca_type", orNull(fs.sys(base + "/hca_type"))},
               {"fw_ver", orNull(fs.sys(base + "/fw_ver"))},
               {"board_id", orNull(fs.sys(base + "/board_id"))},
               {"node_guid", orNull(fs.sys(base + "/node_guid"))}};
        for (const std::string& link : {base, base + "/device"})
            if (auto target = fs.sysLink(link); target && !pciAddressIn(*target).empty())
                d["pci"] = pciAddressIn(*target);
        Json netdevs = Json::array();
        for (const std::string& n : fs.sysList(base + "/device/net"))
            netdevs.push_back(n);
        d["netdevs"] = netdevs;
        Json ports = Json::array();
        for (const std::string& port : fs.sysList(base + "/ports")) {
            const std::string pb = base + "/ports/" + port;
            Json p{{"port", port},
                   {"state", codedState(fs.sys(pb + "/state"))},
                   {"phys_state", codedState(fs.sys(pb + "/phys_state"))},
                   {"link_layer", orNull(fs.sys(pb + "/link_layer"))},
                   {"rate", orNull(fs.sys(pb + "/rate"))},
                   {"lid", orNull(fs.sys(pb + "/lid"))}};
            const auto mtu = verbs.activeMtu.find(dev + "/" + port);
            p["active_mtu"] = mtu == verbs.activeMtu.end() ? Json(nullptr) : Json(mtu->second);
            Json gids = Json::array();
            for (const std::string& index : fs.sysList(pb + "/gids")) {
                const auto gid = fs.sys(pb + "/gids/" + index);
                if (!gid || zeroGid(*gid))
                    continue;
                gids.push_back(Json{{"index", orNull(parseInt(index))},
                                    {"gid", *gid},
                                    {"type", orNull(fs.sys(pb + "/gid_attrs/types/" + index))},
                                    {"netdev", orNull(fs.sys(pb + "/gid_attrs/ndevs/" + index))}});
                if (gids.size() >= 256)
                    break;
            }
            p["gids"] = gids;
            ports.push_back(std::move(p));
        }
        d["ports"] = ports;
        list.push_back(std::move(d));
    }
    return Json{
        {"available", true}, {"source", "/sys/class/infiniband"}, {"verbs", verbs.status}, {"devices", list}};
}

} // namespace rsagent
