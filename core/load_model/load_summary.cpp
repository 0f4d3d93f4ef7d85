#include "load_summary.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace rsload {
namespace {

constexpr const char* kMetrics[] = {"ttft", "tpot", "itl", "e2el"};

bool knownMetric(const std::string& m) {
    return std::find_if(std::begin(kMetrics), std::end(kMetrics), [&](const char* k) { return m == k; }) !=
           std::end(kMetrics);
}

std::optional<double> metricOf(const RequestRecord& r, const std::string& metric) {
    if (metric == "ttft")
        return r.ttftMs;
    if (metric == "tpot")
        return r.tpotMs();
    if (metric == "e2el")
        return r.e2elMs;
    return std::nullopt;
}

std::string percentileKey(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", p);
    return std::string("p") + buf;
}

std::string sourceOf(const std::vector<std::string>& seen) {
    if (seen.empty())
        return "";
    return std::all_of(seen.begin(), seen.end(), [&](const std::string& s) { return s == seen.front(); })
               ? seen.front()
               : "mixed";
}

void addMetricFields(Json& j, const std::string& name, const MetricStats& m) {
    const auto known = [&](double v) {
        return m.count ? Json(v) : Json();
    }; // no request measured it: unknown, not 0
    j["mean_" + name + "_ms"] = known(m.mean);
    j["median_" + name + "_ms"] = known(m.median);
    j["std_" + name + "_ms"] = known(m.stddev);
    for (const auto& [p, v] : m.percentiles)
        j[percentileKey(p) + "_" + name + "_ms"] = known(v);
}

std::string line(const std::string& label, const std::string& value) {
    return label + std::string(label.size() < 40 ? 40 - label.size() : 0, ' ') + " " + value + "\n";
}
std::string num(double v, int decimals = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}
std::string banner(const std::string& title, char fill) {
    const size_t width = 50;
    if (title.size() + 2 >= width)
        return title + "\n";
    const size_t left = (width - title.size()) / 2, right = width - title.size() - left;
    return std::string(left, fill) + title + std::string(right, fill) + "\n";
}

} // namespace

std::optional<std::vector<Slo>> parseSlos(const std::string& text, std::string* why) {
    std::vector<Slo> out;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find(',', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string item = text.substr(pos, end - pos);
        pos = end + 1;
        if (item.empty()) {
            if (end == text.size())
                break;
            continue;
        }
        size_t op = item.find("<=");
        size_t opLen = 2;
        if (op == std::string::npos) {
            op = item.find(':');
            opLen = 1;
        }
        Slo slo;
        std::string value = op == std::string::npos ? "" : item.substr(op + opLen);
        slo.metric = item.substr(0, op);
        bool percentileOk = true;
        if (const size_t under = slo.metric.find("_p"); under != std::string::npos) {
            const std::string p = slo.metric.substr(under + 2);
            double pct = 0;
            auto [pe, pec] = std::from_chars(p.data(), p.data() + p.size(), pct);
            percentileOk =
                !p.empty() && pec == std::errc() && pe == p.data() + p.size() && pct > 0 && pct < 100;
            slo.percentile = pct;
            slo.metric.resize(under);
        }
        if (value.size() > 2 && value.compare(value.size() - 2, 2, "ms") == 0)
            value.resize(value.size() - 2);
        double ms = 0;
        auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
        if (op == std::string::npos || !knownMetric(slo.metric) || !percentileOk || value.empty() ||
            ec != std::errc() || p != value.data() + value.size() || !(ms > 0)) {
            *why = "'" + item +
                   "' is not an SLO: give METRIC<=Nms for each request or METRIC_pNN<=Nms for a percentile, "
                   "with "
                   "METRIC one of ttft, tpot, itl, e2el (e.g. ttft<=200ms,tpot<=50ms or ttft_p99<=500ms)";
            return std::nullopt;
        }
        slo.ms = ms;
        out.push_back(slo);
        if (end == text.size())
            break;
    }
    if (out.empty()) {
        *why = "no SLO given";
        return std::nullopt;
    }
    return out;
}

std::string formatSlos(const std::vector<Slo>& slos) {
    std::string out;
    const auto shortest = [](double v) { return num(v, v == std::floor(v) ? 0 : 3); };
    for (const Slo& s : slos)
        out += (out.empty() ? "" : ",") + s.metric + (s.percentile ? "_p" + shortest(*s.percentile) : "") +
               "<=" + shortest(s.ms) + "ms";
    return out;
}

