#include "collectors.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <vector>

namespace rsagent {
namespace {

bool interesting(uint32_t cls) {
    const uint32_t base = cls >> 16, sub = (cls >> 8) & 0xff;
    return base == 0x03 || base == 0x02 || (base == 0x0c && sub == 0x06) || (base == 0x06 && sub == 0x80);
}

// ACS control from PCIe extended capability 0x000D. Beyond the first 64
// bytes config space is readable by root only; short reads say so.
Json acsOf(const HostFs& fs, const std::string& dev) {
    const auto config = fs.sysBytes("bus/pci/devices/" + dev + "/config", 4096);
    if (!config)
        return unavailable("config space not readable");
    if (config->size() < 4096)
        return unavailable("extended config space not readable (needs root)");
    auto u16 = [&](size_t at) { return uint16_t(uint8_t((*config)[at]) | uint8_t((*config)[at + 1]) << 8); };
    auto u32 = [&](size_t at) { return uint32_t(u16(at)) | uint32_t(u16(at + 2)) << 16; };
    size_t at = 0x100;
    for (int guard = 0; at >= 0x100 && at + 8 <= config->size() && guard < 64; ++guard) {
        const uint32_t header = u32(at);
        if (header == 0 || header == 0xffffffff)
            break;
        if ((header & 0xffff) == 0x000d) {
            const uint16_t ctrl = u16(at + 6);
            static const char* names[] = {"SrcValid",    "TransBlk",   "ReqRedir",   "CmpltRedir",
                                          "UpstreamFwd", "EgressCtrl", "DirectTrans"};
            Json enabled = Json::array();
            for (int b = 0; b < 7; ++b)
                if (ctrl & (1 << b))
                    enabled.push_back(names[b]);
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%04x", ctrl);
            return Json{{"available", true}, {"ctrl", hex}, {"enabled", enabled}};
        }
        at = header >> 20;
    }
    return Json{
        {"available", true}, {"ctrl", nullptr}, {"enabled", Json::array()}, {"note", "no ACS capability"}};
}

Json linkOf(const HostFs& fs, const std::string& dev) {
    const std::string base = "bus/pci/devices/" + dev;
    return Json{{"current_speed", orNull(fs.sys(base + "/current_link_speed"))},
                {"current_width", orNull(fs.sysInt(base + "/current_link_width"))},
                {"max_speed", orNull(fs.sys(base + "/max_link_speed"))},
                {"max_width", orNull(fs.sysInt(base + "/max_link_width"))}};
}

} // namespace

Json collectPcie(const HostFs& fs) {
    const auto devices = fs.sysList("bus/pci/devices");
    if (devices.empty())
        return unavailable("no devices in /sys/bus/pci/devices");
    Json list = Json::array();
    std::set<std::string> bridgesDone;
    Json bridges = Json::array();
    for (const std::string& dev : devices) {
        const std::string base = "bus/pci/devices/" + dev;
        const auto cls = fs.sysInt(base + "/class");
        if (!cls || !interesting(uint32_t(*cls)))
            continue;
        Json upstream = Json::array();
        // The bridges between the device and its root port, from the sysfs path.
        if (auto target = fs.sysLink(base)) {
            std::istringstream parts(*target);
            std::string part;
            std::vector<std::string> chain;
            while (std::getline(parts, part, '/'))
                if (pciAddressIn(part) == part && part != dev)
                    chain.push_back(part);
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                upstream.push_back(*it);
                if (bridgesDone.insert(*it).second)
                    bridges.push_back(Json{{"pci", *it}, {"link", linkOf(fs, *it)}, {"acs", acsOf(fs, *it)}});
            }
        }
        char classHex[12];
        std::snprintf(classHex, sizeof classHex, "0x%06x", unsigned(*cls));
        list.push_back(Json{{"pci", dev},
                            {"class", classHex},
                            {"vendor", orNull(fs.sys(base + "/vendor"))},
                            {"device", orNull(fs.sys(base + "/device"))},
                            {"numa_node", orNull(fs.sysInt(base + "/numa_node"))},
                            {"link", linkOf(fs, dev)},
                            {"upstream_bridges", upstream}});
    }
    return Json{{"available", true}, {"devices", list}, {"bridges", bridges}};
}

