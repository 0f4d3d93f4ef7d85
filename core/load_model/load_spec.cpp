#include "load_spec.h"

#include <charconv>
#include <cmath>

// The GUI shows validate()'s messages in its language: lupdate finds them by this marker, which is
// just the text here (the agent has no Qt).
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, text) text
#endif

namespace rsload {
namespace {

bool parseNumber(std::string_view s, double* out) {
    if (s.empty())
        return false;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, *out);
    return ec == std::errc() && p == end && std::isfinite(*out);
}

const char* kindName(LengthDist::Kind k) {
    switch (k) {
    case LengthDist::Kind::Fixed:
        return "fixed";
    case LengthDist::Kind::Uniform:
        return "uniform";
    case LengthDist::Kind::Normal:
        return "normal";
    }
    return "fixed";
}

Json distJson(const LengthDist& d) {
    return Json{{"kind", kindName(d.kind)}, {"a", d.a}, {"b", d.b}};
}

std::optional<LengthDist> distFromJson(const Json& j) {
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
        return std::nullopt;
    LengthDist d;
    const std::string k = j["kind"];
    if (k == "fixed")
        d.kind = LengthDist::Kind::Fixed;
    else if (k == "uniform")
        d.kind = LengthDist::Kind::Uniform;
    else if (k == "normal")
        d.kind = LengthDist::Kind::Normal;
    else
        return std::nullopt;
    if (!j.value("a", Json()).is_number() || !j.value("b", Json()).is_number())
        return std::nullopt;
    d.a = j["a"];
    d.b = j["b"];
    return d;
}

std::string distProblem(const LengthDist& d, const char* what) {
    const std::string w = what;
    switch (d.kind) {
    case LengthDist::Kind::Fixed:
        return d.a >= 1 && d.a <= 1e7 ? "" : w + " must be between 1 and 10000000 tokens";
    case LengthDist::Kind::Uniform:
        return d.a >= 1 && d.b >= d.a && d.b <= 1e7
                   ? ""
                   : w + ": a uniform range needs 1 <= low <= high <= 10000000";
    case LengthDist::Kind::Normal:
        return d.a >= 1 && d.a <= 1e7 && d.b >= 0
                   ? ""
                   : w + ": a normal length needs a mean of 1 or more and a standard deviation of 0 or more";
    }
    return {};
}

} // namespace

std::optional<LengthDist> parseLengthDist(const std::string& text, std::string* why) {
    LengthDist d;
    std::string_view t(text);
    double x = 0, y = 0;
    auto fail = [&] {
        *why = "'" + text + "' is not a length: give N, uniform:LOW-HIGH or normal:MEAN,STDDEV";
        return std::nullopt;
    };
    if (t.rfind("uniform:", 0) == 0) {
        t.remove_prefix(8);
        const size_t dash = t.find('-');
        if (dash == std::string_view::npos || !parseNumber(t.substr(0, dash), &x) ||
            !parseNumber(t.substr(dash + 1), &y))
            return fail();
        d = {LengthDist::Kind::Uniform, x, y};
    } else if (t.rfind("normal:", 0) == 0) {
        t.remove_prefix(7);
        const size_t comma = t.find(',');
        if (comma == std::string_view::npos || !parseNumber(t.substr(0, comma), &x) ||
            !parseNumber(t.substr(comma + 1), &y))
            return fail();
        d = {LengthDist::Kind::Normal, x, y};
    } else {
        if (!parseNumber(t, &x))
            return fail();
        d = {LengthDist::Kind::Fixed, x, 0};
    }
    if (std::string p = distProblem(d, "the length"); !p.empty()) {
        *why = "'" + text + "': " + p;
        return std::nullopt;
    }
    return d;
}

std::string formatLengthDist(const LengthDist& d) {
    auto n = [](double v) {
        std::string s = std::to_string(v);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.')
            s.pop_back();
        return s;
    };
    switch (d.kind) {
    case LengthDist::Kind::Fixed:
        return n(d.a);
    case LengthDist::Kind::Uniform:
        return "uniform:" + n(d.a) + "-" + n(d.b);
    case LengthDist::Kind::Normal:
        return "normal:" + n(d.a) + "," + n(d.b);
    }
    return {};
}

std::string endpointPath(Endpoint e) {
    return e == Endpoint::ChatCompletions ? "/chat/completions" : "/completions";
}
const char* endpointName(Endpoint e) {
    return e == Endpoint::ChatCompletions ? "openai-chat" : "openai";
}

const char* httpClientName(HttpClient c) {
    return c == HttpClient::Curl ? "curl" : c == HttpClient::Native ? "native" : "auto";
}

std::optional<HttpClient> httpClientFromName(const std::string& name) {
    for (HttpClient c : {HttpClient::Auto, HttpClient::Curl, HttpClient::Native})
        if (name == httpClientName(c))
            return c;
    return std::nullopt;
}

