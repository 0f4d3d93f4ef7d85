#include "prompts.h"

#include "protocol/json_nesting.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace rsload {
namespace {

// Common words that are single tokens, with their leading space, in the major BPE vocabularies.
constexpr std::array<std::string_view, 96> kWords = {
    "the",    "of",     "and",     "to",    "in",    "is",     "that",  "for",   "it",   "as",    "was",
    "with",   "be",     "by",      "on",    "not",   "he",     "this",  "are",   "or",   "his",   "from",
    "at",     "which",  "but",     "have",  "an",    "had",    "they",  "you",   "were", "their", "one",
    "all",    "we",     "can",     "her",   "has",   "there",  "been",  "if",    "more", "when",  "will",
    "would",  "who",    "so",      "no",    "time",  "people", "year",  "way",   "day",  "man",   "thing",
    "world",  "life",   "hand",    "part",  "child", "eye",    "place", "work",  "week", "case",  "point",
    "number", "group",  "problem", "fact",  "good",  "new",    "first", "last",  "long", "great", "little",
    "own",    "other",  "old",     "right", "big",   "high",   "small", "large", "next", "early", "young",
    "few",    "public", "bad",     "same",  "able",  "city",   "water", "light"};

int64_t clampLength(double v) {
    return std::max<int64_t>(1, std::llround(v));
}

std::optional<Prompt> promptFromObject(const Json& o, std::string* why) {
    Prompt p;
    if (!o.is_object()) {
        *why = "a record is not a JSON object";
        return std::nullopt;
    }
    for (const char* key : {"output_len", "max_tokens"})
        if (auto it = o.find(key); it != o.end() && it->is_number_integer() && it->get<int64_t>() > 0)
            p.outputLen = it->get<int64_t>();
    if (auto m = o.find("messages"); m != o.end()) {
        if (!m->is_array() || m->empty()) {
            *why = "\"messages\" is not a non-empty array";
            return std::nullopt;
        }
        p.messages = *m;
        for (const Json& msg : *m)
            if (msg.is_object() && msg.value("role", Json()).is_string() && msg["role"] == "user" &&
                msg.value("content", Json()).is_string())
                p.text = msg["content"].get<std::string>(); // the last user turn, for /v1/completions
        return p;
    }
    if (auto c = o.find("conversations"); c != o.end() && c->is_array()) {
        // ShareGPT: the first human turn is the prompt; the reply's length is not known in tokens here,
        // so the spec's output length applies unless the record says otherwise
        for (const Json& turn : *c) {
            if (turn.is_object() && turn.value("from", Json()).is_string() &&
                (turn["from"] == "human" || turn["from"] == "user") &&
                turn.value("value", Json()).is_string()) {
                p.text = turn["value"].get<std::string>();
                break;
            }
        }
        if (p.text.empty()) {
            *why = "a ShareGPT record has no human turn";
            return std::nullopt;
        }
        p.conversation = Json::array(); // every turn, for a multi-turn run
        for (const Json& turn : *c) {
            if (!turn.is_object() || !turn.value("from", Json()).is_string() ||
                !turn.value("value", Json()).is_string())
                continue;
            const std::string from = turn["from"].get<std::string>();
            const char* role = from == "human" || from == "user"      ? "user"
                               : from == "gpt" || from == "assistant" ? "assistant"
                                                                      : nullptr;
            if (role)
                p.conversation.push_back(Json{{"role", role}, {"content", turn["value"]}});
        }
        return p;
    }
    for (const char* key : {"prompt", "text", "input"}) {
        if (auto t = o.find(key); t != o.end() && t->is_string() && !t->get<std::string>().empty()) {
            p.text = t->get<std::string>();
            return p;
        }
    }
    *why = "a record has none of \"prompt\", \"text\", \"messages\" or \"conversations\"";
    return std::nullopt;
}

} // namespace

int64_t drawLength(const LengthDist& d, std::mt19937_64& rng) {
    switch (d.kind) {
    case LengthDist::Kind::Fixed:
        return clampLength(d.a);
    case LengthDist::Kind::Uniform:
        return std::uniform_int_distribution<int64_t>(clampLength(d.a), clampLength(d.b))(rng);
    case LengthDist::Kind::Normal:
        return d.b > 0 ? clampLength(std::normal_distribution<double>(d.a, d.b)(rng)) : clampLength(d.a);
    }
    return 1;
}

void appendSyntheticPrompt(std::string* out, int64_t words, std::mt19937_64& rng) {
    out->reserve(out->size() + size_t(std::max<int64_t>(words, 0)) * 6);
    // Two words from each 64-bit draw, each half scaled to the list by a multiply and a shift (some words
    // likelier than others by one part in 44 million, nothing beside what the words are for): a request's
    // prompt is made on the engine's thread, and the plain request rate depends on it.
    uint64_t draw = 0;
    for (int64_t i = 0; i < words; ++i) {
        if (i > 0)
            out->push_back(' ');
        if (i % 2 == 0)
            draw = rng();
        const uint64_t half = i % 2 == 0 ? draw & 0xffffffffu : draw >> 32;
        out->append(kWords[(half * kWords.size()) >> 32]);
    }
}

std::string syntheticPrompt(int64_t words, std::mt19937_64& rng) {
    std::string out;
    appendSyntheticPrompt(&out, words, rng);
    return out;
}

std::vector<Prompt> readPromptFile(const std::string& text, size_t limit, size_t* skipped, std::string* why) {
    std::vector<Prompt> out;
    *skipped = 0;
    auto take = [&](const Json& o) {
        std::string reason;
        if (auto p = promptFromObject(o, &reason)) {
            out.push_back(std::move(*p));
        } else {
            if (*skipped == 0)
                *why = reason;
            ++*skipped;
        }
    };
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '[') { // one JSON array (ShareGPT)
        const bool shallow = rsagent::protocol::jsonNestingWithin(text);
        const Json all = shallow ? Json::parse(text, nullptr, false) : Json(Json::value_t::discarded);
        if (all.is_discarded() || !all.is_array()) {
            *why = shallow ? "the file starts like a JSON array but is not valid JSON"
                           : "the file's JSON is nested too deeply";
            ++*skipped;
            return out;
        }
        for (const Json& o : all) {
            if (out.size() >= limit)
                break;
            take(o);
        }
        return out;
    }
    size_t lineNo = 0, pos = 0;
    while (pos < text.size() && out.size() < limit) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const bool shallow = rsagent::protocol::jsonNestingWithin(line);
        const Json o =
            shallow ? Json::parse(line.begin(), line.end(), nullptr, false) : Json(Json::value_t::discarded);
        if (o.is_discarded()) {
            if (*skipped == 0)
                *why =
                    "line " + std::to_string(lineNo) + (shallow ? " is not JSON" : " is nested too deeply");
            ++*skipped;
            continue;
        }
        take(o);
    }
    return out;
}

} // namespace rsload
