#include "chunk_scanner.h"

#include "json_plain.h"
#include "protocol/json_nesting.h"
#include "utf8.h"

#include <charconv>
#include <cstdint>

namespace rsload {
namespace {

// Each step answers false where the text is not what it reads (or not what the scan takes), and the
// scan then declines. `depth` is the level an array or object at that place would open, counted as
// jsonNestingWithin counts it.
class Scanner {
public:
    Scanner(std::string_view text, Endpoint endpoint) : s_(text), endpoint_(endpoint) {}

    std::optional<StreamChunk> run() {
        if (!s_.empty() && static_cast<unsigned char>(s_[0]) == 0xef)
            return std::nullopt; // a byte-order mark, which the document reader skips
        skipSpace();
        if (!object(1, [&](std::string_view key, int depth) { return topLevelMember(key, depth); }))
            return std::nullopt;
        skipSpace();
        if (p_ != s_.size())
            return std::nullopt;
        return std::move(c_);
    }

private:
    std::string_view s_;
    Endpoint endpoint_;
    size_t p_ = 0;
    StreamChunk c_;

    // A choice's texts, by the object that held them.
    struct Texts {
        std::optional<std::string> reasoningContent, reasoning, content;
    };

    bool at(char c) const { return p_ < s_.size() && s_[p_] == c; }
    bool eat(char c) {
        if (!at(c))
            return false;
        ++p_;
        return true;
    }
    void skipSpace() { // inline where there is none, as in what servers send
        if (p_ < s_.size() && static_cast<unsigned char>(s_[p_]) <= ' ')
            skipSomeSpace();
    }
    void skipSomeSpace() {
        while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t'))
            ++p_;
    }
    // An object whose members `member(key, depth)` reads, each positioned at its value. Keys with an
    // escape are declined: they could spell a key that is read.
    template <typename Member> bool object(int depth, Member&& member) {
        if (depth > rsagent::protocol::kMaxJsonDepth || !eat('{'))
            return false;
        skipSpace();
        if (eat('}'))
            return true;
        for (;;) {
            if (!eat('"'))
                return false;
            const size_t start = p_;
            bool ascii = true;
            for (p_ = plainJsonRunEnd(s_, p_); p_ < s_.size(); ++p_) {
                if (static_cast<unsigned char>(s_[p_]) >= 0x80)
                    ascii = false;
                else if (!kPlainJsonBytes[static_cast<unsigned char>(s_[p_])])
                    break;
            }
            if (!at('"'))
                return false;
            const std::string_view key = s_.substr(start, p_ - start);
            ++p_;
            if (!ascii && !validUtf8(key))
                return false;
            skipSpace();
            if (!eat(':'))
                return false;
            skipSpace();
            if (!member(key, depth + 1))
                return false;
            skipSpace();
            if (eat('}'))
                return true;
            if (!eat(','))
                return false;
            skipSpace();
        }
    }

    // An array whose elements `element(index, depth)` reads.
    template <typename Element> bool array(int depth, Element&& element) {
        if (depth > rsagent::protocol::kMaxJsonDepth || !eat('['))
            return false;
        skipSpace();
        if (eat(']'))
            return true;
        for (size_t i = 0;; ++i) {
            if (!element(i, depth + 1))
                return false;
            skipSpace();
            if (eat(']'))
                return true;
            if (!eat(','))
                return false;
            skipSpace();
        }
    }

    static bool validUtf8(std::string_view s) {
        for (size_t i = 0; i < s.size();) {
            const size_t n = utf8Length(s, i);
            if (n == 0)
                return false;
            i += n;
        }
        return true;
    }

    // A member's key seen once only, among those read: the document reader keeps the last.
    static bool once(bool* seen) {
        if (*seen)
            return false;
        *seen = true;
        return true;
    }

    bool topLevelMember(std::string_view key, int depth) {
        if (key == "choices")
            return once(&seenChoices_) && choices(depth);
        if (key == "usage")
            return once(&seenUsage_) && usage(depth);
        if (key == "error")
            return false; // an error object: the document reader describes it
        if (key == "object") {
            if (!once(&seenObject_))
                return false;
            if (!at('"'))
                return value(depth);
            std::string kind;
            return string(&kind) && kind != "error";
        }
        return value(depth);
    }