std::vector<std::string> validate(const LoadSpec& s) {
    std::vector<std::string> problems;
    if (s.url.rfind("http://", 0) != 0 && s.url.rfind("https://", 0) != 0)
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "the URL must start with http:// or https://"));
    if (s.model.empty())
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "a model name is needed (the server's --served-model-name)"));
    if (s.concurrency < 0 || s.concurrency > 100000)
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "the concurrency must be between 0 and 100000"));
    if (s.concurrency == 0 && s.rate <= 0 && s.trace.empty())
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "give a concurrency, a request rate, or both"));
    if (s.rate < 0 || s.rate > 1e6)
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "the request rate must be between 0 and 1000000 per second"));
    if (!(s.burstiness > 0) || s.burstiness > 1000)
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "the burstiness must be above 0 (1 is Poisson)"));
    if (s.requests < 0 || s.warmup < 0)
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "request counts cannot be negative"));
    if (s.requests == 0 && s.durationS <= 0 && s.trace.empty())
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "give a request count, a duration, or both"));
    if (s.durationS < 0 || s.timeoutS < 0 || s.connectTimeoutS < 0)
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "times cannot be negative"));
    if (s.temperature && (*s.temperature < 0 || *s.temperature > 2))
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "the temperature must be between 0 and 2"));
    if ((!s.caPem.empty() || s.insecure) && s.url.rfind("https://", 0) != 0)
        problems.push_back(QT_TRANSLATE_NOOP(
            "rsload", "a CA certificate or skipping the certificate check is for https:// URLs"));
    if (!s.caPem.empty() &&
        (s.caPem.size() > kMaxCaPemBytes || s.caPem.find("-----BEGIN CERTIFICATE-----") == std::string::npos))
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "the CA certificate file is not PEM certificates "
                                                       "(-----BEGIN CERTIFICATE-----), or is over 1 MiB"));
    if (!s.metricsUrl.empty() && s.metricsUrl.rfind("http://", 0) != 0 &&
        s.metricsUrl.rfind("https://", 0) != 0)
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "the server metrics URL must start with http:// or https://"));
    if (s.turns < 1 || s.turns > 1000)
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "the turns per conversation must be between 1 and 1000"));
    if (s.turns > 1 && s.endpoint != Endpoint::ChatCompletions)
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "multi-turn conversations need the chat completions API"));
    if (s.turns > 1 && !s.trace.empty())
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "a trace is replayed one request at a time, not as conversations"));
    if (!(s.thinkTimeS >= 0) || s.thinkTimeS > 3600)
        problems.push_back(QT_TRANSLATE_NOOP("rsload", "the think time must be between 0 and 3600 s"));
    if (!(s.traceSpeed > 0) || s.traceSpeed > 1e6)
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "the trace speed must be above 0 (1 replays it as it was)"));
    for (size_t i = 0; i < s.trace.size(); ++i)
        if (!(s.trace[i].atS >= 0) || (i && s.trace[i].atS < s.trace[i - 1].atS) || s.trace[i].inputLen < 0 ||
            s.trace[i].outputLen < 0) {
            problems.push_back("the trace's request " + std::to_string(i + 1) +
                               " is out of order or has a negative time or length");
            break;
        }
    if (!(s.scrapeIntervalS >= 0.05) || s.scrapeIntervalS > 3600)
        problems.push_back(
            QT_TRANSLATE_NOOP("rsload", "the scrape interval must be between 0.05 and 3600 s"));
    for (const auto& [name, value] : s.headers) {
        if (name.empty() || name.find_first_of(":\r\n ") != std::string::npos ||
            value.find_first_of("\r\n") != std::string::npos)
            problems.push_back("the header '" + name + "' is malformed");
    }
    if (s.prompts.empty()) {
        if (std::string p = distProblem(s.inputLen, "the input length"); !p.empty())
            problems.push_back(p);
    }
    if (std::string p = distProblem(s.outputLen, "the output length"); !p.empty())
        problems.push_back(p);
    return problems;
}

