#pragma once
// Server-sent events (the WHATWG event-stream format), parsed as the bytes
// arrive: an event may be split across any number of reads and one read may
// hold many events. Lines end in LF, CR LF or CR (a CR at the end of one read
// and the LF at the start of the next are one line end). Comment lines (":
// keep-alive") are counted, never dispatched.
#include <cstddef>
#include <functional>
#include <string>

namespace rsload {

struct SseEvent {
    std::string event; // the "event:" field; empty for the default "message"
    std::string data;  // "data:" lines joined by LF
};

class SseParser {
public:
    static constexpr size_t kDefaultMaxEvent = 16u << 20; // a line or an event larger than this is refused

    explicit SseParser(std::function<void(const SseEvent&)> onEvent, size_t maxEvent = kDefaultMaxEvent);

    // Returns false, with error() set, once the stream is unusable; later calls are ignored.
    bool feed(const char* bytes, size_t size);
    // True when the bytes so far end inside an event (no closing blank line yet). At the end of a
    // stream such an event is never dispatched, as the format says; the caller takes it for a cut.
    bool pending() const { return !line_.empty() || hasData_; }

    size_t comments() const { return comments_; }
    size_t events() const { return events_; }
    const std::string& error() const { return error_; }

private:
    void takeLine();

    std::function<void(const SseEvent&)> onEvent_;
    size_t maxEvent_;
    std::string line_;
    SseEvent current_;
    bool hasData_ = false;
    bool lastWasCr_ = false;
    bool atStart_ = true; // a UTF-8 byte-order mark is skipped there
    size_t comments_ = 0;
    size_t events_ = 0;
    std::string error_;
};

} // namespace rsload
