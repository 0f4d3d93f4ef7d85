#pragma once
// What each GPU is doing now, for a `sample` that asks for GPUs (a load run's
// workers): NVML's utilisation, memory in use, power draw and SM clock. NVML is
// opened once per stream and each reading costs a few calls per GPU.
#include "json.h"
#include "nvml.h"

namespace rsagent {

class GpuTelemetry {
public:
    GpuTelemetry();
    // {"available":true,"source":...,"gpus":[{"index","uuid","name","util_pct","mem_util_pct","mem_used_mib",
    //  "mem_total_mib","power_w","sm_clock_mhz"}]}, null where NVML does not say; or why NVML cannot be read.
    Json read() const;

private:
    using Device = nvml::Device;
    Nvml nvml_;
    std::vector<Device> devices_;
    nvml::Return (*name_)(Device, char*, unsigned) = nullptr;
    nvml::Return (*uuid_)(Device, char*, unsigned) = nullptr;
    nvml::Return (*utilization_)(Device, nvml::Utilization*) = nullptr;
    nvml::Return (*memory_)(Device, nvml::Memory*) = nullptr;
    nvml::Return (*power_)(Device, unsigned*) = nullptr; // milliwatts
    nvml::Return (*clock_)(Device, unsigned, unsigned*) = nullptr;
};

} // namespace rsagent
