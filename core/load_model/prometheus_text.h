#pragma once
// Prometheus's text exposition format (what vLLM, SGLang, TGI, trtllm-serve and Triton serve at /metrics),
// read the way real scrapes are written: labels in any order (`le` first or last), histograms with `_sum`
// before their buckets, prometheus_client's `_created` series, scientific notation, +Inf/NaN, escaped label
// values, optional timestamps. A line that cannot be read is named and skipped, and the rest is kept; a
// scrape cut mid-line says so. Plain C++: the load engine in the agent scrapes during a run.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rsload {

struct PromSample {
    std::string name; // as written: "vllm:e2e_request_latency_seconds_bucket"
    std::vector<std::pair<std::string, std::string>> labels;
    double value = 0;
    std::optional<int64_t> timestampMs;
    const std::string* label(std::string_view key) const; // null when absent
};

struct PromFamily {
    std::string name; // the metric's: "vllm:e2e_request_latency_seconds"
    std::string type; // counter, gauge, histogram, summary, untyped
    std::string help;
    std::vector<PromSample> samples;
};

struct PromScrape {
    std::vector<PromFamily> families;  // in the order first seen
    std::vector<std::string> problems; // "line 12: ...": what was skipped, and why
    const PromFamily* family(std::string_view name) const;
    // The sum of a family's samples of this exact name (all its label sets), or nothing when there is none.
    std::optional<double> sum(std::string_view sampleName) const;
};

constexpr std::size_t kMaxScrapeBytes = 32u << 20; // a scrape larger than this is refused, not read

PromScrape parsePrometheusText(std::string_view text);

// What a scrape says of the server's load, by the names each server gives it; unknown where it is silent.
struct ServerLoad {
    std::string server; // "vLLM", "SGLang", "TGI", "Triton", "TensorRT-LLM (trtllm-serve)", or ""
    std::optional<double> kvCacheUse;                // 0..1, the mean over engines
    std::optional<double> running;                   // requests being computed
    std::optional<double> waiting;                   // requests queued
    std::optional<double> preemptions;               // a counter: since the server started
    std::optional<double> prefixQueries, prefixHits; // counters (tokens), vLLM
    std::optional<double> prefixHitRate;             // where the server gives the rate itself (SGLang)
};
ServerLoad serverLoadOf(const PromScrape& scrape);

} // namespace rsload
