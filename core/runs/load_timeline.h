#pragma once
// What the live load charts draw, from the records as they arrive: per
// window of time (by each request's end) its TTFT and TPOT percentiles,
// request and token throughput and failures; in-flight requests from the
// progress events; the server's own load from its /metrics scrapes; the
// workers' GPUs; a latency
// histogram; and for a sweep, throughput against latency per step. No widgets: the GUI draws it, a test reads
// it.
#include "load_model/gpu_samples.h"
#include "load_model/load_summary.h"
#include "load_model/server_metrics.h"

#include <QtGlobal>
#include <cstdint>
#include <map>

namespace rackscope {

struct LoadWindow {
    double startS = 0;
    size_t completed = 0, failed = 0;
    int64_t outputTokens = 0;
    std::vector<double> ttft, tpot;
};

class LoadTimeline {
public:
    explicit LoadTimeline(double windowS = 1.0) : windowS_(windowS) {}
    void clear();
    void add(const rsload::RequestRecord& r);
    void progress(const std::string& client, double elapsedS, int64_t inFlight);
    void addStep(double value, const rsload::LoadSummary& s);
    void serverSample(const rsload::ServerSample& s); // warm-up's (t < 0) left out
    void gpuSample(const rsload::GpuSample& s);       // warm-up's and unread ones left out
    // A saved run drawn again: its records, and the requests in flight at each moment worked out
    // from when each was sent and how long it took (a saved run keeps no progress reports).
    void replay(const std::vector<rsload::RequestRecord>& records);

    double windowS() const { return windowS_; }
    const std::map<int64_t, LoadWindow>& windows() const { return windows_; }
    // In-flight requests summed over the clients, at each progress report.
    const std::vector<std::pair<double, int64_t>>& inFlight() const { return inFlight_; }
    // The scrapes of the server's /metrics that were read, on the records' time axis.
    const std::vector<rsload::ServerSample>& server() const { return server_; }
    // Each worker's GPUs as read, on the records' time axis, by worker in the order first read.
    const std::vector<std::pair<std::string, std::vector<rsload::GpuSample>>>& gpus() const { return gpus_; }
    // Counts of `metric` ("ttft", "tpot", "e2el") in `bins` equal bins from 0 to its largest value.
    std::vector<std::pair<double, size_t>> histogram(const std::string& metric, int bins) const;
    struct Step {
        double value, requestThroughput, outputThroughput, ttftTail,
            tpotTail; // the tails: the highest percentile asked for
    };
    const std::vector<Step>& steps() const { return steps_; }
    quint64 revision() const { return revision_; } // changes whenever something was added

private:
    double windowS_;
    std::map<int64_t, LoadWindow> windows_;
    std::vector<double> ttft_, tpot_, e2el_;
    std::map<std::string, int64_t> clientsInFlight_;
    std::vector<std::pair<double, int64_t>> inFlight_;
    std::vector<rsload::ServerSample> server_;
    std::vector<std::pair<std::string, std::vector<rsload::GpuSample>>> gpus_;
    std::vector<Step> steps_;
    quint64 revision_ = 0;
};

} // namespace rackscope
