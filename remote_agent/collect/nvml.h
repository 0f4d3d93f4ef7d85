#pragma once
// NVML, opened at run time so the agent builds without the CUDA toolkit and runs
// on a host without a driver: the few types rackscope uses, as nvml.h defines them
// (a stable ABI), and the library initialised for as long as an Nvml lives.
#include "dynlib.h"

#include <string>
#include <vector>

namespace rsagent {

namespace nvml {
using Return = int; // nvmlReturn_t: 0 is success
using Device = struct nvmlDevice_st*;
struct PciInfo {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
struct Memory { // nvmlMemory_t, bytes
    unsigned long long total, free, used;
};
struct Utilization { // nvmlUtilization_t, percent of the last sample period
    unsigned int gpu, memory;
};
// nvmlGpuFabricInfo_v3_t (nvmlDeviceGetGpuFabricInfoV); v2 is the same without healthSummary, and
// nvmlGpuFabricInfo_t (v1, nvmlDeviceGetGpuFabricInfo) has no version, mask or summary.
struct FabricInfoV {
    unsigned int version;
    unsigned char clusterUuid[16];
    Return status;
    unsigned int cliqueId;
    unsigned char state;
    unsigned int healthMask;
    unsigned char healthSummary;
};
struct FabricInfoV2 {
    unsigned int version;
    unsigned char clusterUuid[16];
    Return status;
    unsigned int cliqueId;
    unsigned char state;
    unsigned int healthMask;
};
struct FabricInfoV1 {
    unsigned char clusterUuid[16];
    Return status;
    unsigned int cliqueId;
    unsigned char state;
};
// NVML_STRUCT_VERSION: the struct's size, with the version in the top byte.
constexpr unsigned kFabricInfoV3 = unsigned(sizeof(FabricInfoV)) | (3u << 24);
constexpr unsigned kFabricInfoV2 = unsigned(sizeof(FabricInfoV2)) | (2u << 24);
constexpr Return kArgumentVersionMismatch = 25;
struct FieldValue { // nvmlFieldValue_t
    unsigned int fieldId, scopeId;
    long long timestamp, latencyUsec;
    int valueType;
    Return nvmlReturn;
    union {
        double d;
        unsigned int ui;
        unsigned long long ull;
    } value;
};
constexpr unsigned kFieldNvlinkSpeedMBps = 164; // NVML_FI_DEV_NVLINK_GET_SPEED, scope: the link
struct C2cModeInfo {                            // nvmlC2cModeInfo_v1_t
    unsigned int isC2cEnabled;
};
constexpr unsigned kClockSm = 1; // NVML_CLOCK_SM
constexpr unsigned kMaxNvlinks = 18;
constexpr unsigned kMaxDevices = 64;
} // namespace nvml

class Nvml {
public:
    Nvml();  // opens libnvidia-ml.so.1 and calls nvmlInit_v2
    ~Nvml(); // nvmlShutdown, when it was initialised
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    bool ready() const { return reason_.empty(); }
    const std::string& reason() const { return reason_; } // why NVML cannot be used, as a sentence
    std::string source() const { return "NVML " + lib_.path(); }
    template <class F> F get(const char* symbol) const { return lib_.get<F>(symbol); }
    std::vector<nvml::Device> devices() const; // by index, at most kMaxDevices

private:
    DynLib lib_;
    std::string reason_;
    nvml::Return (*shutdown_)() = nullptr;
};

} // namespace rsagent
