#include "line_reader.h"

namespace rsagent {

std::vector<LineReader::Item> LineReader::feed(const char* data, size_t size) {
    std::vector<Item> out;
    for (size_t i = 0; i < size; ++i) {
        const char c = data[i];
        if (c == '\n') {
            if (!discarding_) {
                if (!buffer_.empty() && buffer_.back() == '\r')
                    buffer_.pop_back();
                out.push_back({std::move(buffer_), false});
            }
            buffer_.clear();
            discarding_ = false;
            continue;
        }
        if (discarding_)
            continue;
        if (buffer_.size() >= max_) {
            buffer_.clear();
            discarding_ = true;
            out.push_back({{}, true});
            continue;
        }
        buffer_.push_back(c);
    }
    return out;
}

} // namespace rsagent
