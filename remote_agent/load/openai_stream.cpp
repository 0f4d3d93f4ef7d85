#include "openai_stream.h"

#include "chunk_scanner.h"
#include "protocol/json_nesting.h"
#include "utf8.h"

#include <nlohmann/json.hpp>

namespace rsload {
namespace {

using Json = nlohmann::json;

// A server's bytes for a message: at most `max` of them, and valid UTF-8 (U+FFFD for what is not),
// so a record that quotes them can always be written as JSON.
std::string quoted(std::string_view s, size_t max = 200) {
    std::string out;
    size_t i = 0;
    while (i < s.size() && i < max) {
        const size_t n = utf8Length(s, i);
        if (n == 0)
            out += "\xEF\xBF\xBD";
        else
            out.append(s.substr(i, n));
        i += n == 0 ? 1 : n;
    }
    if (i < s.size())
        out += "...";
    return out;
}

std::string stringOf(const Json& v) {
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_null())
        return {};
    return v.dump();
}

// An error object, in either shape, as "message (type, code)"; nullopt when `o` is not one.
std::optional<std::string> errorOf(const Json& o) {
    const Json* e = nullptr;
    if (auto it = o.find("error"); it != o.end())
        e = &*it;
    else if (auto k = o.find("object"); k != o.end() && k->is_string() && *k == "error")
        e = &o;
    if (!e)
        return std::nullopt;
    if (e->is_string())
        return e->get<std::string>();
    if (!e->is_object())
        return stringOf(*e);
    std::string message = e->contains("message") ? stringOf((*e)["message"]) : e->dump();
    std::string detail;
    for (const char* key : {"type", "code"}) {
        if (auto it = e->find(key); it != e->end() && !it->is_null()) {
            if (!detail.empty())
                detail += ", ";
            detail += stringOf(*it);
        }
    }
    return detail.empty() ? message : message + " (" + detail + ")";
}

std::optional<int64_t> countOf(const Json& usage, const char* key) {
    if (auto it = usage.find(key); it != usage.end() && it->is_number_integer() && it->get<int64_t>() >= 0)
        return it->get<int64_t>();
    return std::nullopt;
}

void readChoice(const Json& choice, Endpoint endpoint, StreamChunk* c) {
    if (!choice.is_object())
        return;
    if (endpoint == Endpoint::ChatCompletions) {
        // delta (stream) or message (whole response); reasoning models stream their thinking
        // separately, and those are generated tokens too
        const char* holder = choice.contains("delta") ? "delta" : "message";
        if (auto d = choice.find(holder); d != choice.end() && d->is_object()) {
            for (const char* key : {"reasoning_content", "reasoning", "content"})
                if (auto t = d->find(key); t != d->end() && t->is_string())
                    c->text += t->get<std::string>();
        }
    } else if (auto t = choice.find("text"); t != choice.end() && t->is_string()) {
        c->text = t->get<std::string>();
    }
    if (auto f = choice.find("finish_reason"); f != choice.end() && f->is_string())
        c->finishReason = f->get<std::string>();
}

} // namespace

StreamChunk readChunkDocument(std::string_view data, Endpoint endpoint) {
    StreamChunk c;
    if (!rsagent::protocol::jsonNestingWithin(data)) {
        c.invalid = true;
        c.problem = "JSON nested deeper than " + std::to_string(rsagent::protocol::kMaxJsonDepth) +
                    " levels: " + quoted(data, 120);
        return c;
    }
    Json o = Json::parse(data.begin(), data.end(), nullptr, false);
    if (o.is_discarded() || !o.is_object()) {
        c.invalid = true;
        c.problem = (o.is_discarded() ? "not JSON: " : "not a JSON object: ") + quoted(data, 120);
        return c;
    }
    c.error = errorOf(o);
    if (auto ch = o.find("choices"); ch != o.end() && ch->is_array() && !ch->empty()) {
        c.hasChoices = true;
        readChoice(ch->front(), endpoint, &c);
    }
    if (auto u = o.find("usage"); u != o.end() && u->is_object()) {
        c.promptTokens = countOf(*u, "prompt_tokens");
        c.completionTokens = countOf(*u, "completion_tokens");
    }
    return c;
}

namespace {

// The scan reads what servers send at a fraction of the document's cost; it declines the rest.
StreamChunk interpretObject(std::string_view data, Endpoint endpoint) {
    if (auto quick = scanChunk(data, endpoint))
        return std::move(*quick);
    return readChunkDocument(data, endpoint);
}

} // namespace

StreamChunk interpretChunk(std::string_view data, Endpoint endpoint) {
    if (data == "[DONE]") {
        StreamChunk c;
        c.done = true;
        return c;
    }
    return interpretObject(data, endpoint);
}

StreamChunk interpretResponse(std::string_view body, Endpoint endpoint) {
    return interpretObject(body, endpoint);
}

std::string describeErrorBody(std::string_view body) {
    const Json o = rsagent::protocol::jsonNestingWithin(body)
                       ? Json::parse(body.begin(), body.end(), nullptr, false)
                       : Json(Json::value_t::discarded);
    if (!o.is_discarded() && o.is_object())
        if (auto e = errorOf(o))
            return *e;
    if (body.empty())
        return "(empty body)";
    return quoted(body);
}

} // namespace rsload