bool meetsSlos(const RequestRecord& r, const std::vector<Slo>& slos) {
    if (!r.ok())
        return false;
    for (const Slo& s : slos) {
        if (s.percentile)
            continue;            // the run's, not one request's
        if (s.metric == "itl") { // every gap within the bound, as vLLM's goodput treats ITL
            if (r.itlDroppedMaxMs > s.ms ||
                std::any_of(r.itlMs.begin(), r.itlMs.end(), [&](double v) { return v > s.ms; }))
                return false;
            continue;
        }
        const std::optional<double> v = metricOf(r, s.metric);
        if (s.metric == "tpot" && !v)
            continue; // one-token outputs have no TPOT to break
        if (!v || *v > s.ms)
            return false;
    }
    return true;
}

double percentileOf(const std::vector<double>& sorted, double p) {
    if (sorted.empty())
        return 0;
    const double rank = p / 100.0 * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(rank));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - double(lo));
}

// As statsOf over a list where each value stands `weight` times, without making that list:
// a chunk's token count is the server's word, not an allocation size.
MetricStats weightedStatsOf(std::vector<std::pair<double, int64_t>> values,
                            const std::vector<double>& percentiles) {
    MetricStats m;
    int64_t n = 0;
    double sum = 0;
    for (const auto& [v, w] : values)
        n += w, sum += v * double(w);
    m.count = size_t(n);
    if (n == 0) {
        for (double p : percentiles)
            m.percentiles.emplace_back(p, 0.0);
        return m;
    }
    std::sort(values.begin(), values.end());
    m.min = values.front().first;
    m.max = values.back().first;
    m.mean = sum / double(n);
    double sq = 0;
    for (const auto& [v, w] : values)
        sq += double(w) * (v - m.mean) * (v - m.mean);
    m.stddev = std::sqrt(sq / double(n));
    std::vector<int64_t> ends; // the expanded list's index one past each value's run
    int64_t at = 0;
    for (const auto& [v, w] : values)
        ends.push_back(at += w);
    const auto nth = [&](int64_t i) {
        return values[size_t(std::upper_bound(ends.begin(), ends.end(), i) - ends.begin())].first;
    };
    const auto percentile = [&](double p) {
        const double rank = p / 100.0 * double(n - 1);
        const int64_t lo = int64_t(std::floor(rank)), hi = std::min(lo + 1, n - 1);
        return nth(lo) + (nth(hi) - nth(lo)) * (rank - double(lo));
    };
    m.median = percentile(50);
    for (double p : percentiles)
        m.percentiles.emplace_back(p, percentile(p));
    return m;
}

MetricStats statsOf(std::vector<double> values, const std::vector<double>& percentiles) {
    MetricStats m;
    m.count = values.size();
    if (values.empty()) { // no value: the percentiles are named, and left unknown by whoever prints them
        for (double p : percentiles)
            m.percentiles.emplace_back(p, 0.0);
        return m;
    }
    std::sort(values.begin(), values.end());
    m.min = values.front();
    m.max = values.back();
    m.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    double sq = 0;
    for (double v : values)
        sq += (v - m.mean) * (v - m.mean);
    m.stddev = std::sqrt(sq / double(values.size())); // numpy's std: the population's
    m.median = percentileOf(values, 50);
    for (double p : percentiles)
        m.percentiles.emplace_back(p, percentileOf(values, p));
    return m;
}

