#include "prometheus_text.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <map>

namespace rsload {
namespace {

bool nameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool nameChar(char c) {
    return nameStart(c) || (c >= '0' && c <= '9');
}
void skipSpaces(std::string_view s, std::size_t& i) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
}
std::string_view nameAt(std::string_view s, std::size_t& i) {
    const std::size_t from = i;
    if (i < s.size() && nameStart(s[i]))
        while (i < s.size() && nameChar(s[i]))
            ++i;
    return s.substr(from, i - from);
}

// A number as Prometheus writes one: decimal or scientific, +Inf, -Inf, NaN.
std::optional<double> numberOf(std::string_view token) {
    if (token.empty() || token.size() > 64)
        return std::nullopt;
    const std::string copy(token);
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size())
        return std::nullopt;
    return v; // out of range: strtod's ±HUGE_VAL, as the exposition meant
}

// `{a="x",b="y"}` from `i` (at the brace); false with `why` when it cannot be read.
bool readLabels(std::string_view s, std::size_t& i, PromSample& sample, std::string& why) {
    ++i; // '{'
    while (true) {
        skipSpaces(s, i);
        if (i < s.size() && s[i] == '}') {
            ++i;
            return true;
        }
        const std::string_view key = nameAt(s, i);
        if (key.empty()) {
            why = "a label name was expected";
            return false;
        }
        skipSpaces(s, i);
        if (i >= s.size() || s[i] != '=') {
            why = "'=' was expected after the label " + std::string(key);
            return false;
        }
        ++i;
        skipSpaces(s, i);
        if (i >= s.size() || s[i] != '"') {
            why = "the value of the label " + std::string(key) + " is not quoted";
            return false;
        }
        ++i;
        std::string value;
        while (i < s.size() && s[i] != '"') {
            if (s[i] == '\\' && i + 1 < s.size()) {
                const char e = s[++i];
                value += e == 'n' ? '\n' : e; // \\ and \" stand for themselves
            } else {
                value += s[i];
            }
            ++i;
        }
        if (i >= s.size()) {
            why = "the value of the label " + std::string(key) + " is not closed";
            return false;
        }
        ++i; // closing quote
        sample.labels.emplace_back(std::string(key), std::move(value));
        skipSpaces(s, i);
        if (i < s.size() && s[i] == ',')
            ++i;
        else if (i >= s.size() || s[i] != '}') {
            why = "',' or '}' was expected after a label";
            return false;
        }
    }
}

// The family a sample belongs to: its own name, or the name less a suffix its family's type gives it.
std::string familyNameOf(const std::string& sample, const std::map<std::string, std::string>& types) {
    static const char* const kSuffixes[] = {"_bucket", "_sum",    "_count", "_created",
                                            "_total",  "_gcount", "_gsum"};
    for (const char* suffix : kSuffixes) {
        const std::string_view sv(suffix);
        if (sample.size() > sv.size() && sample.compare(sample.size() - sv.size(), sv.size(), sv) == 0) {
            const std::string base = sample.substr(0, sample.size() - sv.size());
            if (types.count(base))
                return base;
        }
    }
    return sample;
}

} // namespace

const std::string* PromSample::label(std::string_view key) const {
    for (const auto& [k, v] : labels)
        if (k == key)
            return &v;
    return nullptr;
}

