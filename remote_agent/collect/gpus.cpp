#include "collectors.h"
#include "dynlib.h"

namespace rsagent {
namespace {

// The few NVML types rackscope uses, as nvml.h defines them (stable ABI),
// so the agent builds without the CUDA toolkit.
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlPciInfo_t {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
constexpr unsigned kNvlinkMaxLinks = 18;

std::string pciText(const nvmlPciInfo_t& p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.0", p.domain, p.bus, p.device);
    return buf;
}

} // namespace

Json collectGpus() {
    DynLib nvml("libnvidia-ml.so.1");
    if (!nvml.loaded())
        return unavailable("NVML (libnvidia-ml.so.1) not found: no NVIDIA driver on this host");
    auto init = nvml.get<nvmlReturn_t (*)()>("nvmlInit_v2");
    auto shutdown = nvml.get<nvmlReturn_t (*)()>("nvmlShutdown");
    auto count = nvml.get<nvmlReturn_t (*)(unsigned*)>("nvmlDeviceGetCount_v2");
    auto byIndex = nvml.get<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex_v2");
    auto name = nvml.get<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetName");
    auto uuid = nvml.get<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetUUID");
    auto pci = nvml.get<nvmlReturn_t (*)(nvmlDevice_t, nvmlPciInfo_t*)>("nvmlDeviceGetPciInfo_v3");
    auto driver = nvml.get<nvmlReturn_t (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
    auto cuda = nvml.get<nvmlReturn_t (*)(int*)>("nvmlSystemGetCudaDriverVersion");
    using UIntQuery = nvmlReturn_t (*)(nvmlDevice_t, unsigned*);
    auto curGen = nvml.get<UIntQuery>("nvmlDeviceGetCurrPcieLinkGeneration");
    auto maxGen = nvml.get<UIntQuery>("nvmlDeviceGetMaxPcieLinkGeneration");
    auto curWidth = nvml.get<UIntQuery>("nvmlDeviceGetCurrPcieLinkWidth");
    auto maxWidth = nvml.get<UIntQuery>("nvmlDeviceGetMaxPcieLinkWidth");
    auto linkState = nvml.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned, int*)>("nvmlDeviceGetNvLinkState");
    auto linkVersion =
        nvml.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned*)>("nvmlDeviceGetNvLinkVersion");
    auto remotePci = nvml.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlPciInfo_t*)>(
        "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    if (!init || !shutdown || !count || !byIndex)
        return unavailable("NVML lacks nvmlInit_v2/nvmlDeviceGetCount_v2");
    if (const int rc = init(); rc != 0)
        return unavailable("nvmlInit_v2 failed with NVML error " + std::to_string(rc));

    auto uintOf = [](UIntQuery f, nvmlDevice_t d) -> Json {
        unsigned v = 0;
        return f && f(d, &v) == 0 ? Json(v) : Json(nullptr);
    };
    Json out{{"available", true}, {"source", "NVML " + nvml.path()}};
    char text[96] = {};
    out["driver_version"] =
        driver && driver(text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
    int cudaVersion = 0;
    out["cuda_driver_version"] =
        cuda && cuda(&cudaVersion) == 0
            ? Json(std::to_string(cudaVersion / 1000) + "." + std::to_string(cudaVersion % 1000 / 10))
            : Json(nullptr);
    unsigned n = 0;
    Json list = Json::array();
    if (count(&n) == 0)
        for (unsigned i = 0; i < n && i < 64; ++i) {
            nvmlDevice_t dev = nullptr;
            if (byIndex(i, &dev) != 0)
                continue;
            Json g{{"index", i}};
            g["name"] = name && name(dev, text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
            g["uuid"] = uuid && uuid(dev, text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
            nvmlPciInfo_t info{};
            g["pci"] = pci && pci(dev, &info) == 0 ? Json(pciText(info)) : Json(nullptr);
            g["pcie"] = Json{{"current_gen", uintOf(curGen, dev)},
                             {"max_gen", uintOf(maxGen, dev)},
                             {"current_width", uintOf(curWidth, dev)},
                             {"max_width", uintOf(maxWidth, dev)}};
            Json links = Json::array();
            for (unsigned l = 0; linkState && l < kNvlinkMaxLinks; ++l) {
                int active = 0;
                if (linkState(dev, l, &active) != 0)
                    continue; // link absent on this GPU
                Json link{{"link", l}, {"active", active != 0}};
                unsigned version = 0;
                link["version"] =
                    linkVersion && linkVersion(dev, l, &version) == 0 ? Json(version) : Json(nullptr);
                nvmlPciInfo_t remote{};
                link["remote_pci"] = active && remotePci && remotePci(dev, l, &remote) == 0
                                         ? Json(pciText(remote))
                                         : Json(nullptr);
                links.push_back(std::move(link));
            }
            g["nvlinks"] = links;
            list.push_back(std::move(g));
        }
    out["gpus"] = list;
    shutdown();
    return out;
}

} // namespace rsagent
