#pragma once
// One request of a load run, as measured on the client: a line of the
// results' JSONL file and an event of the agent's "load" method. Times are
// seconds from the start of the measured phase (ms for latencies), taken on
// the machine that sent the request. A value the run could not know is
// absent (null), never zero.
#include "load_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace rsload {

// What went wrong, by kind; Ok for a request that streamed to its end.
enum class Failure { Ok, Connect, Timeout, Http, StreamError, Dropped, Protocol, NoOutput, Cancelled };
const char* failureName(Failure f);
std::optional<Failure> failureFromName(const std::string& name);

// The most chunk gaps one request keeps: what a server streams is data, never an allocation size.
// Past it the gaps are counted and their worst kept (itlDropped, itlDroppedMaxMs).
constexpr size_t kMaxTimedGaps = 65536;

struct RequestRecord {
    int64_t index = 0;  // order of sending, warm-up requests first
    std::string client; // which load generator sent it
    bool warmup = false;
    double scheduledS = 0;    // when the arrival process wanted it sent
    double sentS = 0;         // when it was handed to the connection
    double queueMs = 0;       // sent - scheduled: waiting for a concurrency slot, and any client delay
    double clientDelayMs = 0; // how late the client itself was past the moment it could have sent
    Failure failure = Failure::Ok;
    std::string error; // the failure's detail, as the server or the HTTP client said it
    std::optional<int> httpStatus;
    std::optional<double> ttftMs; // first chunk with generated text
    std::optional<double> e2elMs; // to the stream's end ([DONE], or the last byte)
    std::vector<double> itlMs;    // gaps between chunks with text, after the first (at most kMaxTimedGaps)
    int64_t itlDropped = 0;       // gaps past kMaxTimedGaps, not kept
    double itlDroppedMaxMs = 0;   // the longest of those
    std::vector<int> chunkTokens; // tokens in each kept text chunk, where the server said (continuous usage)
    int64_t chunks = 0;           // chunks with text
    std::optional<int64_t> inputTokens;
    std::string inputTokensSource; // "usage" (the server's count) or "requested" (the synthetic length)
    std::optional<int64_t> outputTokens;
    std::string outputTokensSource; // "usage", or "chunks" (one token a chunk, when the server gave no usage)
    int64_t maxTokens = 0;
    std::optional<double> connectMs; // a new connection's TCP (and TLS) set-up; absent when one was reused
    std::optional<std::string> finishReason;
    std::optional<int64_t>
        session; // a multi-turn conversation's number, and this request's turn in it (from 1)
    int turn = 0;

    bool ok() const { return failure == Failure::Ok; }
    // (E2E - TTFT) / (output tokens - 1), vLLM's TPOT; absent below two tokens
    std::optional<double> tpotMs() const;
};

Json toJson(const RequestRecord& r);
std::optional<RequestRecord> recordFromJson(const Json& j, std::string* why);

} // namespace rsload
