#pragma once
// Well-formed UTF-8 (Unicode's table 3-7, as RFC 3629 and JSON parsers check it).
#include <cstddef>
#include <string_view>

namespace rsload {

// The length of the valid UTF-8 sequence at s[i], or 0 where there is none.
inline size_t utf8Length(std::string_view s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    const size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0 || i + n > s.size())
        return 0;
    for (size_t k = 1; k < n; ++k)
        if ((byte(i + k) & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && byte(i + 1) < 0xa0) || (c == 0xed && byte(i + 1) > 0x9f) ||
        (c == 0xf0 && byte(i + 1) < 0x90) || (c == 0xf4 && byte(i + 1) > 0x8f))
        return 0; // overlong, a surrogate, or past U+10FFFF
    return n;
}

} // namespace rsload
