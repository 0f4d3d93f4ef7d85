#pragma once
// The inference server's own view during a load run: its Prometheus /metrics scraped every
// half second (remote_agent/load/metrics_scraper.h), each scrape reduced to a ServerLoad
// sample on the run's time axis, saved beside the requests (server_metrics.jsonl) and summed
// up in the run's summary. A scrape that failed is a sample with its reason, never zeros.
#include "load_spec.h"
#include "prometheus_text.h"

#include <optional>
#include <string>
#include <vector>

namespace rsload {

struct ServerSample {
    double tS = 0;     // seconds from the start of the measured phase (negative during warm-up)
    ServerLoad load;   // what the scrape said; all unknown when it failed
    std::string error; // why the scrape failed; empty when it was read
};

Json toJson(const ServerSample& s);
std::optional<ServerSample> serverSampleFromJson(const Json& j, std::string* why);

// "http://node3:8000/v1" -> "http://node3:8000/metrics": where vLLM, SGLang, TGI and trtllm-serve serve
// them; empty for a URL that has no scheme and host.
std::string defaultMetricsUrl(const std::string& baseUrl);

// What the summary says of the server, over the measured phase (warm-up samples left out): unknown where
// no scrape said it.
struct ServerMetricsSummary {
    std::string url;
    std::string server; // as the scrapes named it
    int64_t scrapes = 0, failedScrapes = 0;
    std::string firstError;
    std::optional<double> kvCachePeak, kvCacheMean; // 0..1
    std::optional<double> runningPeak, waitingPeak;
    std::optional<double> preemptions;   // the counter's growth from the first scrape to the last
    std::optional<double> prefixHitRate; // hits / queries grown over the run, or the server's own rate's mean
};
ServerMetricsSummary summarizeServerMetrics(const std::vector<ServerSample>& samples, const std::string& url);
Json toJson(const ServerMetricsSummary& s);

} // namespace rsload
