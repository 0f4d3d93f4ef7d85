#pragma once
// Splits a byte stream into lines with a size cap: an over-long line is
// dropped whole and reported once, and reading resumes at the next newline.
#include <cstddef>
#include <string>
#include <vector>

namespace rsagent {

class LineReader {
public:
    explicit LineReader(size_t maxLine) : max_(maxLine) {}

    struct Item {
        std::string line;
        bool tooLong = false; // the line was dropped; `line` is empty
    };
    std::vector<Item> feed(const char* data, size_t size);
    bool pending() const { return !buffer_.empty(); } // a partial line is waiting

private:
    size_t max_;
    std::string buffer_;
    bool discarding_ = false;
};

} // namespace rsagent