Json collectGpuDirect(const HostFs& fs) {
    // NCCL's own check for the peer-memory client (src/transport/net_ib.cc).
    const bool nvMem = fs.sysExists("kernel/mm/memory_peers/nv_mem/version");
    const bool peermem = fs.sysExists("module/nvidia_peermem");
    const bool legacy = fs.sysExists("module/nv_peer_mem");
    Json iommu = Json::object();
    const auto units = fs.sysList("class/iommu");
    iommu["units"] = units.size();
    iommu["groups"] = fs.sysList("kernel/iommu_groups").size();
    Json params = Json::array();
    if (auto cmdline = fs.proc("cmdline")) {
        std::istringstream in(*cmdline);
        std::string word;
        while (in >> word)
            if (word.find("iommu") != std::string::npos)
                params.push_back(word);
    }
    iommu["kernel_parameters"] = params;
    const bool passthrough =
        std::any_of(params.begin(), params.end(), [](const Json& p) { return p == "iommu=pt"; });
    iommu["mode"] = units.empty() ? "off" : passthrough ? "passthrough" : "translated";
    Json dmabuf = Json::object();
    const auto release = fs.proc("sys/kernel/osrelease");
    dmabuf["kernel"] = orNull(release);
    if (release) {
        int major = 0, minor = 0;
        if (std::sscanf(release->c_str(), "%d.%d", &major, &minor) == 2)
            dmabuf["kernel_supports_rdma_dmabuf"] = major > 5 || (major == 5 && minor >= 12);
    }
    dmabuf["gpu_support"] = "unknown without CUDA (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)";
    return Json{{"available", true},
                {"peer_memory", Json{{"nv_mem_version_file", nvMem},
                                     {"nvidia_peermem_loaded", peermem},
                                     {"nv_peer_mem_loaded", legacy},
                                     {"usable", nvMem || peermem || legacy}}},
                {"iommu", iommu},
                {"dmabuf", dmabuf}};
}

Json collectRoceQos(const HostFs& fs) {
    Json list = Json::array();
    for (const std::string& ifname : fs.sysList("class/net")) {
        const std::string base = "class/net/" + ifname;
        Json q{{"interface", ifname}};
        bool any = false;
        for (const char* role : {"roce_np", "roce_rp"}) {
            const std::string dir = base + "/ecn/" + role + "/enable";
            Json prios = Json::object();
            for (const std::string& prio : fs.sysList(dir))
                if (auto v = fs.sysInt(dir + "/" + prio))
                    prios[prio] = *v != 0;
            q[std::string("ecn_") + role] = prios.empty() ? Json("not exposed") : prios;
            any |= !prios.empty();
        }
        for (const char* file : {"trust", "pfc"}) {
            const auto v = fs.sys(base + "/qos/" + file);
            q[file] = v ? Json(*v) : Json("not exposed");
            any |= v.has_value();
        }
        if (any)
            list.push_back(std::move(q));
    }
    Json tc = Json::array();
    for (const std::string& dev : fs.sysList("class/infiniband"))
        for (const std::string& idx : fs.sysList("class/infiniband/" + dev + "/tc"))
            if (auto v = fs.sys("class/infiniband/" + dev + "/tc/" + idx + "/traffic_class"))
                tc.push_back(Json{{"device", dev}, {"tc", idx}, {"traffic_class", *v}});
    if (list.empty() && tc.empty())
        return unavailable("not exposed: no ecn/ or qos/ files under /sys/class/net");
    return Json{{"available", true}, {"interfaces", list}, {"rdma_traffic_class", tc}};
}

} // namespace rsagent
