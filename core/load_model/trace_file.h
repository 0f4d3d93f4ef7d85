#pragma once
// Timestamped request traces to replay: when each request arrived and how
// long its input and output were, read by content from the layouts people
// publish them in:
//  - CSV with a header: Azure's LLM inference traces (TIMESTAMP as a date and
//    time, ContextTokens, GeneratedTokens), BurstGPT (Timestamp in seconds,
//    Request tokens, Response tokens), and any CSV whose columns are named for
//    a time (timestamp, arrival_time, time; _ms or _s says the unit) and the
//    input and output lengths (input_length, input_tokens, prompt_tokens,
//    context_tokens; output_length, output_tokens, completion_tokens,
//    generated_tokens, max_tokens);
//  - JSON Lines: Mooncake's ({"timestamp": ms since the first, "input_length",
//    "output_length", "hash_ids"}), or the same names as the CSV's.
// Times become seconds from the first request. Mooncake's hash_ids name the
// 512-token blocks a prompt shares with others; the replay builds its prompts
// from them, so requests that shared a prefix share it again.
#include "load_spec.h"

#include <random>
#include <string>
#include <vector>

namespace rsload {

constexpr size_t kMaxTraceRequests = 10'000'000;
constexpr int64_t kTraceBlockTokens = 512; // Mooncake's block size

struct TraceRead {
    std::vector<TraceArrival> arrivals; // in order of arrival
    std::string layout;                 // "Azure LLM inference", "Mooncake", "BurstGPT", "CSV", "JSON Lines"
    size_t skipped = 0;                 // lines that could not be read
    std::string firstProblem;           // the first of them, with its line number
    std::string error;                  // nothing could be read: why
};
TraceRead readTraceFile(const std::string& text);

// A trace request's prompt: `inputLen` words, made of its hash blocks' words where it has them (the same
// block id gives the same words in every request), then words of its own from `rng`.
std::string tracePrompt(const TraceArrival& a, std::mt19937_64& rng);

} // namespace rsload
