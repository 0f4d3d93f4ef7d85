#pragma once
// A GPU's place in a multi-node NVLink fabric, from NVML: its fabric registration (ClusterUUID, CliqueId,
// state, status, health), whether it reaches the CPU over C2C, and per NVLink the far end's kind and the
// error counters. Each value NVML does not answer is null, with the reason where it says one.
#include "json.h"
#include "nvml.h"

namespace rsagent {

Json gpuFabric(const Nvml& nvml, nvml::Device device);
Json gpuC2c(const Nvml& nvml, nvml::Device device); // true, false or null
// The far end's kind ("GPU", "NVSwitch", "IBM NPU") and the link's error counters since boot.
void nvlinkDetails(const Nvml& nvml, nvml::Device device, unsigned link, Json* out);

} // namespace rsagent
