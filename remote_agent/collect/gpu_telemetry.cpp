#include "gpu_telemetry.h"

namespace rsagent {

GpuTelemetry::GpuTelemetry() {
    if (!nvml_.ready())
        return;
    devices_ = nvml_.devices();
    name_ = nvml_.get<decltype(name_)>("nvmlDeviceGetName");
    uuid_ = nvml_.get<decltype(uuid_)>("nvmlDeviceGetUUID");
    utilization_ = nvml_.get<decltype(utilization_)>("nvmlDeviceGetUtilizationRates");
    memory_ = nvml_.get<decltype(memory_)>("nvmlDeviceGetMemoryInfo");
    power_ = nvml_.get<decltype(power_)>("nvmlDeviceGetPowerUsage");
    clock_ = nvml_.get<decltype(clock_)>("nvmlDeviceGetClockInfo");
}

Json GpuTelemetry::read() const {
    if (!nvml_.ready())
        return unavailable(nvml_.reason());
    constexpr double kMiB = 1024.0 * 1024.0;
    Json list = Json::array();
    for (unsigned i = 0; i < devices_.size(); ++i) {
        const Device d = devices_[i];
        if (!d)
            continue;
        char text[96] = {};
        Json g{{"index", i}};
        g["uuid"] = uuid_ && uuid_(d, text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
        g["name"] = name_ && name_(d, text, sizeof text) == 0 ? Json(std::string(text)) : Json(nullptr);
        nvml::Utilization u{};
        const bool haveUtil = utilization_ && utilization_(d, &u) == 0;
        g["util_pct"] = haveUtil ? Json(u.gpu) : Json(nullptr);
        g["mem_util_pct"] = haveUtil ? Json(u.memory) : Json(nullptr);
        nvml::Memory m{};
        const bool haveMemory = memory_ && memory_(d, &m) == 0;
        g["mem_used_mib"] = haveMemory ? Json(double(m.used) / kMiB) : Json(nullptr);
        g["mem_total_mib"] = haveMemory ? Json(double(m.total) / kMiB) : Json(nullptr);
        unsigned milliwatts = 0, mhz = 0;
        g["power_w"] = power_ && power_(d, &milliwatts) == 0 ? Json(milliwatts / 1000.0) : Json(nullptr);
        g["sm_clock_mhz"] = clock_ && clock_(d, nvml::kClockSm, &mhz) == 0 ? Json(mhz) : Json(nullptr);
        list.push_back(std::move(g));
    }
    return Json{{"available", true}, {"source", nvml_.source()}, {"gpus", std::move(list)}};
}

} // namespace rsagent