    bool choices(int depth) {
        if (!at('['))
            return value(depth);
        return array(depth, [&](size_t i, int inner) {
            if (i > 0)
                return value(inner);
            c_.hasChoices = true;
            return at('{') ? choice(inner) : value(inner);
        });
    }

    bool choice(int depth) {
        bool seenDelta = false, seenMessage = false, seenText = false, seenFinish = false;
        Texts delta, message;
        const bool chat = endpoint_ == Endpoint::ChatCompletions;
        const bool read = object(depth, [&](std::string_view key, int inner) {
            if (key == "finish_reason")
                return once(&seenFinish) && optionalString(&c_.finishReason, inner);
            if (chat && key == "delta")
                return once(&seenDelta) && texts(&delta, inner);
            if (chat && key == "message")
                return once(&seenMessage) && texts(&message, inner);
            if (!chat && key == "text") {
                if (!once(&seenText))
                    return false;
                std::optional<std::string> text;
                if (!optionalString(&text, inner))
                    return false;
                c_.text = text.value_or(std::string());
                return true;
            }
            return value(inner);
        });
        if (!read)
            return false;
        if (chat) {
            // a stream's delta, else a whole response's message; reasoning first, as the document reader
            const Texts& from = seenDelta ? delta : message;
            for (const auto* t : {&from.reasoningContent, &from.reasoning, &from.content})
                if (*t)
                    c_.text += **t;
        }
        return true;
    }

    bool texts(Texts* t, int depth) {
        if (!at('{'))
            return value(depth);
        bool seenReasoningContent = false, seenReasoning = false, seenContent = false;
        return object(depth, [&](std::string_view key, int inner) {
            if (key == "reasoning_content")
                return once(&seenReasoningContent) && optionalString(&t->reasoningContent, inner);
            if (key == "reasoning")
                return once(&seenReasoning) && optionalString(&t->reasoning, inner);
            if (key == "content")
                return once(&seenContent) && optionalString(&t->content, inner);
            return value(inner);
        });
    }

    bool usage(int depth) {
        if (!at('{'))
            return value(depth);
        bool seenPrompt = false, seenCompletion = false;
        return object(depth, [&](std::string_view key, int inner) {
            if (key == "prompt_tokens")
                return once(&seenPrompt) && count(&c_.promptTokens, inner);
            if (key == "completion_tokens")
                return once(&seenCompletion) && count(&c_.completionTokens, inner);
            return value(inner);
        });
    }

    // A string, read into `out`; any other value leaves it empty.
    bool optionalString(std::optional<std::string>* out, int depth) {
        if (!at('"')) {
            out->reset();
            return value(depth);
        }
        out->emplace();
        return string(&**out);
    }

    // A token count: a plain integer of up to 18 digits. A negative or fractional number is declined (the
    // document reader's own rules for those are its to apply); any other value is no count.
    bool count(std::optional<int64_t>* out, int depth) {
        out->reset();
        if (p_ >= s_.size() || s_[p_] < '0' || s_[p_] > '9')
            return at('-') ? false : value(depth);
        const size_t start = p_;
        if (!number())
            return false;
        const std::string_view digits = s_.substr(start, p_ - start);
        if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string_view::npos)
            return false;
        int64_t v = 0;
        for (const char d : digits)
            v = v * 10 + (d - '0');
        *out = v;
        return true;
    }

    // Any value, checked and passed over.
    bool value(int depth) {
        if (p_ >= s_.size())
            return false;
        switch (s_[p_]) {
        case '{':
            return object(depth, [&](std::string_view, int inner) { return value(inner); });
        case '[':
            return array(depth, [&](size_t, int inner) { return value(inner); });
        case '"':
            return string(nullptr);
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number();
        }
    }

    bool literal(std::string_view word) {
        if (s_.substr(p_, word.size()) != word)
            return false;
        p_ += word.size();
        return true;
    }

    bool digits() {
        const size_t start = p_;
        while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9')
            ++p_;
        return p_ > start;
    }