LoadSummary summarize(const std::vector<RequestRecord>& records, const std::vector<Slo>& slos,
                      const std::vector<double>& percentiles) {
    LoadSummary s;
    std::map<std::string, std::vector<double>> values;
    std::vector<std::pair<double, int64_t>>
        perToken; // (a token's share of its chunk's gap, tokens in the chunk)
    bool perTokenKnown = false;
    std::vector<std::string> inSources, outSources;
    double start = 0, end = 0;
    bool any = false;
    double queueSum = 0;
    size_t measured = 0;
    for (const RequestRecord& r : records) {
        if (r.warmup) {
            ++s.warmupExcluded;
            continue;
        }
        ++measured;
        queueSum += r.queueMs;
        const double finish = r.sentS + r.e2elMs.value_or(0) / 1000.0;
        start = any ? std::min(start, r.sentS) : r.sentS;
        end = any ? std::max(end, finish) : finish;
        any = true;
        if (r.clientDelayMs > kLateThresholdMs)
            ++s.lateRequests;
        s.maxClientDelayMs = std::max(s.maxClientDelayMs, r.clientDelayMs);
        if (!r.ok()) {
            ++s.failed;
            const std::string kind = failureName(r.failure);
            ++s.failuresByKind[kind];
            if (!s.exampleErrors.count(kind))
                s.exampleErrors[kind] = r.error;
            continue;
        }
        ++s.completed;
        if (r.inputTokens) {
            s.totalInputTokens += *r.inputTokens;
            inSources.push_back(r.inputTokensSource);
        }
        if (r.outputTokens) {
            s.totalOutputTokens += *r.outputTokens;
            outSources.push_back(r.outputTokensSource);
        }
        for (const char* m : {"ttft", "tpot", "e2el"})
            if (auto v = metricOf(r, m))
                values[m].push_back(*v);
        values["itl"].insert(values["itl"].end(), r.itlMs.begin(), r.itlMs.end());
        s.itlDropped += r.itlDropped;
        // A chunk that carried k tokens stands for k gaps of a k-th of its own.
        if (!r.chunkTokens.empty() && r.chunkTokens.size() == r.itlMs.size() + 1) {
            perTokenKnown = true;
            for (size_t i = 0; i < r.itlMs.size(); ++i) {
                const int k = std::max(1, r.chunkTokens[i + 1]);
                perToken.emplace_back(r.itlMs[i] / k, k);
            }
        }
        if (!slos.empty() && meetsSlos(r, slos))
            ++s.goodRequests;
    }
    s.durationS = any ? end - start : 0;
    s.meanQueueMs = measured ? queueSum / double(measured) : 0;
    s.inputTokensSource = sourceOf(inSources);
    s.outputTokensSource = sourceOf(outSources);
    for (const char* m : kMetrics)
        s.metrics[m] = statsOf(values[m], percentiles);
    if (perTokenKnown)
        s.itlPerToken = weightedStatsOf(std::move(perToken), percentiles);
    if (s.durationS > 0) {
        s.requestThroughput = double(s.completed) / s.durationS;
        s.outputThroughput = double(s.totalOutputTokens) / s.durationS;
        s.totalTokenThroughput = double(s.totalInputTokens + s.totalOutputTokens) / s.durationS;
        if (!slos.empty())
            s.requestGoodput = double(s.goodRequests) / s.durationS;
    }
    return s;
}

Json summaryJson(const LoadSummary& s, const LoadSpec& spec, const std::vector<Slo>& slos,
                 const std::string& date) {
    Json j{{"date", date},
           {"backend", endpointName(spec.endpoint)},
           {"base_url", spec.url},
           {"model_id", spec.model},
           {"num_prompts", spec.requests},
           {"request_rate", spec.rate > 0 ? Json(spec.rate) : Json("inf")},
           {"burstiness", spec.burstiness},
           {"max_concurrency", spec.concurrency > 0 ? Json(spec.concurrency) : Json()},
           {"duration", s.durationS},
           {"completed", s.completed},
           {"failed", s.failed},
           {"total_input_tokens", s.totalInputTokens},
           {"total_output_tokens", s.totalOutputTokens},
           {"request_throughput", s.requestThroughput},
           {"request_goodput", s.requestGoodput ? Json(*s.requestGoodput) : Json()},
           {"output_throughput", s.outputThroughput},
           {"total_token_throughput", s.totalTokenThroughput}};
    for (const char* m : kMetrics)
        addMetricFields(j, m, s.metrics.at(m));
    // rackscope's additions
    j["input_tokens_source"] = s.inputTokensSource.empty() ? Json() : Json(s.inputTokensSource);
    j["output_tokens_source"] = s.outputTokensSource.empty() ? Json() : Json(s.outputTokensSource);
    if (s.itlPerToken) {
        Json t = Json::object();
        addMetricFields(t, "itl_per_token", *s.itlPerToken);
        j.update(t);
    }
    j["goodput_slo"] = slos.empty() ? Json() : Json(formatSlos(slos));
    j["good_requests"] = s.goodRequests;
    Json failures = Json::object();
    for (const auto& [kind, n] : s.failuresByKind)
        failures[kind] = {{"count", n}, {"example", s.exampleErrors.at(kind)}};
    j["failures"] = failures;
    j["warmup_requests"] = s.warmupExcluded;
    j["itl_gaps_not_kept"] = s.itlDropped; // past kMaxTimedGaps in a request: not in the ITL figures
    j["late_requests"] = s.lateRequests;
    j["late_threshold_ms"] = kLateThresholdMs;
    j["max_client_delay_ms"] = s.maxClientDelayMs;
    j["mean_queue_ms"] = s.meanQueueMs;
    j["input_len"] = spec.prompts.empty() ? Json(formatLengthDist(spec.inputLen)) : Json("dataset");
    j["output_len"] = formatLengthDist(spec.outputLen);
    j["seed"] = spec.seed;
    return j;
}

