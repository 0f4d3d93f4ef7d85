#include "sse_parser.h"

#include <cstring>
#include <string_view>

namespace rsload {

SseParser::SseParser(std::function<void(const SseEvent&)> onEvent, size_t maxEvent)
    : onEvent_(std::move(onEvent)), maxEvent_(maxEvent) {}

bool SseParser::feed(const char* bytes, size_t size) {
    if (!error_.empty())
        return false;
    size_t i = 0;
    if (atStart_ && size > 0) {
        // The BOM may itself be split across reads: hold its first bytes in line_ until decided.
        static constexpr std::string_view kBom = "\xEF\xBB\xBF";
        while (i < size && line_.size() < kBom.size() && bytes[i] == kBom[line_.size()])
            line_.push_back(bytes[i++]);
        if (line_.size() == kBom.size()) {
            line_.clear();
            atStart_ = false;
        } else if (i < size) {
            atStart_ = false; // not a BOM: what was held is the line's start
        }
    }
    while (i < size) {
        const char c = bytes[i];
        if (lastWasCr_ && c == '\n') { // the second half of a CR LF split across reads
            lastWasCr_ = false;
            ++i;
            continue;
        }
        lastWasCr_ = false;
        // Copy the run up to the next line end in one go.
        const char* start = bytes + i;
        const void* nl = std::memchr(start, '\n', size - i);
        const void* cr = std::memchr(start, '\r', size - i);
        const char* end = bytes + size;
        if (nl)
            end = static_cast<const char*>(nl);
        if (cr && static_cast<const char*>(cr) < end)
            end = static_cast<const char*>(cr);
        const size_t run = size_t(end - start);
        if (line_.size() + run + current_.data.size() > maxEvent_) {
            error_ = "an event is larger than " + std::to_string(maxEvent_) + " bytes";
            return false;
        }
        line_.append(start, run);
        i += run;
        if (i == size)
            break; // the line continues in the next read
        lastWasCr_ = bytes[i] == '\r';
        ++i;
        takeLine();
        if (!error_.empty())
            return false;
    }
    return true;
}

void SseParser::takeLine() {
    if (line_.empty()) { // a blank line dispatches the event
        if (hasData_) {
            ++events_;
            onEvent_(current_);
        }
        current_ = {};
        hasData_ = false;
        return;
    }
    if (line_[0] == ':') {
        ++comments_;
        line_.clear();
        return;
    }
    std::string_view l(line_);
    const size_t colon = l.find(':');
    std::string_view field = l.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : l.substr(colon + 1);
    if (!value.empty() && value[0] == ' ')
        value.remove_prefix(1);
    if (field == "data") {
        if (hasData_)
            current_.data.push_back('\n');
        current_.data.append(value);
        hasData_ = true;
    } else if (field == "event") {
        current_.event.assign(value);
    } // "id" and "retry" mean nothing to a single request's stream; other fields are ignored, as the format
      // says
    line_.clear();
}

} // namespace rsload
