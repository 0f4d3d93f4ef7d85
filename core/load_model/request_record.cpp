#include "request_record.h"

#include <array>
#include <cmath>

namespace rsload {
namespace {

constexpr std::array<std::pair<Failure, const char*>, 9> kFailureNames = {{
    {Failure::Ok, "ok"},
    {Failure::Connect, "connect"},
    {Failure::Timeout, "timeout"},
    {Failure::Http, "http-error"},
    {Failure::StreamError, "stream-error"},
    {Failure::Dropped, "dropped"},
    {Failure::Protocol, "protocol"},
    {Failure::NoOutput, "no-output"},
    {Failure::Cancelled, "cancelled"},
}};

// Milliseconds to the microsecond: what the clock and the JSON are worth.
double rounded(double ms) {
    return std::round(ms * 1000.0) / 1000.0;
}

template <class T> Json orNull(const std::optional<T>& v) {
    return v ? Json(*v) : Json();
}
Json msOrNull(const std::optional<double>& v) {
    return v ? Json(rounded(*v)) : Json();
}

template <class T> std::optional<T> optionalOf(const Json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    return it->get<T>();
}

} // namespace

const char* failureName(Failure f) {
    for (const auto& [kind, name] : kFailureNames)
        if (kind == f)
            return name;
    return "ok";
}

std::optional<Failure> failureFromName(const std::string& name) {
    for (const auto& [kind, n] : kFailureNames)
        if (name == n)
            return kind;
    return std::nullopt;
}

std::optional<double> RequestRecord::tpotMs() const {
    if (!ok() || !ttftMs || !e2elMs || !outputTokens || *outputTokens < 2)
        return std::nullopt;
    return (*e2elMs - *ttftMs) / double(*outputTokens - 1);
}

Json toJson(const RequestRecord& r) {
    Json itl = Json::array();
    for (double v : r.itlMs)
        itl.push_back(rounded(v));
    Json j{{"index", r.index},
           {"client", r.client},
           {"warmup", r.warmup},
           {"scheduled_s", rounded(r.scheduledS * 1000.0) / 1000.0},
           {"sent_s", rounded(r.sentS * 1000.0) / 1000.0},
           {"queue_ms", rounded(r.queueMs)},
           {"client_delay_ms", rounded(r.clientDelayMs)},
           {"status", failureName(r.failure)},
           {"error", r.error.empty() ? Json() : Json(r.error)},
           {"http_status", orNull(r.httpStatus)},
           {"ttft_ms", msOrNull(r.ttftMs)},
           {"tpot_ms", msOrNull(r.tpotMs())},
           {"e2el_ms", msOrNull(r.e2elMs)},
           {"itl_ms", itl},
           {"chunks", r.chunks},
           {"input_tokens", orNull(r.inputTokens)},
           {"input_tokens_source", r.inputTokens ? Json(r.inputTokensSource) : Json()},
           {"output_tokens", orNull(r.outputTokens)},
           {"output_tokens_source", r.outputTokens ? Json(r.outputTokensSource) : Json()},
           {"max_tokens", r.maxTokens},
           {"connect_ms", msOrNull(r.connectMs)},
           {"finish_reason", orNull(r.finishReason)}};
    if (!r.chunkTokens.empty())
        j["chunk_tokens"] = r.chunkTokens;
    if (r.session) {
        j["session"] = *r.session;
        j["turn"] = r.turn;
    }
    if (r.itlDropped > 0) {
        j["itl_dropped"] = r.itlDropped;
        j["itl_dropped_max_ms"] = rounded(r.itlDroppedMaxMs);
    }
    return j;
}

std::optional<RequestRecord> recordFromJson(const Json& j, std::string* why) {
    if (!j.is_object()) {
        *why = "a request record is not a JSON object";
        return std::nullopt;
    }
    RequestRecord r;
    try {
        r.index = j.at("index").get<int64_t>();
        r.client = j.value("client", "");
        r.warmup = j.value("warmup", false);
        r.scheduledS = j.at("scheduled_s").get<double>();
        r.sentS = j.at("sent_s").get<double>();
        r.queueMs = j.value("queue_ms", 0.0);
        r.clientDelayMs = j.value("client_delay_ms", 0.0);
        const std::string status = j.at("status").get<std::string>();
        auto f = failureFromName(status);
        if (!f) {
            *why = "unknown request status '" + status + "'";
            return std::nullopt;
        }
        r.failure = *f;
        r.error = optionalOf<std::string>(j, "error").value_or("");
        r.httpStatus = optionalOf<int>(j, "http_status");
        r.ttftMs = optionalOf<double>(j, "ttft_ms");
        r.e2elMs = optionalOf<double>(j, "e2el_ms");
        r.itlMs = j.value("itl_ms", std::vector<double>());
        r.chunkTokens = j.value("chunk_tokens", std::vector<int>());
        r.itlDropped = j.value("itl_dropped", int64_t(0));
        r.itlDroppedMaxMs = j.value("itl_dropped_max_ms", 0.0);
        r.chunks = j.value("chunks", int64_t(0));
        r.inputTokens = optionalOf<int64_t>(j, "input_tokens");
        r.inputTokensSource = optionalOf<std::string>(j, "input_tokens_source").value_or("");
        r.outputTokens = optionalOf<int64_t>(j, "output_tokens");
        r.outputTokensSource = optionalOf<std::string>(j, "output_tokens_source").value_or("");
        r.maxTokens = j.value("max_tokens", int64_t(0));
        r.connectMs = optionalOf<double>(j, "connect_ms");
        r.finishReason = optionalOf<std::string>(j, "finish_reason");
        r.session = optionalOf<int64_t>(j, "session");
        r.turn = j.value("turn", 0);
    } catch (const nlohmann::json::exception& e) {
        *why = std::string("a request record is malformed: ") + e.what();
        return std::nullopt;
    }
    if (r.itlMs.size() > kMaxTimedGaps || r.chunkTokens.size() > kMaxTimedGaps + 1) {
        *why = "a request record has more than " + std::to_string(kMaxTimedGaps) + " inter-token latencies";
        return std::nullopt;
    }
    for (double v : r.itlMs)
        if (!std::isfinite(v) || v < 0) {
            *why = "a request record has a negative or non-finite inter-token latency";
            return std::nullopt;
        }
    return r;
}

} // namespace rsload
