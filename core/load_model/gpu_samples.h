#pragma once
// The inference workers' GPUs during a load run: each worker's agent reads NVML every
// half second (the protocol's `sample` with "gpus"), each reading becomes a GpuSample
// on the run's time axis, saved beside the requests (gpu_metrics.jsonl) and summed up
// per GPU in the run's summary. A worker whose GPUs cannot be read is a sample with
// its reason, never zeros.
#include "load_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace rsload {

struct GpuReading {
    int index = 0; // NVML's
    std::string uuid, name;
    std::optional<double> utilPct, memUtilPct, memUsedMiB, memTotalMiB, powerW, smClockMHz;
};

struct GpuSample {
    double tS = 0; // seconds from the start of the measured phase (negative during warm-up)
    std::string host;
    std::vector<GpuReading> gpus;
    std::string error; // why this worker's GPUs could not be read; empty when they were
};

Json toJson(const GpuSample& s);
// The mean utilisation of the sample's GPUs that gave one (what the charts draw per worker); unknown when
// none did.
std::optional<double> meanUtilisation(const GpuSample& s);
std::optional<GpuSample> gpuSampleFromJson(const Json& j, std::string* why);
// From the data of an agent's `sample` event: its "gpus" section, or the reason it gives, or that the
// agent read none (an agent older than GPU sampling).
GpuSample gpuSampleFromAgent(const Json& data, const std::string& host, double tS);

// Per GPU over the measured phase (warm-up samples left out): unknown where no reading said it.
struct GpuUse {
    std::string host, uuid, name;
    int index = 0;
    int64_t samples = 0;
    std::optional<double> utilMean, utilPeak, memUsedPeakMiB, memTotalMiB, powerMeanW, powerPeakW,
        smClockMeanMHz;
};
struct GpuUseSummary {
    std::vector<std::string> workers;                        // as asked, in order
    std::vector<GpuUse> gpus;                                // by worker, then NVML index
    std::vector<std::pair<std::string, std::string>> unread; // worker, why its GPUs were not read
};
GpuUseSummary summarizeGpuUse(const std::vector<GpuSample>& samples, const std::vector<std::string>& workers);
Json toJson(const GpuUseSummary& s);

} // namespace rsload
