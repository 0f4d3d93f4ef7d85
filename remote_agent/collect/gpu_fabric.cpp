#include "gpu_fabric.h"

#include <cstdio>

namespace rsagent {
namespace {

std::string uuidText(const unsigned char (&b)[16]) {
    char out[40];
    std::snprintf(out, sizeof out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                  b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    return out;
}

const char* stateName(unsigned char state) { // nvmlGpuFabricState_t
    switch (state) {
    case 0:
        return "Not Supported";
    case 1:
        return "Not Started";
    case 2:
        return "In Progress";
    case 3:
        return "Completed";
    default:
        return nullptr;
    }
}

const char* summaryName(unsigned char summary) { // NVML_GPU_FABRIC_HEALTH_SUMMARY_*
    switch (summary) {
    case 1:
        return "Healthy";
    case 2:
        return "Unhealthy";
    case 3:
        return "Limited Capacity";
    default:
        return nullptr; // 0: not supported
    }
}

Json nameOrNull(const char* name) {
    return name ? Json(name) : Json(nullptr);
}

std::string errorText(const Nvml& nvml, nvml::Return rc) {
    auto text = nvml.get<const char* (*)(nvml::Return)>("nvmlErrorString");
    const char* s = text ? text(rc) : nullptr;
    return s ? std::string(s) : "NVML error " + std::to_string(rc);
}

// What the three generations of the call share, as the console reads it.
Json fabricJson(const Nvml& nvml, const unsigned char (&uuid)[16], nvml::Return status, unsigned clique,
                unsigned char state) {
    return Json{{"cluster_uuid", uuidText(uuid)},
                {"clique_id", clique},
                {"state", nameOrNull(stateName(state))},
                {"state_code", state},
                {"status", errorText(nvml, status)}};
}

} // namespace

Json gpuFabric(const Nvml& nvml, nvml::Device device) {
    auto getV = nvml.get<nvml::Return (*)(nvml::Device, void*)>("nvmlDeviceGetGpuFabricInfoV");
    if (getV) {
        nvml::FabricInfoV v3{};
        v3.version = nvml::kFabricInfoV3;
        nvml::Return rc = getV(device, &v3);
        if (rc == 0) {
            Json j = fabricJson(nvml, v3.clusterUuid, v3.status, v3.cliqueId, v3.state);
            j["health_mask"] = v3.healthMask;
            j["health_summary"] = nameOrNull(summaryName(v3.healthSummary));
            j["source"] = "nvmlDeviceGetGpuFabricInfoV v3";
            return j;
        }
        if (rc == nvml::kArgumentVersionMismatch) { // a driver older than the v3 struct
            nvml::FabricInfoV2 v2{};
            v2.version = nvml::kFabricInfoV2;
            if (rc = getV(device, &v2); rc == 0) {
                Json j = fabricJson(nvml, v2.clusterUuid, v2.status, v2.cliqueId, v2.state);
                j["health_mask"] = v2.healthMask;
                j["health_summary"] = nullptr;
                j["source"] = "nvmlDeviceGetGpuFabricInfoV v2";
                return j;
            }
        }
        if (rc != nvml::kArgumentVersionMismatch)
            return unavailable("nvmlDeviceGetGpuFabricInfoV: " + errorText(nvml, rc));
    }
    auto getV1 = nvml.get<nvml::Return (*)(nvml::Device, nvml::FabricInfoV1*)>("nvmlDeviceGetGpuFabricInfo");
    if (!getV1)
        return unavailable("this NVML has no GPU fabric calls (a driver before R525)");
    nvml::FabricInfoV1 v1{};
    if (const nvml::Return rc = getV1(device, &v1); rc != 0)
        return unavailable("nvmlDeviceGetGpuFabricInfo: " + errorText(nvml, rc));
    Json j = fabricJson(nvml, v1.clusterUuid, v1.status, v1.cliqueId, v1.state);
    j["health_mask"] = nullptr;
    j["health_summary"] = nullptr;
    j["source"] = "nvmlDeviceGetGpuFabricInfo";
    return j;
}

Json gpuC2c(const Nvml& nvml, nvml::Device device) {
    auto get = nvml.get<nvml::Return (*)(nvml::Device, nvml::C2cModeInfo*)>("nvmlDeviceGetC2cModeInfoV");
    nvml::C2cModeInfo info{};
    return get && get(device, &info) == 0 ? Json(info.isC2cEnabled != 0) : Json(nullptr);
}

void nvlinkDetails(const Nvml& nvml, nvml::Device device, unsigned link, Json* out) {
    auto remoteType =
        nvml.get<nvml::Return (*)(nvml::Device, unsigned, int*)>("nvmlDeviceGetNvLinkRemoteDeviceType");
    int type = 0;
    const char* kind = nullptr;
    if (remoteType && remoteType(device, link, &type) == 0)
        kind = type == 0 ? "GPU" : type == 1 ? "IBM NPU" : type == 2 ? "NVSwitch" : nullptr;
    (*out)["remote_type"] = nameOrNull(kind);
    auto fields =
        nvml.get<nvml::Return (*)(nvml::Device, int, nvml::FieldValue*)>("nvmlDeviceGetFieldValues");
    nvml::FieldValue speed{};
    speed.fieldId = nvml::kFieldNvlinkSpeedMBps;
    speed.scopeId = link;
    (*out)["speed_mbps"] = fields && fields(device, 1, &speed) == 0 && speed.nvmlReturn == 0
                               ? Json(speed.value.ui)
                               : Json(nullptr);
    // nvmlNvLinkErrorCounter_t; NVLink 5 answers NOT_SUPPORTED for these, and the counters are then unknown.
    auto counter = nvml.get<nvml::Return (*)(nvml::Device, unsigned, int, unsigned long long*)>(
        "nvmlDeviceGetNvLinkErrorCounter");
    static const char* const kCounters[] = {"replay", "recovery", "crc_flit", "crc_data"};
    Json errors = Json::object();
    for (int c = 0; counter && c < 4; ++c) {
        unsigned long long value = 0;
        if (counter(device, link, c, &value) == 0)
            errors[kCounters[c]] = value;
    }
    (*out)["errors"] = errors.empty() ? Json(nullptr) : errors;
}

} // namespace rsagent
