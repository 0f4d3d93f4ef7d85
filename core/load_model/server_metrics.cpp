#include "server_metrics.h"

#include <algorithm>

namespace rsload {
namespace {

struct Field {
    const char* key;
    std::optional<double> ServerLoad::*member;
};
constexpr Field kFields[] = {
    {"kv_cache_use", &ServerLoad::kvCacheUse},
    {"running", &ServerLoad::running},
    {"waiting", &ServerLoad::waiting},
    {"preemptions", &ServerLoad::preemptions},
    {"prefix_queries", &ServerLoad::prefixQueries},
    {"prefix_hits", &ServerLoad::prefixHits},
    {"prefix_hit_rate", &ServerLoad::prefixHitRate},
};

Json valueOrNull(const std::optional<double>& v) {
    return v ? Json(*v) : Json();
}

// A counter's growth between two samples; unknown when either is silent, or when it went back (the
// server restarted and its counters with it).
std::optional<double> growth(const std::optional<double>& first, const std::optional<double>& last) {
    if (!first || !last || *last < *first)
        return std::nullopt;
    return *last - *first;
}

} // namespace

Json toJson(const ServerSample& s) {
    Json j{{"t_s", s.tS}};
    if (!s.error.empty()) {
        j["error"] = s.error;
        return j;
    }
    j["server"] = s.load.server;
    for (const Field& f : kFields)
        j[f.key] = valueOrNull(s.load.*f.member);
    return j;
}

std::optional<ServerSample> serverSampleFromJson(const Json& j, std::string* why) {
    if (!j.is_object() || !j.contains("t_s") || !j["t_s"].is_number()) {
        *why = "a server metrics sample needs a number t_s";
        return std::nullopt;
    }
    ServerSample s;
    s.tS = j["t_s"].get<double>();
    if (j.contains("error")) {
        if (!j["error"].is_string()) {
            *why = "a sample's error is not text";
            return std::nullopt;
        }
        s.error = j["error"].get<std::string>();
        return s;
    }
    if (j.contains("server") && j["server"].is_string())
        s.load.server = j["server"].get<std::string>();
    for (const Field& f : kFields) {
        if (!j.contains(f.key) || j[f.key].is_null())
            continue;
        if (!j[f.key].is_number()) {
            *why = std::string("the sample's ") + f.key + " is not a number";
            return std::nullopt;
        }
        s.load.*f.member = j[f.key].get<double>();
    }
    return s;
}

std::string defaultMetricsUrl(const std::string& baseUrl) {
    const size_t scheme = baseUrl.find("://");
    if (scheme == std::string::npos || scheme == 0)
        return {};
    const size_t path = baseUrl.find_first_of("/?#", scheme + 3);
    const std::string origin = baseUrl.substr(0, path);
    if (origin.size() == scheme + 3)
        return {};
    return origin + "/metrics";
}

ServerMetricsSummary summarizeServerMetrics(const std::vector<ServerSample>& samples,
                                            const std::string& url) {
    ServerMetricsSummary out;
    out.url = url;
    std::vector<const ServerSample*> read;
    for (const ServerSample& s : samples) {
        if (s.tS < 0)
            continue; // warm-up
        ++out.scrapes;
        if (!s.error.empty()) {
            ++out.failedScrapes;
            if (out.firstError.empty())
                out.firstError = s.error;
            continue;
        }
        read.push_back(&s);
        if (out.server.empty())
            out.server = s.load.server;
    }
    const auto peak = [&](std::optional<double> ServerLoad::*m) {
        std::optional<double> best;
        for (const ServerSample* s : read)
            if (const auto& v = s->load.*m)
                best = best ? std::max(*best, *v) : *v;
        return best;
    };
    const auto mean = [&](std::optional<double> ServerLoad::*m) -> std::optional<double> {
        double sum = 0;
        int n = 0;
        for (const ServerSample* s : read)
            if (const auto& v = s->load.*m) {
                sum += *v;
                ++n;
            }
        return n ? std::optional<double>(sum / n) : std::nullopt;
    };
    out.kvCachePeak = peak(&ServerLoad::kvCacheUse);
    out.kvCacheMean = mean(&ServerLoad::kvCacheUse);
    out.runningPeak = peak(&ServerLoad::running);
    out.waitingPeak = peak(&ServerLoad::waiting);
    if (read.size() >= 2) {
        const ServerLoad &first = read.front()->load, &last = read.back()->load;
        out.preemptions = growth(first.preemptions, last.preemptions);
        const auto queries = growth(first.prefixQueries, last.prefixQueries);
        const auto hits = growth(first.prefixHits, last.prefixHits);
        if (queries && hits && *queries > 0)
            out.prefixHitRate = std::min(1.0, *hits / *queries);
    }
    if (!out.prefixHitRate)
        out.prefixHitRate = mean(&ServerLoad::prefixHitRate);
    return out;
}

Json toJson(const ServerMetricsSummary& s) {
    return Json{{"url", s.url},
                {"server", s.server.empty() ? Json() : Json(s.server)},
                {"scrapes", s.scrapes},
                {"failed_scrapes", s.failedScrapes},
                {"first_error", s.firstError.empty() ? Json() : Json(s.firstError)},
                {"peak_kv_cache_use", valueOrNull(s.kvCachePeak)},
                {"mean_kv_cache_use", valueOrNull(s.kvCacheMean)},
                {"peak_running", valueOrNull(s.runningPeak)},
                {"peak_waiting", valueOrNull(s.waitingPeak)},
                {"preemptions", valueOrNull(s.preemptions)},
                {"prefix_cache_hit_rate", valueOrNull(s.prefixHitRate)}};
}

} // namespace rsload
