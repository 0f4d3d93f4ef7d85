#pragma once
// A load run's results, defined as vLLM's benchmark defines them: per-metric
// mean, median, standard deviation and percentiles (linear interpolation, as
// numpy's), throughput over the run's duration, goodput under SLOs, failures
// by kind, and how often the client itself sent late. The JSON's field names
// follow `vllm bench serve --save-result`; rackscope's additions sit beside.
#include "gpu_samples.h"
#include "request_record.h"
#include "server_metrics.h"

#include <map>

namespace rsload {

// A bound on each request (goodput's), or with a percentile on the run's percentile: "ttft_p99<=500ms".
struct Slo {
    std::string metric; // ttft, tpot, itl, e2el
    double ms = 0;
    std::optional<double> percentile; // 0 < p < 100
};
// "ttft<=200ms,tpot<=50ms" (also "ttft:200", vLLM's --goodput form), "ttft_p99<=500ms"; nullopt with *why.
std::optional<std::vector<Slo>> parseSlos(const std::string& text, std::string* why);
std::string formatSlos(const std::vector<Slo>& slos);
bool meetsSlos(const RequestRecord& r, const std::vector<Slo>& slos); // the per-request ones

struct MetricStats {
    size_t count = 0;
    double mean = 0, median = 0, stddev = 0, min = 0, max = 0;
    std::vector<std::pair<double, double>> percentiles; // (p, value)
};
MetricStats statsOf(std::vector<double> values, const std::vector<double>& percentiles);
double percentileOf(const std::vector<double>& sorted, double p); // numpy's "linear"

constexpr double kLateThresholdMs = 1.0; // a send more than this past its moment counts as late

struct LoadSummary {
    size_t completed = 0, failed = 0, warmupExcluded = 0;
    std::map<std::string, size_t> failuresByKind;
    std::map<std::string, std::string> exampleErrors; // one message per kind
    double durationS = 0;                             // first send to last end, measured requests only
    int64_t totalInputTokens = 0, totalOutputTokens = 0;
    std::string inputTokensSource, outputTokensSource; // "usage", "requested", "chunks", or "mixed"
    double requestThroughput = 0, outputThroughput = 0, totalTokenThroughput = 0;
    std::optional<double> requestGoodput; // with SLOs only
    size_t goodRequests = 0;
    std::map<std::string, MetricStats> metrics; // ttft, tpot, itl, e2el (ms)
    int64_t itlDropped = 0;                 // gaps past kMaxTimedGaps in a request, not in the ITL figures
    std::optional<MetricStats> itlPerToken; // where the server told how many tokens each chunk held
    size_t lateRequests = 0;
    double maxClientDelayMs = 0;
    double meanQueueMs = 0;
};

LoadSummary summarize(const std::vector<RequestRecord>& records, const std::vector<Slo>& slos,
                      const std::vector<double>& percentiles);
// The percentiles to compute: those asked for and those the SLOs name.
std::vector<double> withSloPercentiles(std::vector<double> percentiles, const std::vector<Slo>& slos);
// Whether the run held its SLOs: at least `attainment` of its requests met the per-request ones (failures
// never do), and each percentile one was within its bound (summarised with withSloPercentiles). `why` says
// which broke first.
bool slosHeld(const LoadSummary& s, const std::vector<Slo>& slos, double attainment,
              std::string* why = nullptr);

// The summary as `vllm bench serve --save-result` names it, with the run's description.
Json summaryJson(const LoadSummary& s, const LoadSpec& spec, const std::vector<Slo>& slos,
                 const std::string& date);
// vLLM's console table layout, with rackscope's lines for failures, goodput and late sends.
// The failures in a line, most frequent kind first, each with its count and one example:
// "connect x20 (could not connect to 127.0.0.1:9: Connection refused)"; empty when none failed.
std::string failureSummary(const LoadSummary& s);
// vLLM bench's table; with `server`, a section of what the server's /metrics said during the run; with
// `gpus`, one of what the workers' GPUs did.
std::string summaryText(const LoadSummary& s, const std::string& title,
                        const ServerMetricsSummary* server = nullptr, const GpuUseSummary* gpus = nullptr);

} // namespace rsload
