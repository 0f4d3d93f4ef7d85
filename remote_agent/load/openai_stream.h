#pragma once
// What one server-sent event of an OpenAI-compatible stream says, for both
// /v1/completions and /v1/chat/completions, as vLLM, SGLang, TGI,
// TensorRT-LLM and llama.cpp's server send them: content (and reasoning)
// text, a role-only first chunk, empty chunks, the usage chunk, "[DONE]",
// and errors sent inside an HTTP 200 stream.
#include "load_model/endpoint.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rsload {

struct StreamChunk {
    bool done = false;    // data: [DONE]
    bool invalid = false; // not JSON, or not an object: `problem` says what
    std::string problem;
    bool hasChoices = false;
    std::string text; // generated text in this chunk (content, reasoning content)
    std::optional<std::string> finishReason;
    std::optional<int64_t> promptTokens;     // from "usage"
    std::optional<int64_t> completionTokens; // from "usage": cumulative when sent on every chunk
    std::optional<std::string> error;        // an error object in the stream: "message (type, code)"

    bool operator==(const StreamChunk&) const = default;
};

StreamChunk interpretChunk(std::string_view data, Endpoint endpoint);

// A non-streaming response's body: the same fields as the stream's chunks together.
StreamChunk interpretResponse(std::string_view body, Endpoint endpoint);

// What interpretChunk reads from a JSON chunk, read by building the whole document: the way taken for
// whatever scanChunk declines, and the reference it is tested against.
StreamChunk readChunkDocument(std::string_view data, Endpoint endpoint);

// An HTTP error body as a sentence: {"error":{"message","type","code"}} (OpenAI, current vLLM),
// the older flat {"object":"error","message","type","code"} (vLLM before 0.6, FastChat), or
// {"error":"text"} (TGI); any other body is quoted, cut to a readable length.
std::string describeErrorBody(std::string_view body);

} // namespace rsload