    // RFC 8259's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and one a double holds: the
    // document reader refuses a number that overflows (1e999), so the scan declines it, and, to be
    // safe, one that underflows.
    bool number() {
        const size_t start = p_;
        bool exponent = false;
        if (!numberSyntax(&exponent))
            return false;
        if (p_ - start < 300 && !exponent)
            return true; // under 1e300 whatever its digits
        double v = 0;
        return std::from_chars(s_.data() + start, s_.data() + p_, v).ec == std::errc();
    }

    bool numberSyntax(bool* exponent) {
        eat('-');
        if (eat('0')) {
        } else if (p_ < s_.size() && s_[p_] >= '1' && s_[p_] <= '9') {
            digits();
        } else {
            return false;
        }
        if (eat('.') && !digits())
            return false;
        if (eat('e') || eat('E')) {
            *exponent = true;
            if (!eat('+'))
                eat('-');
            if (!digits())
                return false;
        }
        return true;
    }

    static int hexValue(char h) {
        if (h >= '0' && h <= '9')
            return h - '0';
        if (h >= 'a' && h <= 'f')
            return h - 'a' + 10;
        if (h >= 'A' && h <= 'F')
            return h - 'A' + 10;
        return -1;
    }

    // \uXXXX's four digits, from p_; -1 when they are not four hex digits.
    long hex4() {
        if (p_ + 4 > s_.size())
            return -1;
        long v = 0;
        for (int i = 0; i < 4; ++i) {
            const int h = hexValue(s_[p_ + size_t(i)]);
            if (h < 0)
                return -1;
            v = v * 16 + h;
        }
        p_ += 4;
        return v;
    }

    static void appendUtf8(std::string* out, unsigned long cp) {
        const auto put = [&](unsigned long b) { out->push_back(static_cast<char>(b)); };
        if (cp < 0x80) {
            put(cp);
        } else if (cp < 0x800) {
            put(0xc0 | (cp >> 6));
            put(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            put(0xe0 | (cp >> 12));
            put(0x80 | ((cp >> 6) & 0x3f));
            put(0x80 | (cp & 0x3f));
        } else {
            put(0xf0 | (cp >> 18));
            put(0x80 | ((cp >> 12) & 0x3f));
            put(0x80 | ((cp >> 6) & 0x3f));
            put(0x80 | (cp & 0x3f));
        }
    }

    // One escape after its backslash, appended to `out` where there is one.
    bool escape(std::string* out) {
        if (p_ >= s_.size())
            return false;
        const char e = s_[p_++];
        char plain = 0;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            plain = e;
            break;
        case 'b':
            plain = '\b';
            break;
        case 'f':
            plain = '\f';
            break;
        case 'n':
            plain = '\n';
            break;
        case 'r':
            plain = '\r';
            break;
        case 't':
            plain = '\t';
            break;
        case 'u': {
            long cp = hex4();
            if (cp < 0 || (cp >= 0xdc00 && cp <= 0xdfff))
                return false; // not hex, or half a surrogate pair without its first half
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (!eat('\\') || !eat('u'))
                    return false;
                const long low = hex4();
                if (low < 0xdc00 || low > 0xdfff)
                    return false;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            }
            if (out)
                appendUtf8(out, static_cast<unsigned long>(cp));
            return true;
        }
        default:
            return false;
        }
        if (out)
            out->push_back(plain);
        return true;
    }

    // A string from its opening quote, its text decoded into `out` where there is one.
    bool string(std::string* out) {
        if (!eat('"'))
            return false;
        for (;;) {
            const size_t start = p_;
            p_ = plainJsonRunEnd(s_, p_);
            if (out)
                out->append(s_.data() + start, p_ - start);
            if (p_ >= s_.size())
                return false;
            const auto c = static_cast<unsigned char>(s_[p_]);
            if (c == '"') {
                ++p_;
                return true;
            }
            if (c == '\\') {
                ++p_;
                if (!escape(out))
                    return false;
            } else if (c < 0x20) {
                return false; // a control character, which JSON escapes
            } else {
                const size_t n = utf8Length(s_, p_);
                if (n == 0)
                    return false;
                if (out)
                    out->append(s_.data() + p_, n);
                p_ += n;
            }
        }
    }

    bool seenChoices_ = false, seenUsage_ = false, seenObject_ = false;
};

} // namespace

std::optional<StreamChunk> scanChunk(std::string_view text, Endpoint endpoint) {
    return Scanner(text, endpoint).run();
}

} // namespace rsload