std::string failureSummary(const LoadSummary& s) {
    std::vector<std::pair<std::string, size_t>> kinds(s.failuresByKind.begin(), s.failuresByKind.end());
    std::stable_sort(kinds.begin(), kinds.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [kind, n] : kinds) {
        const std::string& example = s.exampleErrors.at(kind);
        out += (out.empty() ? "" : ", ") + kind + " x" + std::to_string(n) +
               (example.empty() ? "" : " (" + example + ")");
    }
    return out;
}

namespace {

std::string known(const std::optional<double>& v, double scale = 1, int decimals = 2) {
    return v ? num(*v * scale, decimals) : std::string("\u2014");
}

std::string serverSection(const ServerMetricsSummary& m) {
    std::string t = banner(m.server.empty() ? "Server metrics" : "Server metrics (" + m.server + ")", '-');
    t += line("Scrapes:", std::to_string(m.scrapes) + "  (" + std::to_string(m.failedScrapes) + " failed; " +
                              m.url + ")");
    if (m.scrapes == m.failedScrapes) {
        t += line("Unavailable:",
                  m.firstError.empty() ? std::string("no scrape in the measured phase") : m.firstError);
        return t;
    }
    if (!m.firstError.empty())
        t += line("First failed scrape:", m.firstError);
    t += line("Peak KV-cache use (%):", known(m.kvCachePeak, 100, 1));
    t += line("Mean KV-cache use (%):", known(m.kvCacheMean, 100, 1));
    t += line("Peak requests running:", known(m.runningPeak, 1, 0));
    t += line("Peak requests waiting:", known(m.waitingPeak, 1, 0));
    t += line("Preemptions during the run:", known(m.preemptions, 1, 0));
    t += line("Prefix-cache hit rate (%):", known(m.prefixHitRate, 100, 1));
    return t;
}

// A line per GPU: "node3 GPU0 (NVIDIA H100 80GB HBM3)"; then why any worker was not read.
std::string gpuSection(const GpuUseSummary& g) {
    std::string t = banner("Workers' GPUs (NVML)", '-');
    for (const GpuUse& u : g.gpus) {
        t += u.host + " GPU" + std::to_string(u.index) + (u.name.empty() ? "" : " (" + u.name + ")") + "\n";
        t +=
            line("  Utilisation mean / peak (%):", known(u.utilMean, 1, 1) + " / " + known(u.utilPeak, 1, 0));
        t += line("  Memory used peak (MiB):",
                  known(u.memUsedPeakMiB, 1, 0) + (u.memTotalMiB ? " of " + num(*u.memTotalMiB, 0) : ""));
        t += line("  Power mean / peak (W):", known(u.powerMeanW, 1, 1) + " / " + known(u.powerPeakW, 1, 1));
        t += line("  SM clock mean (MHz):", known(u.smClockMeanMHz, 1, 0));
    }
    for (const auto& [host, why] : g.unread)
        t += line(host + ":", "not read: " + why);
    return t;
}

} // namespace