Json toJson(const LoadSpec& s) {
    Json headers = Json::array();
    for (const auto& [name, value] : s.headers)
        headers.push_back(Json::array({name, value}));
    Json prompts = Json::array();
    for (const Prompt& p : s.prompts) {
        Json o{{"text", p.text}, {"output_len", p.outputLen}};
        if (!p.messages.is_null())
            o["messages"] = p.messages;
        if (!p.conversation.is_null())
            o["conversation"] = p.conversation;
        prompts.push_back(std::move(o));
    }
    Json trace = Json::array();
    for (const TraceArrival& a : s.trace)
        trace.push_back(Json::array({a.atS, a.inputLen, a.outputLen, a.hashIds}));
    return Json{{"url", s.url},
                {"endpoint", endpointName(s.endpoint)},
                {"model", s.model},
                {"temperature", s.temperature ? Json(*s.temperature) : Json()},
                {"ignore_eos", s.ignoreEos},
                {"stream", s.stream},
                {"continuous_usage", s.continuousUsage},
                {"headers", headers},
                {"concurrency", s.concurrency},
                {"rate", s.rate},
                {"burstiness", s.burstiness},
                {"warmup", s.warmup},
                {"requests", s.requests},
                {"duration_s", s.durationS},
                {"timeout_s", s.timeoutS},
                {"connect_timeout_s", s.connectTimeoutS},
                {"http_client", httpClientName(s.httpClient)},
                {"ca_pem", s.caPem},
                {"insecure", s.insecure},
                {"metrics_url", s.metricsUrl},
                {"scrape_interval_s", s.scrapeIntervalS},
                {"input_len", distJson(s.inputLen)},
                {"output_len", distJson(s.outputLen)},
                {"seed", s.seed},
                {"prompts", prompts},
                {"trace", trace},
                {"trace_speed", s.traceSpeed},
                {"turns", s.turns},
                {"think_time_s", s.thinkTimeS},
                {"client", s.client}};
}

std::optional<LoadSpec> loadSpecFromJson(const Json& j, std::string* why) {
    auto fail = [&](const std::string& w) {
        *why = w;
        return std::nullopt;
    };
    if (!j.is_object())
        return fail("the load spec is not a JSON object");
    LoadSpec s;
    try {
        s.url = j.at("url").get<std::string>();
        const std::string endpoint = j.value("endpoint", "openai-chat");
        if (endpoint == "openai-chat")
            s.endpoint = Endpoint::ChatCompletions;
        else if (endpoint == "openai")
            s.endpoint = Endpoint::Completions;
        else
            return fail("unknown endpoint '" + endpoint + "' (openai-chat or openai)");
        s.model = j.at("model").get<std::string>();
        if (j.contains("temperature") && !j["temperature"].is_null())
            s.temperature = j["temperature"].get<double>();
        s.ignoreEos = j.value("ignore_eos", false);
        s.stream = j.value("stream", true);
        s.continuousUsage = j.value("continuous_usage", false);
        for (const Json& h : j.value("headers", Json::array()))
            s.headers.emplace_back(h.at(0).get<std::string>(), h.at(1).get<std::string>());
        s.concurrency = j.value("concurrency", 1);
        s.rate = j.value("rate", 0.0);
        s.burstiness = j.value("burstiness", 1.0);
        s.warmup = j.value("warmup", int64_t(0));
        s.requests = j.value("requests", int64_t(0));
        s.durationS = j.value("duration_s", 0.0);
        s.timeoutS = j.value("timeout_s", 0.0);
        s.connectTimeoutS = j.value("connect_timeout_s", 10.0);
        const auto client = httpClientFromName(j.value("http_client", "auto"));
        if (!client)
            return fail("unknown http_client '" + j.value("http_client", "") + "' (auto, curl or native)");
        s.httpClient = *client;
        s.caPem = j.value("ca_pem", "");
        s.insecure = j.value("insecure", false);
        s.metricsUrl = j.value("metrics_url", "");
        s.scrapeIntervalS = j.value("scrape_interval_s", 0.5);
        if (j.contains("input_len")) {
            auto d = distFromJson(j["input_len"]);
            if (!d)
                return fail("input_len is not a length distribution");
            s.inputLen = *d;
        }
        if (j.contains("output_len")) {
            auto d = distFromJson(j["output_len"]);
            if (!d)
                return fail("output_len is not a length distribution");
            s.outputLen = *d;
        }
        s.seed = j.value("seed", uint64_t(0));
        for (const Json& p : j.value("prompts", Json::array())) {
            Prompt prompt;
            prompt.text = p.value("text", "");
            prompt.outputLen = p.value("output_len", int64_t(0));
            if (p.contains("messages"))
                prompt.messages = p["messages"];
            if (p.contains("conversation") && p["conversation"].is_array())
                prompt.conversation = p["conversation"];
            s.prompts.push_back(std::move(prompt));
        }
        for (const Json& a : j.value("trace", Json::array()))
            s.trace.push_back(
                TraceArrival{a.at(0).get<double>(), a.at(1).get<int64_t>(), a.at(2).get<int64_t>(),
                             a.size() > 3 ? a.at(3).get<std::vector<int64_t>>() : std::vector<int64_t>{}});
        s.traceSpeed = j.value("trace_speed", 1.0);
        s.turns = j.value("turns", 1);
        s.thinkTimeS = j.value("think_time_s", 0.0);
        s.client = j.value("client", "");
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("the load spec is malformed: ") + e.what());
    }
    if (auto problems = validate(s); !problems.empty())
        return fail(problems.front());
    return s;
}

} // namespace rsload
