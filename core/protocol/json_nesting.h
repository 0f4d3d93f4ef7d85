#pragma once
// JSON nested deeper than anything rackscope reads is refused before a parser
// sees it: a parser (or the copies and dumps after it) that recurses once per
// level would otherwise run out of stack on a line of a few hundred KB.
#include <string_view>

namespace rsagent::protocol {

constexpr int kMaxJsonDepth = 64; // the deepest message, record or LLDP answer is under 10

// True when no array or object in `text` opens more than maxDepth levels deep.
// Linear, and tolerant: brackets inside strings do not count, and the text
// need not be valid JSON (the parser says what else is wrong).
inline bool jsonNestingWithin(std::string_view text, int maxDepth = kMaxJsonDepth) {
    int depth = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return false;
        } else if (c == ']' || c == '}') {
            if (depth > 0)
                --depth;
        }
    }
    return true;
}

} // namespace rsagent::protocol
