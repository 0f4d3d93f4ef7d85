#pragma once
// What one load run does: where it sends, what it asks for, how the requests
// arrive and when it stops. The same value drives the engine in-process and
// travels to an agent as the "load" method's params (docs/protocol.md).
#include "endpoint.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rsload {

using Json = nlohmann::ordered_json;

// A length in tokens: fixed, uniform in [low, high], or normal(mean, stddev) clamped to >= 1.
struct LengthDist {
    enum class Kind { Fixed, Uniform, Normal } kind = Kind::Fixed;
    double a = 0; // fixed value, low, or mean
    double b = 0; // high, or stddev
};
// "128", "uniform:64-256", "normal:128,32"; nullopt with *why on anything else.
std::optional<LengthDist> parseLengthDist(const std::string& text, std::string* why);
std::string formatLengthDist(const LengthDist& d);

// One prompt from a dataset file; outputLen 0 means "use the spec's output length".
struct Prompt {
    std::string text; // for /v1/completions, and a chat prompt's single user message
    Json messages;    // a chat conversation as given, when the file had one
    int64_t outputLen = 0;
    // A ShareGPT conversation's turns as chat messages (user, assistant, user, ...): what a multi-turn run
    // sends turn by turn
    Json conversation;
};

// Which HTTP client carries the requests (http_transport.h): Auto takes the native one for plain
// http:// without a proxy, libcurl otherwise.
enum class HttpClient { Auto, Curl, Native };
const char* httpClientName(HttpClient c);
std::optional<HttpClient> httpClientFromName(const std::string& name);

constexpr size_t kMaxCaPemBytes = 1u << 20;

// One request of a trace to replay (trace_file.h): when it arrives, and its lengths in tokens.
struct TraceArrival {
    double atS = 0;
    int64_t inputLen = 0;
    int64_t outputLen = 0;
    std::vector<int64_t> hashIds; // the prompt's shared blocks, where the trace names them
};

struct LoadSpec {
    std::string url; // the API's base, e.g. http://node3:8000/v1
    Endpoint endpoint = Endpoint::ChatCompletions;
    std::string model;
    std::optional<double> temperature;
    bool ignoreEos = false;       // vLLM, SGLang, TensorRT-LLM extension: generate exactly max_tokens
    bool stream = true;           // false: plain request/response (the wrk comparison)
    bool continuousUsage = false; // vLLM's stream_options.continuous_usage_stats: tokens per chunk
    std::vector<std::pair<std::string, std::string>> headers; // custom ones, an API key's among them

    // What the CLI and the window offer when nothing is said: a load, not one request at a time.
    static constexpr int kDefaultConcurrency = 64;
    static constexpr int64_t kDefaultRequests = 500;

    int concurrency = 1;     // most requests in flight; 0 = no limit (with a rate)
    double rate = 0;         // requests per second; 0 = send as fast as the concurrency allows
    double burstiness = 1.0; // gamma shape: 1 = Poisson arrivals, < 1 burstier, > 1 steadier
    int64_t warmup = 0;      // requests sent first and left out of the results
    int64_t requests = 0;    // measured requests to send; 0 = until the duration
    double durationS = 0;    // stop sending after this long; 0 = until the request count
    double timeoutS = 0;     // per request; 0 = none
    double connectTimeoutS = 10;
    HttpClient httpClient = HttpClient::Auto;
    // https: the certificates to trust, in PEM, in place of the system's (read where the run is started and
    // sent with it, as an agent's machine may not have the file); or no check of the server's certificate at
    // all.
    std::string caPem;
    bool insecure = false;
    // The server's Prometheus /metrics, scraped during the run (server_metrics.h); empty: not scraped.
    std::string metricsUrl;
    double scrapeIntervalS = 0.5;

    LengthDist inputLen{LengthDist::Kind::Fixed, 1024, 0};
    LengthDist outputLen{LengthDist::Kind::Fixed, 128, 0};
    uint64_t seed = 0;           // the caller draws a fresh one per run unless told
    std::vector<Prompt> prompts; // from a file; empty: synthetic prompts
    // A trace replayed: each request at its time (divided by traceSpeed) with its lengths, in place of the
    // rate, the request count and the length distributions; the concurrency still caps it (0: no cap).
    std::vector<TraceArrival> trace;
    double traceSpeed = 1;
    // Multi-turn conversations (chat only): each conversation sends up to `turns` requests one after another,
    // each with the conversation so far (its user turns and replies) and a new user turn, so its prompt grows
    // on a shared prefix. The concurrency (or the rate) is of conversations; `requests` counts turns.
    int turns = 1;
    double thinkTimeS = 0; // after a reply, before the next turn
    std::string client;    // this load's source, named in its records (the host)
};

// Every problem with the spec, as sentences; empty when it can run.
std::vector<std::string> validate(const LoadSpec& spec);

Json toJson(const LoadSpec& spec);
// Refuses what is not a valid spec, with the reason; the JSON comes from the other side of a pipe.
std::optional<LoadSpec> loadSpecFromJson(const Json& j, std::string* why);

// The request path under the base: "/chat/completions" or "/completions".
std::string endpointPath(Endpoint e);
const char* endpointName(Endpoint e); // vLLM's backend names: "openai-chat", "openai"

} // namespace rsload