const PromFamily* PromScrape::family(std::string_view name) const {
    for (const PromFamily& f : families)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::optional<double> PromScrape::sum(std::string_view sampleName) const {
    std::optional<double> total;
    for (const PromFamily& f : families)
        for (const PromSample& s : f.samples)
            if (s.name == sampleName)
                total = total.value_or(0) + s.value;
    return total;
}

PromScrape parsePrometheusText(std::string_view text) {
    PromScrape scrape;
    if (text.size() > kMaxScrapeBytes) {
        scrape.problems.push_back("the scrape is " + std::to_string(text.size()) + " bytes, more than the " +
                                  std::to_string(kMaxScrapeBytes) + " read");
        return scrape;
    }
    std::map<std::string, std::string> types, helps;
    std::map<std::string, std::size_t> indexOf; // family name -> index
    const auto familyFor = [&](const std::string& name) -> PromFamily& {
        const auto [it, added] = indexOf.emplace(name, scrape.families.size());
        if (added) {
            PromFamily f;
            f.name = name;
            f.type = types.count(name) ? types[name] : "untyped";
            f.help = helps.count(name) ? helps[name] : "";
            scrape.families.push_back(std::move(f));
        }
        return scrape.families[it->second];
    };
    std::size_t lineNo = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t eol = text.find('\n', at);
        const bool cut = eol == std::string_view::npos;
        std::string_view line = text.substr(at, cut ? std::string_view::npos : eol - at);
        at = cut ? text.size() : eol + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        std::size_t i = 0;
        skipSpaces(line, i);
        if (i == line.size())
            continue;
        const auto problem = [&](const std::string& why) {
            scrape.problems.push_back("line " + std::to_string(lineNo) + ": " + why +
                                      (cut ? " (the text ends in this line: it was cut short)" : ""));
        };
        if (line[i] == '#') { // # HELP name text, # TYPE name type; other comments are comments
            ++i;
            skipSpaces(line, i);
            const std::string_view word = nameAt(line, i);
            if (word != "HELP" && word != "TYPE")
                continue;
            skipSpaces(line, i);
            const std::string name(nameAt(line, i));
            skipSpaces(line, i);
            std::string rest(line.substr(i));
            if (name.empty()) {
                problem("# " + std::string(word) + " without a metric name");
                continue;
            }
            if (word == "TYPE") {
                static const char* const kTypes[] = {"counter", "gauge",    "histogram",
                                                     "summary", "untyped",  "gaugehistogram",
                                                     "info",    "stateset", "unknown"};
                bool known = false;
                for (const char* t : kTypes)
                    known |= rest == t;
                if (!known) {
                    problem("'" + rest + "' is not a metric type");
                    continue;
                }
                types[name] = rest;
                if (const auto it = indexOf.find(name); it != indexOf.end())
                    scrape.families[it->second].type = rest;
            } else {
                helps[name] = rest;
                if (const auto it = indexOf.find(name); it != indexOf.end())
                    scrape.families[it->second].help = rest;
            }
            continue;
        }
        PromSample sample;
        sample.name = std::string(nameAt(line, i));
        if (sample.name.empty()) {
            problem("a metric name was expected");
            continue;
        }
        skipSpaces(line, i);
        std::string why;
        if (i < line.size() && line[i] == '{' && !readLabels(line, i, sample, why)) {
            problem(why);
            continue;
        }
        skipSpaces(line, i);
        const std::size_t valueEnd = line.find_first_of(" \t", i);
        const std::optional<double> value = numberOf(
            line.substr(i, valueEnd == std::string_view::npos ? std::string_view::npos : valueEnd - i));
        if (!value) {
            problem("the value of " + sample.name + " is not a number");
            continue;
        }
        sample.value = *value;
        if (valueEnd != std::string_view::npos) {
            std::size_t t = valueEnd;
            skipSpaces(line, t);
            if (t < line.size()) {
                const std::optional<double> stamp = numberOf(line.substr(t));
                if (!stamp || !(std::abs(*stamp) < 9.0e18)) {
                    problem("the timestamp of " + sample.name + " is not a number");
                    continue;
                }
                sample.timestampMs = int64_t(*stamp);
            }
        }
        familyFor(familyNameOf(sample.name, types)).samples.push_back(std::move(sample));
    }
    return scrape;
}

ServerLoad serverLoadOf(const PromScrape& scrape) {
    ServerLoad load;
    // The first name a server gives for each, newest first. A gauge over several engines (vLLM's `engine`
    // label, data-parallel ranks) is their mean for a share, their sum for a count.
    const auto first = [&](std::initializer_list<const char*> names, bool share) -> std::optional<double> {
        for (const char* name : names) {
            std::optional<double> total;
            int n = 0;
            for (const PromFamily& f : scrape.families)
                for (const PromSample& s : f.samples)
                    if (s.name == name && std::isfinite(s.value)) {
                        total = total.value_or(0) + s.value;
                        ++n;
                    }
            if (total)
                return share ? *total / n : *total;
        }
        return std::nullopt;
    };
    const auto has = [&](std::string_view prefix) {
        for (const PromFamily& f : scrape.families)
            if (f.name.compare(0, prefix.size(), prefix) == 0)
                return true;
        return false;
    };
    load.server = has("vllm:")                                   ? "vLLM"
                  : has("sglang:")                               ? "SGLang"
                  : has("tgi_")                                  ? "TGI"
                  : has("nv_inference_")                         ? "Triton"
                  : scrape.family("e2e_request_latency_seconds") ? "TensorRT-LLM (trtllm-serve)"
                                                                 : "";
    load.kvCacheUse =
        first({"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage"}, true);
    load.running =
        first({"vllm:num_requests_running", "sglang:num_running_reqs", "tgi_batch_current_size"}, false);
    load.waiting = first({"vllm:num_requests_waiting", "sglang:num_queue_reqs", "tgi_queue_size"}, false);
    load.preemptions = first({"vllm:num_preemptions_total", "vllm:num_preemptions"}, false);
    load.prefixQueries =
        first({"vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"}, false);
    load.prefixHits = first({"vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"}, false);
    load.prefixHitRate = first({"sglang:cache_hit_rate"}, true);
    return load;
}

} // namespace rsload
