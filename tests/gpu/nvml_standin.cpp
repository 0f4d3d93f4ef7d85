// A stand-in for libnvidia-ml.so.1 on machines without an NVIDIA GPU (this one, CI):
// it replays what `nvidia-smi --query-gpu=timestamp,index,name,uuid,pci.bus_id,
// utilization.gpu,utilization.memory,memory.used,memory.total,power.draw,clocks.sm
// --format=csv -lms N` printed (and driver_version, pcie.link.gen.current/max, pcie.link.width.current/max),
// the file named by RACKSCOPE_NVML_STANDIN. Each GPU reads its latest row no later than the time since the
// first nvmlInit_v2 (its timestamps taken from the first row's); "[N/A]" and "[Not Supported]" answer
// NOT_SUPPORTED, as NVML does. Columns may come in any order; any may be missing. Only the calls the agent
// makes are defined: the agent treats the others as absent.
// With RACKSCOPE_NVML_STANDIN_FABRIC, each GPU's fabric registration replays the n-th Fabric block of an
// `nvidia-smi -q` capture (State, Status, CliqueId, ClusterUUID, Health); with RACKSCOPE_NVML_STANDIN_NVLINK,
// its NVLinks those of an `nvidia-smi nvlink --status` capture (a listed link is active, "<inactive>" not).
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kNotSupported = 3,
              kInsufficientSize = 7, kDriverNotLoaded = 9, kUnknown = 999;

using Clock = std::chrono::steady_clock;

struct Row {
    double t = 0; // seconds after the file's first row
    std::map<std::string, std::string> fields;
};

// One GPU's Fabric block of `nvidia-smi -q`, key -> value ("Summary" from the Health block).
using FabricBlock = std::map<std::string, std::string>;

struct State {
    std::mutex mutex;
    std::vector<FabricBlock> fabric;       // by GPU index
    std::vector<std::vector<int>> nvlinks; // by GPU index: -1 absent, 0 inactive, 1 active
    std::vector<std::string> statusTexts;  // NVML return codes 1000+i the capture's statuses stand for
    int initialised = 0;                   // NVML counts nvmlInit_v2 against nvmlShutdown
    Clock::time_point start;               // of the first nvmlInit_v2 still open
    std::vector<std::vector<Row>> gpus;    // by index, rows in time order
};
State& state() {
    static State s;
    return s;
}

std::string trim(std::string s) {
    const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');)
        out.push_back(trim(cell));
    return out;
}

// "utilization.gpu [%]" -> "utilization.gpu"
std::string columnName(const std::string& header) {
    return trim(header.substr(0, header.find('[')));
}

// "2026/12/06 10:00:01.250" -> seconds since the epoch
std::optional<double> timestampSeconds(const std::string& text) {
    std::tm tm{};
    int year = 0, month = 0, day = 0, hour = 0, minute = 0;
    double second = 0;
    if (std::sscanf(text.c_str(), "%d/%d/%d %d:%d:%lf", &year, &month, &day, &hour, &minute, &second) != 6)
        return std::nullopt;
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = int(second);
    return double(timegm(&tm)) + (second - int(second));
}

bool load(const char* path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return false;
    const std::vector<std::string> header = splitCsv(line);
    std::vector<std::string> names;
    for (const std::string& h : header)
        names.push_back(columnName(h));
    std::optional<double> first;
    State& s = state();
    s.gpus.clear();
    while (std::getline(in, line)) {
        if (trim(line).empty())
            continue;
        const std::vector<std::string> cells = splitCsv(line);
        if (cells.size() != names.size())
            return false;
        Row row;
        for (size_t i = 0; i < cells.size(); ++i)
            row.fields[names[i]] = cells[i];
        const auto index = row.fields.find("index");
        if (index == row.fields.end())
            return false;
        const int gpu = std::atoi(index->second.c_str());
        if (gpu < 0 || gpu > 63)
            return false;
        if (const auto ts = row.fields.find("timestamp"); ts != row.fields.end()) {
            const std::optional<double> t = timestampSeconds(ts->second);
            if (!t)
                return false;
            if (!first)
                first = *t;
            row.t = *t - *first;
        }
        if (s.gpus.size() <= size_t(gpu))
            s.gpus.resize(size_t(gpu) + 1);
        s.gpus[size_t(gpu)].push_back(std::move(row));
    }
    for (const auto& rows : s.gpus)
        if (rows.empty())
            return false; // indices must run from 0 without a gap, as NVML's do
    return !s.gpus.empty();
}