std::string summaryText(const LoadSummary& s, const std::string& title, const ServerMetricsSummary* server,
                        const GpuUseSummary* gpus) {
    std::string t = banner(" " + title + " ", '=');
    t += line("Successful requests:", std::to_string(s.completed));
    t += line("Failed requests:", std::to_string(s.failed));
    for (const auto& [kind, n] : s.failuresByKind)
        t += line("  " + kind + ":", std::to_string(n) + "  (" + s.exampleErrors.at(kind) + ")");
    t += line("Benchmark duration (s):", num(s.durationS));
    const auto withSource = [](int64_t n, const std::string& src) {
        return std::to_string(n) + (src.empty() || src == "usage" ? "" : "  (" + src + ")");
    };
    t += line("Total input tokens:", withSource(s.totalInputTokens, s.inputTokensSource));
    t += line("Total generated tokens:", withSource(s.totalOutputTokens, s.outputTokensSource));
    t += line("Request throughput (req/s):", num(s.requestThroughput));
    if (s.requestGoodput)
        t += line("Request goodput (req/s):", num(*s.requestGoodput));
    t += line("Output token throughput (tok/s):", num(s.outputThroughput));
    t += line("Total token throughput (tok/s):", num(s.totalTokenThroughput));
    const std::pair<const char*, const char*> sections[] = {
        {"ttft", "Time to First Token"},
        {"tpot", "Time per Output Token (excl. 1st token)"},
        {"itl", "Inter-token Latency"},
        {"e2el", "End-to-end Latency"}};
    for (const auto& [key, heading] : sections) {
        const MetricStats& m = s.metrics.at(key);
        std::string upper = key;
        for (char& c : upper)
            c = char(std::toupper(static_cast<unsigned char>(c)));
        // No request measured it: unknown, never 0.00 (the saved summary has null).
        const auto measured = [&](double v) { return m.count ? num(v) : std::string("\u2014"); };
        t += banner(heading, '-');
        t += line("Mean " + upper + " (ms):", measured(m.mean));
        t += line("Median " + upper + " (ms):", measured(m.median));
        for (const auto& [p, v] : m.percentiles)
            if (p != 50)
                t += line("P" + percentileKey(p).substr(1) + " " + upper + " (ms):", measured(v));
    }
    if (s.itlDropped > 0)
        t += line("ITL gaps not kept:", std::to_string(s.itlDropped) + "  (past " +
                                            std::to_string(kMaxTimedGaps) +
                                            " in a request; not in the ITL figures)");
    t += banner("Client", '-');
    t += line("Late sends (> 1 ms past schedule):",
              std::to_string(s.lateRequests) + "  (max " + num(s.maxClientDelayMs, 3) + " ms)");
    t += line("Mean queue time (ms):", num(s.meanQueueMs));
    if (server)
        t += serverSection(*server);
    if (gpus)
        t += gpuSection(*gpus);
    t += std::string(50, '=') + "\n";
    return t;
}

std::vector<double> withSloPercentiles(std::vector<double> percentiles, const std::vector<Slo>& slos) {
    for (const Slo& s : slos)
        if (s.percentile &&
            std::find(percentiles.begin(), percentiles.end(), *s.percentile) == percentiles.end())
            percentiles.push_back(*s.percentile);
    std::sort(percentiles.begin(), percentiles.end());
    return percentiles;
}

bool slosHeld(const LoadSummary& s, const std::vector<Slo>& slos, double attainment, std::string* why) {
    const auto broke = [&](std::string w) {
        if (why)
            *why = std::move(w);
        return false;
    };
    const size_t measured = s.completed + s.failed;
    if (measured == 0)
        return broke("no request was measured");
    if (!slos.empty() && double(s.goodRequests) < attainment * double(measured))
        return broke(std::to_string(s.goodRequests) + " of " + std::to_string(measured) +
                     " requests met the SLO, under " + num(attainment * 100, 0) + " %");
    for (const Slo& slo : slos) {
        if (!slo.percentile)
            continue;
        const MetricStats& m = s.metrics.at(slo.metric);
        const auto it = std::find_if(m.percentiles.begin(), m.percentiles.end(),
                                     [&](const auto& pv) { return pv.first == *slo.percentile; });
        const std::string name =
            slo.metric + " p" + num(*slo.percentile, *slo.percentile == std::floor(*slo.percentile) ? 0 : 3);
        if (m.count == 0 || it == m.percentiles.end())
            return broke("no request measured " + name);
        if (it->second > slo.ms)
            return broke(name + " " + num(it->second) + " ms > " + num(slo.ms) + " ms");
    }
    return true;
}

} // namespace rsload
