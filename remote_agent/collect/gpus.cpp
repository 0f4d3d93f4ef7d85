#include "collectors.h"
#include "gpu_fabric.h"
#include "nvml.h"

namespace rsagent {
namespace {

std::string pciText(const nvml::PciInfo& p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.0", p.domain, p.bus, p.device);
    return buf;
}

} // namespace

Json collectGpus() {
    const Nvml nvml;
    if (!nvml.ready())
        return unavailable(nvml.reason());
    using nvml::Device;
    auto name = nvml.get<nvml::Return (*)(Device, char*, unsigned)>("nvmlDeviceGetName");
    auto uuid = nvml.get<nvml::Return (*)(Device, char*, unsigned)>("nvmlDeviceGetUUID");
    auto pci = nvml.get<nvml::Return (*)(Device, nvml::PciInfo*)>("nvmlDeviceGetPciInfo_v3");
    auto driver = nvml.get<nvml::Return (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
    auto cuda = nvml.get<nvml::Return (*)(int*)>("nvmlSystemGetCudaDriverVersion");
    using UIntQuery = nvml::Return (*)(Device, unsigned*);
    auto curGen = nvml.get<UIntQuery>("nvmlDeviceGetCurrPcieLinkGeneration");
    auto maxGen = nvml.get<UIntQuery>("nvmlDeviceGetMaxPcieLinkGeneration");
    auto curWidth = nvml.get<UIntQuery>("nvmlDeviceGetCurrPcieLinkWidth");
    auto maxWidth = nvml.get<UIntQuery>("nvmlDeviceGetMaxPcieLinkWidth");
    auto linkState = nvml.get<nvml::Return (*)(Device, unsigned, int*)>("nvmlDeviceGetNvLinkState");
    auto linkVersion = nvml.get<nvml::Return (*)(Device, unsigned, unsigned*)>("nvmlDeviceGetNvLinkVersion");
    auto remotePci =
        nvml.get<nvml::Return (*)(Device, unsigned, nvml::PciInfo*)>("nvmlDeviceGetNvLinkRemotePciInfo_v2");

    auto uintOf = [](UIntQuery f, Device d) -> Json {
        unsigned v = 0;
        return f && f(d, &v) == 0 ? Json(v) : Json(nullptr);
    };
    Json out{{"available", true}, {"source", nvml.source()}};
    char text[96] = {};
    out["driver_version"] =
        driver && driver(text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
    int cudaVersion = 0;
    out["cuda_driver_version"] =
        cuda && cuda(&cudaVersion) == 0
            ? Json(std::to_string(cudaVersion / 1000) + "." + std::to_string(cudaVersion % 1000 / 10))
            : Json(nullptr);
    Json list = Json::array();
    const std::vector<Device> devices = nvml.devices();
    for (unsigned i = 0; i < devices.size(); ++i) {
        Device dev = devices[i];
        if (!dev)
            continue;
        Json g{{"index", i}};
        g["name"] = name && name(dev, text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
        g["uuid"] = uuid && uuid(dev, text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
        nvml::PciInfo info{};
        g["pci"] = pci && pci(dev, &info) == 0 ? Json(pciText(info)) : Json(nullptr);
        g["pcie"] = Json{{"current_gen", uintOf(curGen, dev)},
                         {"max_gen", uintOf(maxGen, dev)},
                         {"current_width", uintOf(curWidth, dev)},
                         {"max_width", uintOf(maxWidth, dev)}};
        Json links = Json::array();
        for (unsigned l = 0; linkState && l < nvml::kMaxNvlinks; ++l) {
            int active = 0;
            if (linkState(dev, l, &active) != 0)
                continue; // link absent on this GPU
            Json link{{"link", l}, {"active", active != 0}};
            unsigned version = 0;
            link["version"] =
                linkVersion && linkVersion(dev, l, &version) == 0 ? Json(version) : Json(nullptr);
            nvml::PciInfo remote{};
            link["remote_pci"] = active && remotePci && remotePci(dev, l, &remote) == 0
                                     ? Json(pciText(remote))
                                     : Json(nullptr);
            nvlinkDetails(nvml, dev, l, &link);
            links.push_back(std::move(link));
        }
        g["nvlinks"] = links;
        g["fabric"] = gpuFabric(nvml, dev);
        g["c2c"] = gpuC2c(nvml, dev);
        list.push_back(std::move(g));
    }
    out["gpus"] = list;
    return out;
}

} // namespace rsagent