// "    Fabric" blocks of `nvidia-smi -q`, in GPU order: each key of the block and of its Health block.
void loadFabric(const char* path) {
    State& s = state();
    s.fabric.clear();
    std::ifstream in(path);
    size_t fabricIndent = 0;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        const std::string t = trim(line);
        const size_t indent = line.find_first_not_of(" \t");
        if (t == "Fabric") {
            s.fabric.emplace_back();
            fabricIndent = indent;
            inside = true;
            continue;
        }
        if (inside && (t.empty() || indent <= fabricIndent))
            inside = false; // the block ends at a line no deeper than "Fabric"
        if (!inside)
            continue;
        const size_t colon = t.find(':');
        if (colon != std::string::npos)
            s.fabric.back()[trim(t.substr(0, colon))] = trim(t.substr(colon + 1));
    }
}

// "GPU 0: ..." then "Link N: 26.562 GB/s" or "Link N: <inactive>".
void loadNvlinks(const char* path) {
    State& s = state();
    s.nvlinks.clear();
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const std::string t = trim(line);
        int gpu = 0, link = 0;
        char rest[64] = {};
        if (std::sscanf(t.c_str(), "GPU %d:", &gpu) == 1 && gpu >= 0 && gpu < 64) {
            s.nvlinks.resize(size_t(gpu) + 1);
        } else if (!s.nvlinks.empty() && std::sscanf(t.c_str(), "Link %d: %63s", &link, rest) == 2 &&
                   link >= 0 && link < 64) {
            std::vector<int>& links = s.nvlinks.back();
            if (links.size() <= size_t(link))
                links.resize(size_t(link) + 1, -1);
            links[size_t(link)] =
                std::strcmp(rest, "<inactive>") == 0 ? 0 : int(std::strtod(rest, nullptr) * 1000 + 0.5);
        }
    }
}

// The GPU's field as of now, or NOT_SUPPORTED / an error code.
int field(uintptr_t device, const char* name, std::string* out) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised)
        return kUninitialized;
    if (device == 0 || device > s.gpus.size())
        return kInvalidArgument;
    const double now = std::chrono::duration<double>(Clock::now() - s.start).count();
    const std::vector<Row>& rows = s.gpus[device - 1];
    const Row* current = &rows.front();
    for (const Row& r : rows)
        if (r.t <= now)
            current = &r;
    const auto it = current->fields.find(name);
    if (it == current->fields.end() || it->second.empty() || it->second.front() == '[')
        return kNotSupported; // absent, [N/A], [Not Supported]
    *out = it->second;
    return kSuccess;
}

int number(uintptr_t device, const char* name, double* out) {
    std::string text;
    if (const int rc = field(device, name, &text); rc != kSuccess)
        return rc;
    char* end = nullptr;
    *out = std::strtod(text.c_str(), &end); // "612.34 W": the unit is left behind
    return end == text.c_str() ? kUnknown : kSuccess;
}

int text(uintptr_t device, const char* name, char* buffer, unsigned length) {
    std::string value;
    if (const int rc = field(device, name, &value); rc != kSuccess)
        return rc;
    if (value.size() + 1 > length)
        return kInsufficientSize;
    std::memcpy(buffer, value.c_str(), value.size() + 1);
    return kSuccess;
}

uintptr_t id(void* device) {
    return reinterpret_cast<uintptr_t>(device);
}

} // namespace

extern "C" {

struct StandinPciInfo { // nvmlPciInfo_t
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
struct StandinMemory {
    unsigned long long total, free, used;
};
struct StandinUtilization {
    unsigned gpu, memory;
};

__attribute__((visibility("default"))) int nvmlInit_v2() {
    const char* path = std::getenv("RACKSCOPE_NVML_STANDIN");
    if (!path || !*path)
        return kDriverNotLoaded;
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.initialised == 0) {
        if (!load(path))
            return kUnknown;
        if (const char* fabric = std::getenv("RACKSCOPE_NVML_STANDIN_FABRIC"))
            loadFabric(fabric);
        if (const char* nvlink = std::getenv("RACKSCOPE_NVML_STANDIN_NVLINK"))
            loadNvlinks(nvlink);
        s.start = Clock::now();
    }
    ++s.initialised;
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlShutdown() {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.initialised == 0)
        return kUninitialized;
    --s.initialised;
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned* count) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised)
        return kUninitialized;
    *count = unsigned(s.gpus.size());
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** device) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised)
        return kUninitialized;
    if (index >= s.gpus.size())
        return kInvalidArgument;
    *device = reinterpret_cast<void*>(uintptr_t(index) + 1);
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetName(void* device, char* name, unsigned length) {
    return text(id(device), "name", name, length);
}

