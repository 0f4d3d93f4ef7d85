#include "nvml.h"

namespace rsagent {

Nvml::Nvml() : lib_("libnvidia-ml.so.1") {
    if (!lib_.loaded()) {
        reason_ = "NVML (libnvidia-ml.so.1) not found: no NVIDIA driver on this host";
        return;
    }
    auto init = lib_.get<nvml::Return (*)()>("nvmlInit_v2");
    shutdown_ = lib_.get<nvml::Return (*)()>("nvmlShutdown");
    if (!init || !shutdown_ || !get<void*>("nvmlDeviceGetCount_v2") ||
        !get<void*>("nvmlDeviceGetHandleByIndex_v2")) {
        reason_ = "NVML lacks nvmlInit_v2/nvmlDeviceGetCount_v2";
        shutdown_ = nullptr;
        return;
    }
    if (const int rc = init(); rc != 0) {
        reason_ = "nvmlInit_v2 failed with NVML error " + std::to_string(rc);
        shutdown_ = nullptr;
    }
}

Nvml::~Nvml() {
    if (shutdown_)
        shutdown_();
}

std::vector<nvml::Device> Nvml::devices() const {
    std::vector<nvml::Device> out;
    if (!ready())
        return out;
    auto count = get<nvml::Return (*)(unsigned*)>("nvmlDeviceGetCount_v2");
    auto byIndex = get<nvml::Return (*)(unsigned, nvml::Device*)>("nvmlDeviceGetHandleByIndex_v2");
    unsigned n = 0;
    if (count(&n) != 0)
        return out;
    for (unsigned i = 0; i < n && i < nvml::kMaxDevices; ++i) {
        nvml::Device d = nullptr;
        out.push_back(byIndex(i, &d) == 0 ? d : nullptr); // kept, so a position is the NVML index
    }
    return out;
}

} // namespace rsagent
