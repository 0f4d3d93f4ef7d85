#include "request_body.h"

#include "json_plain.h"
#include "utf8.h"

#include <charconv>

namespace rsload {
namespace {
// `text` as a JSON string, written as nlohmann's dump writes it (the same escapes, UTF-8 as it is);
// bytes that are not UTF-8 become U+FFFD rather than an exception. Written out rather than dumped:
// a synthetic prompt is quoted for every request, and the plain request rate depends on it.
void appendQuoted(std::string* out, std::string_view text) {
    static const char hex[] = "0123456789abcdef";
    out->push_back('"');
    size_t i = 0;
    while (i < text.size()) {
        const size_t start = i;
        i = plainJsonRunEnd(text, i);
        out->append(text.data() + start, i - start);
        if (i == text.size())
            break;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const size_t n = utf8Length(text, i);
            out->append(n ? text.substr(i, n) : std::string_view("\xEF\xBF\xBD"));
            i += n ? n : 1;
            continue;
        }
        ++i;
        switch (c) {
        case '"':
            out->append("\\\"");
            break;
        case '\\':
            out->append("\\\\");
            break;
        case '\b':
            out->append("\\b");
            break;
        case '\f':
            out->append("\\f");
            break;
        case '\n':
            out->append("\\n");
            break;
        case '\r':
            out->append("\\r");
            break;
        case '\t':
            out->append("\\t");
            break;
        default:
            out->append("\\u00");
            out->push_back(hex[c >> 4]);
            out->push_back(hex[c & 0xf]);
        }
    }
    out->push_back('"');
}

std::string jsonQuoted(std::string_view text) {
    std::string out;
    appendQuoted(&out, text);
    return out;
}
} // namespace

RequestBody::RequestBody(const LoadSpec& spec) : chat_(spec.endpoint == Endpoint::ChatCompletions) {
    head_ = "{\"model\":" + jsonQuoted(spec.model) + (chat_ ? ",\"messages\":" : ",\"prompt\":");
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

void RequestBody::write(const Prompt* prompt, std::string_view syntheticText, int64_t maxTokens,
                        std::string* out) const {
    const std::string_view text = prompt ? std::string_view(prompt->text) : syntheticText;
    std::string& b = *out;
    b.clear();
    b.reserve(head_.size() + text.size() + tail_.size() + 64);
    b += head_;
    if (!chat_) {
        appendQuoted(&b, text);
    } else if (prompt && !prompt->messages.is_null()) {
        b += prompt->messages.dump(-1, ' ', false, Json::error_handler_t::replace);
    } else {
        b += "[{\"role\":\"user\",\"content\":";
        appendQuoted(&b, text);
        b += "}]";
    }
    b += ",\"max_tokens\":";
    char digits[24];
    b.append(digits, size_t(std::to_chars(digits, digits + sizeof digits, maxTokens).ptr - digits));
    b += tail_;
}

std::string RequestBody::make(const Prompt* prompt, std::string_view syntheticText, int64_t maxTokens) const {
    std::string b;
    write(prompt, syntheticText, maxTokens, &b);
    return b;
}

} // namespace rsload