__attribute__((visibility("default"))) int nvmlDeviceGetUUID(void* device, char* uuid, unsigned length) {
    return text(id(device), "uuid", uuid, length);
}

__attribute__((visibility("default"))) int nvmlSystemGetDriverVersion(char* version, unsigned length) {
    return text(1, "driver_version", version, length);
}

__attribute__((visibility("default"))) int nvmlDeviceGetPciInfo_v3(void* device, StandinPciInfo* pci) {
    std::string bus;
    if (const int rc = field(id(device), "pci.bus_id", &bus); rc != kSuccess)
        return rc;
    StandinPciInfo p{};
    if (std::sscanf(bus.c_str(), "%x:%x:%x", &p.domain, &p.bus, &p.device) != 3)
        return kUnknown;
    std::snprintf(p.busId, sizeof p.busId, "%s", bus.c_str());
    *pci = p;
    return kSuccess;
}

// PCIe links, from pcie.link.gen.current/max and pcie.link.width.current/max.
static int unsignedField(void* device, const char* name, unsigned* out) {
    double value = 0;
    if (const int rc = number(id(device), name, &value); rc != kSuccess)
        return rc;
    *out = unsigned(value);
    return kSuccess;
}
__attribute__((visibility("default"))) int nvmlDeviceGetCurrPcieLinkGeneration(void* device, unsigned* gen) {
    return unsignedField(device, "pcie.link.gen.current", gen);
}
__attribute__((visibility("default"))) int nvmlDeviceGetMaxPcieLinkGeneration(void* device, unsigned* gen) {
    return unsignedField(device, "pcie.link.gen.max", gen);
}
__attribute__((visibility("default"))) int nvmlDeviceGetCurrPcieLinkWidth(void* device, unsigned* width) {
    return unsignedField(device, "pcie.link.width.current", width);
}
__attribute__((visibility("default"))) int nvmlDeviceGetMaxPcieLinkWidth(void* device, unsigned* width) {
    return unsignedField(device, "pcie.link.width.max", width);
}

