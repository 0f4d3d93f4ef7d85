#include "request_body.h"

namespace rsload {
namespace {
// A JSON string; bytes that are not UTF-8 become U+FFFD rather than an exception.
std::string quoted(const std::string& text) {
    return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}
} // namespace

RequestBody::RequestBody(const LoadSpec& spec) : chat_(spec.endpoint == Endpoint::ChatCompletions) {
    head_ = "{\"model\":" + quoted(spec.model) + (chat_ ? ",\"messages\":" : ",\"prompt\":");
    if (spec.temperature)
        tail_ += ",\"temperature\":" + Json(*spec.temperature).dump();
    if (spec.ignoreEos)
        tail_ += ",\"ignore_eos\":true";
    tail_ += spec.stream ? ",\"stream\":true" : ",\"stream\":false";
    if (spec.stream)
        tail_ += spec.continuousUsage
                     ? ",\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}"
                     : ",\"stream_options\":{\"include_usage\":true}";
    tail_ += "}";
}

std::string RequestBody::make(const Prompt* prompt, const std::string& syntheticText,
                              int64_t maxTokens) const {
    const std::string& text = prompt ? prompt->text : syntheticText;
    std::string b = head_;
    if (!chat_)
        b += quoted(text);
    else if (prompt && !prompt->messages.is_null())
        b += prompt->messages.dump(-1, ' ', false, Json::error_handler_t::replace);
    else
        b += "[{\"role\":\"user\",\"content\":" + quoted(text) + "}]";
    b += ",\"max_tokens\":" + std::to_string(maxTokens);
    b += tail_;
    return b;
}

} // namespace rsload
