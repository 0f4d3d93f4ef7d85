#pragma once
// Bytes that stand for themselves inside a JSON string and need no further look: printable ASCII other
// than the quote and the backslash. Nearly all of a request's prompt and of a response is such runs; the
// scanner passes over them to read a response, and the request body's writer to quote a prompt.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace rsload {

inline constexpr std::array<bool, 256> kPlainJsonBytes = [] {
    std::array<bool, 256> plain{};
    for (int c = 0x20; c < 0x80; ++c)
        plain[size_t(c)] = c != '"' && c != '\\';
    return plain;
}();

// Where the run of plain bytes from s[i] ends: eight bytes at a time while eight are left, then byte by
// byte.
inline size_t plainJsonRunEnd(std::string_view s, size_t i) {
    if constexpr (std::endian::native == std::endian::little) {
        constexpr uint64_t ones = ~uint64_t(0) / 255, highs = ones * 0x80;
        const auto zeroByte = [](uint64_t v) { return (v - ones) & ~v & highs; };
        for (; i + 8 <= s.size(); i += 8) {
            uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            // the high bit of each byte that is a quote, a backslash, a control character or not ASCII; bits
            // above the first may be wrong (a borrow), the first never is
            const uint64_t stops = zeroByte(w ^ (ones * '"')) | zeroByte(w ^ (ones * '\\')) |
                                   ((w - ones * 0x20) & ~w & highs) | (w & highs);
            if (stops)
                return i + size_t(std::countr_zero(stops) / 8);
        }
    }
    while (i < s.size() && kPlainJsonBytes[static_cast<unsigned char>(s[i])])
        ++i;
    return i;
}

} // namespace rsload