__attribute__((visibility("default"))) int nvmlDeviceGetUtilizationRates(void* device,
                                                                         StandinUtilization* u) {
    double gpu = 0, memory = 0;
    if (const int rc = number(id(device), "utilization.gpu", &gpu); rc != kSuccess)
        return rc;
    if (const int rc = number(id(device), "utilization.memory", &memory); rc != kSuccess)
        return rc;
    *u = StandinUtilization{unsigned(gpu), unsigned(memory)};
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetMemoryInfo(void* device, StandinMemory* m) {
    double used = 0, total = 0;
    if (const int rc = number(id(device), "memory.used", &used); rc != kSuccess)
        return rc;
    if (const int rc = number(id(device), "memory.total", &total); rc != kSuccess)
        return rc;
    constexpr double kMiB = 1024.0 * 1024.0;
    const auto usedBytes = static_cast<unsigned long long>(used * kMiB),
               totalBytes = static_cast<unsigned long long>(total * kMiB);
    *m = StandinMemory{totalBytes, totalBytes > usedBytes ? totalBytes - usedBytes : 0, usedBytes};
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPowerUsage(void* device, unsigned* milliwatts) {
    double watts = 0;
    if (const int rc = number(id(device), "power.draw", &watts); rc != kSuccess)
        return rc;
    *milliwatts = unsigned(watts * 1000.0 + 0.5);
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetClockInfo(void* device, unsigned type,
                                                                  unsigned* mhz) {
    if (type != 1) // NVML_CLOCK_SM; the others are not replayed
        return kNotSupported;
    double value = 0;
    if (const int rc = number(id(device), "clocks.sm", &value); rc != kSuccess)
        return rc;
    *mhz = unsigned(value);
    return kSuccess;
}

struct StandinFabricV3 { // nvmlGpuFabricInfo_v3_t; v2 is the same without healthSummary
    unsigned version;
    unsigned char clusterUuid[16];
    int status;
    unsigned cliqueId;
    unsigned char state;
    unsigned healthMask;
    unsigned char healthSummary;
};

// The GPU's block, as NVML would answer it; NOT_SUPPORTED where the capture states no registration.
static int fabricOf(void* device, StandinFabricV3* out, bool withHealth) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    const uintptr_t d = id(device);
    if (d == 0 || d > s.fabric.size())
        return kNotSupported;
    const FabricBlock& b = s.fabric[d - 1];
    const auto get = [&](const char* key) {
        const auto it = b.find(key);
        return it == b.end() ? std::string() : it->second;
    };
    if (get("CliqueId").empty() || get("ClusterUUID").empty())
        return kNotSupported;
    static const std::map<std::string, unsigned char> states{
        {"Not Supported", 0}, {"Not Started", 1}, {"In Progress", 2}, {"Completed", 3}};
    out->state = states.count(get("State")) ? states.at(get("State")) : 0;
    const std::string status = get("Status");
    const auto known = std::find(s.statusTexts.begin(), s.statusTexts.end(), status);
    out->status = status == "Success" ? kSuccess : int(1000 + (known - s.statusTexts.begin()));
    if (out->status != kSuccess && known == s.statusTexts.end())
        s.statusTexts.push_back(status);
    out->cliqueId = unsigned(std::strtoul(get("CliqueId").c_str(), nullptr, 10));
    std::string hex;
    for (char c : get("ClusterUUID"))
        if (std::isxdigit(static_cast<unsigned char>(c)))
            hex += c;
    for (size_t i = 0; i < 16 && 2 * i + 1 < hex.size(); ++i)
        out->clusterUuid[i] =
            static_cast<unsigned char>(std::strtoul(hex.substr(2 * i, 2).c_str(), nullptr, 16));
    out->healthMask = 0;
    out->healthSummary = 0;
    if (withHealth) {
        const std::string bandwidth = get("Bandwidth");
        if (!bandwidth.empty()) // NVML_GPU_FABRIC_HEALTH_MASK_DEGRADED_BW: 1 true, 2 false
            out->healthMask |= bandwidth == "Full" ? 2u : 1u;
        static const std::map<std::string, unsigned char> summaries{
            {"Healthy", 1}, {"Unhealthy", 2}, {"Limited Capacity", 3}};
        out->healthSummary = summaries.count(get("Summary")) ? summaries.at(get("Summary")) : 0;
    }
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetGpuFabricInfoV(void* device, StandinFabricV3* info) {
    const unsigned v3 = unsigned(sizeof(StandinFabricV3)) | (3u << 24), v2 = 36u | (2u << 24);
    if (!info || (info->version != v3 && info->version != v2))
        return 25; // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
    StandinFabricV3 full{};
    if (const int rc = fabricOf(device, &full, true); rc != kSuccess)
        return rc;
    std::memcpy(info->clusterUuid, full.clusterUuid, 16);
    info->status = full.status;
    info->cliqueId = full.cliqueId;
    info->state = full.state;
    info->healthMask = full.healthMask;
    if (info->version == v3)
        info->healthSummary = full.healthSummary;
    return kSuccess;
}

__attribute__((visibility("default"))) const char* nvmlErrorString(int rc) {
    switch (rc) {
    case kSuccess:
        return "Success";
    case kNotSupported:
        return "Not Supported";
    default:
        break;
    }
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    const size_t i = size_t(rc - 1000);
    return rc >= 1000 && i < s.statusTexts.size() ? s.statusTexts[i].c_str() : "Unknown Error";
}

__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkState(void* device, unsigned link,
                                                                    int* active) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    const uintptr_t d = id(device);
    if (d == 0 || d > s.nvlinks.size() || link >= s.nvlinks[d - 1].size() || s.nvlinks[d - 1][link] < 0)
        return kNotSupported;
    *active = s.nvlinks[d - 1][link] > 0;
    return kSuccess;
}

struct StandinFieldValue { // nvmlFieldValue_t
    unsigned fieldId, scopeId;
    long long timestamp, latencyUsec;
    int valueType, nvmlReturn;
    unsigned long long value;
};

// NVML_FI_DEV_NVLINK_GET_SPEED (164) per link, in MBps, from the `nvlink --status` capture's GB/s.
__attribute__((visibility("default"))) int nvmlDeviceGetFieldValues(void* device, int count,
                                                                    StandinFieldValue* values) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    const uintptr_t d = id(device);
    for (int i = 0; i < count; ++i) {
        StandinFieldValue& v = values[i];
        const bool known = v.fieldId == 164 && d >= 1 && d <= s.nvlinks.size() &&
                           v.scopeId < s.nvlinks[d - 1].size() && s.nvlinks[d - 1][v.scopeId] > 0;
        v.valueType = 1; // NVML_VALUE_TYPE_UNSIGNED_INT
        v.nvmlReturn = known ? kSuccess : kNotSupported;
        v.value = known ? unsigned(s.nvlinks[d - 1][v.scopeId]) : 0;
    }
    return kSuccess;
}

} // extern "C"
