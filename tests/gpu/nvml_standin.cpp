// A stand-in for libnvidia-ml.so.1 on machines without an NVIDIA GPU (this one, CI):
// it replays what `nvidia-smi --query-gpu=timestamp,index,name,uuid,pci.bus_id,
// utilization.gpu,utilization.memory,memory.used,memory.total,power.draw,clocks.sm
// --format=csv -lms N` printed (and driver_version, pcie.link.gen.current/max, pcie.link.width.current/max),
// the file named by RACKSCOPE_NVML_STANDIN. Each GPU reads its latest row no later than the time since the
// first nvmlInit_v2 (its timestamps taken from the first row's); "[N/A]" and "[Not Supported]" answer
// NOT_SUPPORTED, as NVML does. Columns may come in any order; any may be missing. Only the calls the agent
// makes are defined: the agent treats the others as absent.
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

struct State {
    std::mutex mutex;
    int initialised = 0;                // NVML counts nvmlInit_v2 against nvmlShutdown
    Clock::time_point start;            // of the first nvmlInit_v2 still open
    std::vector<std::vector<Row>> gpus; // by index, rows in time order
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

} // extern "C"
