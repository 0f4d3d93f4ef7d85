// rackscope-test-openai-server: an OpenAI-compatible streaming server of the
// project's own, for tests and benchmarks. It answers /v1/completions and
// /v1/chat/completions the way vLLM does (chunked transfer, server-sent
// events, a role-only first chat chunk, a usage chunk, data: [DONE]) on a
// script: when the first token comes, the time per token, tokens per chunk,
// and faults. The script comes from the command line and, per request, from
// an X-Test-Script header ("ttft=50;tpot=10;chunk=2;fault=drop@3").
// One thread, one epoll loop, timers to the nanosecond (epoll_pwait2). A
// request's script runs from its arrival as the kernel stamped it, not from
// when the loop got round to reading it, so a burst of requests does not
// shift the later ones' schedule. GET /test/lateness says how late the server itself wrote
// (p50, p99, max since the last call), to tell its delays from the client's;
// GET /test/requests how many completions it was asked for. A request whose prompt (a chat's last message)
// starts "#N " is tagged N, and GET /test/first-token-lateness gives how late the server wrote each tagged
// request's first token, so that a benchmark can take the server's part out of each TTFT error.
// With --metrics FILE (a real /metrics scrape of vLLM, SGLang, TGI, Triton or trtllm-serve), GET /metrics
// serves that exposition as written, with the load gauges and counters it knows replaced by live
// values: running is the completions being streamed up to --kv-slots, waiting the rest, KV-cache use
// running / slots, a preemption counted for each request that arrived with every slot taken, prefix
// queries the prompt words and half of them hits. GET /test/metrics-truth gives the same values as JSON.
//
// ttft-per-stream=MS is a capacity model: each other completion being streamed when a request is read adds MS
// to its TTFT, so the latency grows with the load as a server's does.
//
// --fixed-answer answers each completion request with one prepared response, its body not read: the
// plain-rate bench's server, cheaper a request than the clients it measures.
//
// Faults: split (each event in pieces, 2 ms apart), batch (all of a
// request's events in one write), comments (": keep-alive" between events),
// empty (an empty-content chunk before each token), error@N (an error event
// after N tokens, in an HTTP 200 stream), drop@N (the connection closed
// after N tokens), http-500, http-429-flat (an error body in the older flat
// shape), garbage@N (a non-JSON event after N tokens), no-done (the stream
// ends without data: [DONE]), idle-close=MS (the connection closed MS
// after a response when no next request came, as a server's keep-alive
// timeout does).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

struct Script {
    double ttftMs = 20, tpotMs = 10, splitGapMs = 2;
    double ttftPerStreamMs = 0; // a capacity model: each other stream in flight adds this to the TTFT
    int tokensPerChunk = 1;
    bool split = false, batch = false, comments = false, empty = false, noDone = false;
    // error, drop, garbage, http-500, http-429-flat; and what a hostile server sends: deep (an event
    // nested 200,000 levels), huge-usage (usage that grows by 2e9 tokens a chunk), endless (tokens
    // that never end), endless-headers, redirect (to itself), bad-utf8 (text that is not UTF-8),
    // http-500-deep (an error body nested 200,000 levels)
    std::string fault;
    int faultAfter = 0;
    bool continuousUsage = false;
    double idleCloseMs = -1; // off
};

bool applyScript(Script& s, const std::string& text) {
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(';', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string item = text.substr(pos, end - pos);
        pos = end + 1;
        if (item.empty())
            continue;
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq),
                          value = eq == std::string::npos ? "1" : item.substr(eq + 1);
        try {
            if (key == "ttft")
                s.ttftMs = std::stod(value);
            else if (key == "ttft-per-stream")
                s.ttftPerStreamMs = std::stod(value);
            else if (key == "tpot")
                s.tpotMs = std::stod(value);
            else if (key == "chunk")
                s.tokensPerChunk = std::max(1, std::stoi(value));
            else if (key == "split")
                s.split = value != "0";
            else if (key == "batch")
                s.batch = value != "0";
            else if (key == "comments")
                s.comments = value != "0";
            else if (key == "empty")
                s.empty = value != "0";
            else if (key == "no-done")
                s.noDone = value != "0";
            else if (key == "idle-close")
                s.idleCloseMs = std::stod(value);
            else if (key == "fault") {
                const size_t at = value.find('@');
                s.fault = value.substr(0, at);
                s.faultAfter = at == std::string::npos ? 0 : std::stoi(value.substr(at + 1));
            } else
                return false;
        } catch (const std::exception&) {
            return false;
        }
    }
    return true;
}

// A header name against a lower-case one, as HTTP compares them.
bool sameLetters(std::string_view name, std::string_view lower) {
    return name.size() == lower.size() &&
           std::equal(name.begin(), name.end(), lower.begin(),
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

int64_t countWords(const std::string& s) {
    int64_t n = 0;
    bool in = false;
    for (char c : s) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (!space && !in)
            ++n;
        in = !space;
    }
    return n;
}

struct Connection;

struct Write {
    Clock::time_point at;
    uint64_t seq;
    int fd;
    uint64_t generation;
    std::string bytes; // an HTTP chunk's payload (framed when sent), or raw bytes
    bool raw = false;
    bool close = false; // close the connection after this one
    bool endOfResponse = false;
    bool onlyIfIdle = false; // a keep-alive timeout: no next request came
    bool chained = false;    // one of a response's writes: when it goes, the connection's next is queued
    double repeatMs =
        -1; // written again this long after, until the connection is gone (a stream without end)
    int64_t firstTokenOf = -1; // this write carries the first token of the request tagged so (-1: none)
    bool operator>(const Write& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

struct Connection {
    int fd = -1;
    uint64_t generation = 0; // a reused fd number is another connection
    std::string in, out;
    Clock::time_point received; // when the bytes in `in` were last read
    uint32_t events = 0;        // what epoll watches for on it
    bool busy = false;          // a response is being streamed
    bool generating = false;    // ... and it is a completion's
    bool closeAfterFlush = false;
    // A response's writes after the one in the server's queue, in order: the queue holds one write a
    // connection, not every token of every stream (1000 streams of 64 tokens made it 64,000 deep).
    std::deque<Write> later;
    bool queued = false;        // one of its writes is in the server's queue
    Clock::time_point chainEnd; // when the last of those writes is due
};

class Server {
public:
    Server(Script defaults, double acceptDelayMs, std::string metrics, int kvSlots)
        : defaults_(defaults), acceptDelayMs_(acceptDelayMs), metrics_(std::move(metrics)),
          kvSlots_(std::max(1, kvSlots)) {}

    int listenOn(const char* address, int port) {
        listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        const int one = 1;
        ::setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        // Each connection accepted has its arrivals stamped by the kernel (arrivalOf), from start-up: the
        // kernel turns stamping on a moment after it is first asked. A fixed answer runs no script, and
        // has no use for them (stamping, once on, costs each packet the machine receives).
        if (fixedAnswer_.empty())
            ::setsockopt(listen_, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(port));
        ::inet_pton(AF_INET, address, &a.sin_addr);
        if (::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_, 4096) != 0)
            return -1;
        socklen_t len = sizeof a;
        ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
        epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
        watch(listen_, EPOLLIN);
        return ntohs(a.sin_port);
    }

    void run() {
        std::vector<epoll_event> events(1024);
        for (;;) {
            Clock::time_point wakeAt = Clock::now() + std::chrono::seconds(1);
            if (!writes_.empty())
                wakeAt = std::min(wakeAt, writes_.top().at);
            if (acceptAt_)
                wakeAt = std::min(wakeAt, *acceptAt_);
            const auto ns = std::max<int64_t>(
                0, std::chrono::duration_cast<std::chrono::nanoseconds>(wakeAt - Clock::now()).count());
            timespec ts{time_t(ns / 1000000000), long(ns % 1000000000)};
            const int n = ::epoll_pwait2(epoll_, events.data(), int(events.size()), &ts, nullptr);
            std::vector<int>
                readable; // read everything first and parse after, so each read's time is its own
            for (int i = 0; i < n; ++i) {
                const int fd = events[size_t(i)].data.fd;
                if (fd == listen_) {
                    if (acceptDelayMs_ > 0) { // slow accept: the connection waits in the backlog
                        ::epoll_ctl(epoll_, EPOLL_CTL_DEL, listen_, nullptr);
                        acceptAt_ = Clock::now() + std::chrono::microseconds(int64_t(acceptDelayMs_ * 1000));
                    } else
                        acceptAll();
                    continue;
                }
                if (events[size_t(i)].events & EPOLLOUT)
                    flush(fd);
                if (events[size_t(i)].events & (EPOLLIN | EPOLLHUP | EPOLLERR) && receive(fd))
                    readable.push_back(fd);
            }
            for (int fd : readable)
                takeRequests(fd);
            if (acceptAt_ && Clock::now() >= *acceptAt_) {
                acceptAt_.reset();
                acceptAll();
                watch(listen_, EPOLLIN);
            }
            const Clock::time_point now = Clock::now();
            while (!writes_.empty() && writes_.top().at <= now) {
                // moved out, not copied: the queue orders by time and sequence, which the move leaves
                Write w = std::move(const_cast<Write&>(writes_.top()));
                writes_.pop();
                deliver(w);
            }
        }
    }

    // --fixed-answer: each completion request answered at once with one prepared response, its body not
    // read (one token; usage as for the plain-rate bench's prompt of 8 words), written as soon as the
    // request is read, with no script, schedule or lateness. A web server's fixed page: what the
    // plain-rate bench measures clients against, so that the server costs less a request than they do and
    // the rate is theirs. Called before listenOn.
    void answerEveryCompletionTheSame() {
        fixedAnswer_ = httpResponse(200, "OK", plainCompletion(false, " tok", "cmpl-fixed", "fixed", 1, 8));
    }

private:
    void watch(int fd, uint32_t events) {
        epoll_event ev{};
        ev.events = events;
        ev.data.fd = fd;
        if (::epoll_ctl(epoll_, EPOLL_CTL_MOD, fd, &ev) != 0)
            ::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev);
    }

    void watch(Connection& c, uint32_t events) { // a system call only when it changes
        if (c.events == events)
            return;
        c.events = events;
        watch(c.fd, events);
    }

    void acceptAll() {
        for (;;) {
            const int fd = ::accept4(listen_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0)
                return;
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            auto c = std::make_unique<Connection>();
            c->fd = fd;
            c->generation = ++generations_;
            watch(*c, EPOLLIN);
            connections_[fd] = std::move(c);
        }
    }

    void setGenerating(Connection& c, bool on) {
        if (c.generating != on)
            generating_ += on ? 1 : -1;
        c.generating = on;
    }

    void closeConnection(int fd) {
        if (auto it = connections_.find(fd); it != connections_.end())
            setGenerating(*it->second, false);
        ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
        ::close(fd);
        connections_.erase(fd);
    }

    // When the bytes just read came in: the kernel's stamp on them (SO_TIMESTAMPNS, by the wall clock) put on
    // the steady clock, else now. A request's script runs from its arrival, so that the server's own delay
    // in reading it counts as its lateness, not as the client's. The wall clock is read only for a stamp
    // (--fixed-answer asks for none).
    static Clock::time_point arrivalOf(msghdr& m) {
        const Clock::time_point now = Clock::now();
        for (cmsghdr* h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
            if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_TIMESTAMPNS)
                continue;
            timespec wallNow{};
            ::clock_gettime(CLOCK_REALTIME, &wallNow);
            timespec came{};
            std::memcpy(&came, CMSG_DATA(h), sizeof came);
            const int64_t agoNs =
                (int64_t(wallNow.tv_sec) - came.tv_sec) * 1000000000 + (wallNow.tv_nsec - came.tv_nsec);
            if (agoNs >= 0 && agoNs < 10'000'000'000) // a stamp from a wall clock that jumped is not used
                return now - std::chrono::nanoseconds(agoNs);
        }
        return now;
    }

    // Reads what the connection has; false when it closed.
    bool receive(int fd) {
        auto it = connections_.find(fd);
        if (it == connections_.end())
            return false;
        Connection& c = *it->second;
        char buf[65536];
        for (;;) {
            iovec into{buf, sizeof buf};
            alignas(cmsghdr) char stamp[CMSG_SPACE(sizeof(timespec))];
            msghdr m{};
            m.msg_iov = &into;
            m.msg_iovlen = 1;
            m.msg_control = stamp;
            m.msg_controllen = sizeof stamp;
            const ssize_t n = ::recvmsg(fd, &m, 0);
            if (n > 0) {
                c.in.append(buf, size_t(n));
                c.received = arrivalOf(m);
                if (size_t(n) < sizeof buf)
                    return true; // all there was: epoll (level-triggered) says when more comes
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                closeConnection(fd);
                return false;
            }
            return true;
        }
    }

    // Answers the complete requests read on the connection, one at a time.
    void takeRequests(int fd) {
        auto it = connections_.find(fd);
        if (it == connections_.end())
            return;
        Connection& c = *it->second;
        while (!c.busy) {
            const size_t headerEnd = c.in.find("\r\n\r\n");
            if (headerEnd == std::string::npos)
                return;
            const std::string_view head = std::string_view(c.in).substr(0, headerEnd);
            size_t length = 0;
            std::string script;
            for (size_t pos = head.find("\r\n"); pos != std::string::npos;) {
                const size_t lineEnd = head.find("\r\n", pos + 2);
                const std::string_view line =
                    head.substr(pos + 2, (lineEnd == std::string::npos ? head.size() : lineEnd) - pos - 2);
                pos = lineEnd;
                const size_t colon = line.find(':');
                if (colon == std::string::npos)
                    continue;
                const std::string_view name = line.substr(0, colon);
                std::string_view value = line.substr(colon + 1);
                value.remove_prefix(std::min(value.find_first_not_of(' '), value.size()));
                if (sameLetters(name, "content-length"))
                    length = size_t(std::strtoul(std::string(value).c_str(), nullptr, 10));
                else if (sameLetters(name, "x-test-script"))
                    script = value;
            }
            if (c.in.size() < headerEnd + 4 + length)
                return;
            if (!fixedAnswer_.empty() && head.rfind("POST /v1/completions ", 0) == 0) { // --fixed-answer
                c.in.erase(0, headerEnd + 4 + length);
                ++received_;
                c.out += fixedAnswer_;
                flush(fd);
                if (!connections_.count(fd))
                    return; // closed by the write's failure
                continue;
            }
            const std::string requestLine(head.substr(0, head.find("\r\n")));
            const std::string body = c.in.substr(headerEnd + 4, length);
            c.in.erase(0, headerEnd + 4 + length);
            respond(c, requestLine, script, body, c.received);
        }
    }

    void schedule(Connection& c, Clock::time_point at, std::string bytes, bool raw = false,
                  bool close = false, bool end = false, int64_t firstTokenOf = -1) {
        Write w{at, ++seq_, c.fd, c.generation, std::move(bytes), raw, close, end};
        w.chained = true;
        w.firstTokenOf = firstTokenOf;
        if (c.queued && at >= c.chainEnd) {
            c.chainEnd = at;
            c.later.push_back(std::move(w)); // a response's writes come in time order: due after those
        } else if (!c.queued) {
            c.queued = true;
            c.chainEnd = at;
            writes_.push(std::move(w));
        } else {
            w.chained = false; // out of order: queued on its own
            writes_.push(std::move(w));
        }
    }

    static std::string httpResponse(int status, const char* reason, const std::string& body) {
        return "HTTP/1.1 " + std::to_string(status) + " " + reason +
               "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
               "\r\n\r\n" + body;
    }

    // A request's tag: its prompt (or its last message) starting "#N " for a number N; -1 otherwise.
    static int64_t requestTag(const Json& req, bool chat) {
        const Json* text = nullptr;
        if (!chat && req.contains("prompt"))
            text = &req["prompt"];
        else if (chat && req.contains("messages") && req["messages"].is_array() && !req["messages"].empty() &&
                 req["messages"].back().is_object() && req["messages"].back().contains("content"))
            text = &req["messages"].back()["content"];
        if (!text || !text->is_string())
            return -1;
        const std::string& t = text->get_ref<const std::string&>();
        if (t.size() < 2 || t[0] != '#' || !std::isdigit(static_cast<unsigned char>(t[1])))
            return -1;
        return std::strtoll(t.c_str() + 1, nullptr, 10);
    }

    // A whole (not streamed) completion, the bytes a Json of these members dumps (keys in order) written out:
    // building and dumping the document cost more than the rest of a request, and the server is not to be
    // the bottleneck of a client's measurement. `text` is " tok" repeated: nothing to escape.
    static std::string plainCompletion(bool chat, const std::string& text, const std::string& id,
                                       const std::string& model, int64_t maxTokens, int64_t promptTokens) {
        const std::string quoted = "\"" + text + "\"";
        return R"({"choices":[{"finish_reason":"length","index":0,)" +
               (chat ? R"("message":{"content":)" + quoted + R"(,"role":"assistant"}}],)"
                     : R"("text":)" + quoted + "}],") +
               R"("id":")" + id + R"(","model":)" + Json(model).dump() + R"(,"object":")" +
               (chat ? "chat.completion" : "text_completion") + R"(","usage":{"completion_tokens":)" +
               std::to_string(maxTokens) + R"(,"prompt_tokens":)" + std::to_string(promptTokens) +
               R"(,"total_tokens":)" + std::to_string(promptTokens + maxTokens) + "}}";
    }

    std::string latenessReport() {
        std::sort(lateMs_.begin(), lateMs_.end());
        const auto at = [&](double q) {
            return lateMs_.empty() ? 0.0 : lateMs_[size_t(q * double(lateMs_.size() - 1))];
        };
        const Json j{{"writes", lateMs_.size()},
                     {"p50_ms", at(0.5)},
                     {"p99_ms", at(0.99)},
                     {"max_ms", lateMs_.empty() ? 0.0 : lateMs_.back()}};
        lateMs_.clear();
        return j.dump();
    }

    void respond(Connection& c, const std::string& requestLine, const std::string& scriptText,
                 const std::string& body, Clock::time_point start) {
        Script s = defaults_;
        const bool chat = requestLine.rfind("POST /v1/chat/completions ", 0) == 0;
        const bool completions = requestLine.rfind("POST /v1/completions ", 0) == 0;
        if (requestLine.rfind("GET /test/lateness ", 0) == 0) {
            c.busy = true;
            return schedule(c, start, httpResponse(200, "OK", latenessReport()), true, false, true);
        }
        if (requestLine.rfind("GET /test/first-token-lateness ", 0) == 0) {
            Json j = Json::object();
            for (const auto& [tag, ms] : firstTokenLateMs_)
                j[std::to_string(tag)] = ms;
            firstTokenLateMs_.clear();
            c.busy = true;
            return schedule(c, start, httpResponse(200, "OK", j.dump()), true, false, true);
        }
        if (requestLine.rfind("GET /test/requests ", 0) == 0) { // how many completions were asked for so far
            c.busy = true;
            return schedule(c, start, httpResponse(200, "OK", Json{{"received", received_}}.dump()), true,
                            false, true);
        }
        if (requestLine.rfind("GET /metrics ", 0) == 0 && !metrics_.empty()) {
            c.busy = true;
            const std::string text = liveMetrics();
            return schedule(c, start,
                            "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                            "Content-Length: " +
                                std::to_string(text.size()) + "\r\n\r\n" + text,
                            true, false, true);
        }
        if (requestLine.rfind("GET /test/metrics-truth ", 0) == 0) {
            const Live l = live();
            c.busy = true;
            return schedule(c, start,
                            httpResponse(200, "OK",
                                         Json{{"running", l.running},
                                              {"waiting", l.waiting},
                                              {"kv_cache_use", l.kv},
                                              {"preemptions", preemptions_},
                                              {"prefix_queries", prefixQueries_},
                                              {"prefix_hits", prefixQueries_ / 2}}
                                             .dump()),
                            true, false, true);
        }
        if (!chat && !completions) {
            c.busy = true;
            schedule(
                c, start,
                httpResponse(404, "Not Found",
                             R"({"error":{"message":"no such route","type":"NotFoundError","code":404}})"),
                true, false, true);
            return;
        }
        ++received_;
        const Json req = Json::parse(body, nullptr, false);
        if (!applyScript(s, scriptText) || req.is_discarded() || !req.is_object()) {
            c.busy = true;
            schedule(
                c, start,
                httpResponse(
                    400, "Bad Request",
                    R"({"error":{"message":"bad request or script","type":"BadRequestError","code":400}})"),
                true, false, true);
            return;
        }
        const int64_t maxTokens = req.value("max_tokens", int64_t(16));
        const bool stream = req.value("stream", false);
        const bool usage =
            stream && req.contains("stream_options") && req["stream_options"].value("include_usage", false);
        s.continuousUsage = stream && req.contains("stream_options") &&
                            req["stream_options"].value("continuous_usage_stats", false);
        int64_t promptTokens = 0;
        if (chat)
            for (const Json& m : req.value("messages", Json::array()))
                promptTokens +=
                    m.is_object() && m.value("content", Json()).is_string() ? countWords(m["content"]) : 0;
        else if (req.value("prompt", Json()).is_string())
            promptTokens = countWords(req["prompt"]);
        const int64_t tag = requestTag(req, chat);
        const Live now = live();
        if (now.running + now.waiting >= kvSlots_)
            ++preemptions_;
        s.ttftMs += s.ttftPerStreamMs * (now.running + now.waiting);
        prefixQueries_ += uint64_t(promptTokens);
        c.busy = true;
        setGenerating(c, true);
        const auto at = [&](double ms) { return start + std::chrono::microseconds(int64_t(ms * 1000)); };

        if (s.fault == "http-500")
            return schedule(
                c, at(s.ttftMs),
                httpResponse(
                    500, "Internal Server Error",
                    R"({"error":{"message":"scripted failure","type":"InternalServerError","param":null,"code":500}})"),
                true, false, true);
        if (s.fault == "http-500-deep") // an error body nested 200,000 levels deep
            return schedule(
                c, at(s.ttftMs),
                httpResponse(500, "Internal Server Error",
                             "{\"error\":" + std::string(200000, '[') + std::string(200000, ']') + "}"),
                true, false, true);
        if (s.fault == "redirect")
            return schedule(c, at(s.ttftMs),
                            "HTTP/1.1 302 Found\r\nLocation: " +
                                std::string(chat ? "/v1/chat/completions" : "/v1/completions") +
                                "\r\nContent-Length: 0\r\n\r\n",
                            true, false, true);
        if (s.fault == "endless-headers") {
            schedule(c, at(s.ttftMs), "HTTP/1.1 200 OK\r\n", true);
            return repeat(c, at(s.ttftMs), "X-Filler: " + std::string(1000, 'a') + "\r\n", true,
                          std::max(0.1, s.tpotMs));
        }
        if (s.fault == "http-429-flat")
            return schedule(
                c, at(s.ttftMs),
                httpResponse(
                    429, "Too Many Requests",
                    R"({"object":"error","message":"scripted overload","type":"TooManyRequests","param":null,"code":429})"),
                true, false, true);

        const std::string id = "cmpl-" + std::to_string(seq_);
        std::map<std::pair<std::string, bool>, std::string>
            made; // without continuous usage a chunk is its text and whether it ends
        auto chunkJson = [&](const std::string& text, const Json& finish, int64_t soFar) {
            const auto key = std::make_pair(text, finish.is_null());
            if (!s.continuousUsage)
                if (auto it = made.find(key); it != made.end())
                    return it->second;
            Json choice =
                chat ? Json{{"index", 0},
                            {"delta", {{"content", text}}},
                            {"logprobs", nullptr},
                            {"finish_reason", finish}}
                     : Json{{"index", 0}, {"text", text}, {"logprobs", nullptr}, {"finish_reason", finish}};
            Json j{{"id", id},
                   {"object", chat ? "chat.completion.chunk" : "text_completion"},
                   {"created", 0},
                   {"model", req.value("model", "")},
                   {"choices", Json::array({choice})}};
            if (s.fault == "huge-usage" && soFar > 1)
                soFar += 2000000000LL * (soFar - 1); // the second chunk "carries" 2e9 tokens, and so on
            if (s.continuousUsage)
                j["usage"] = {{"prompt_tokens", promptTokens},
                              {"completion_tokens", soFar},
                              {"total_tokens", promptTokens + soFar}};
            return made[key] = "data: " + j.dump() + "\n\n";
        };
        if (!stream) {
            std::string text;
            for (int64_t i = 0; i < maxTokens; ++i)
                text += " tok";
            const std::string j =
                plainCompletion(chat, text, id, req.value("model", ""), maxTokens, promptTokens);
            return schedule(c, at(s.ttftMs + s.tpotMs * double(std::max<int64_t>(0, maxTokens - 1))),
                            httpResponse(200, "OK", j), true, false, true);
        }
        // The stream's events and when each is due; then each is written as an HTTP chunk (or in pieces).
        std::vector<std::pair<double, std::string>> events;
        schedule(c, start,
                 "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: "
                 "no-cache\r\nTransfer-Encoding: chunked\r\n\r\n",
                 true);
        if (chat) {
            Json role{{"id", id},
                      {"object", "chat.completion.chunk"},
                      {"created", 0},
                      {"model", req.value("model", "")},
                      {"choices", Json::array({Json{{"index", 0},
                                                    {"delta", {{"role", "assistant"}, {"content", ""}}},
                                                    {"logprobs", nullptr},
                                                    {"finish_reason", nullptr}}})}};
            events.emplace_back(0.0, "data: " + role.dump() + "\n\n");
        }
        int64_t sent = 0;
        size_t firstTokenEvent = size_t(-1); // which of the events carries the first token
        double t = s.ttftMs;
        bool cut = false, endless = false;
        while (sent < maxTokens) {
            if (!s.fault.empty() && sent >= s.faultAfter) {
                if (s.fault == "error") {
                    events.emplace_back(
                        t,
                        R"(data: {"error":{"object":"error","message":"scripted failure in the stream","type":"InternalServerError","param":null,"code":500}})"
                        "\n\n");
                    break;
                }
                if (s.fault == "garbage") {
                    events.emplace_back(t, "data: {this is not json\n\n");
                    break;
                }
                if (s.fault == "deep") {
                    events.emplace_back(t, "data: {\"error\":" + std::string(200000, '[') +
                                               std::string(200000, ']') + "}\n\n");
                    break;
                }
                if (s.fault == "bad-utf8") {
                    events.emplace_back(
                        t, "data: "
                           "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\xff\xfe\xc3\x28\"},\"text\":"
                           "\"\xff\xfe\xc3\x28\",\"finish_reason\":null}]}\n\n");
                    break;
                }
                if (s.fault == "endless") {
                    endless = true;
                    break;
                }
                if (s.fault == "drop") {
                    cut = true;
                    break;
                }
            }
            const int64_t k = std::min<int64_t>(s.tokensPerChunk, maxTokens - sent);
            std::string text;
            for (int64_t i = 0; i < k; ++i)
                text += " tok";
            if (sent == 0)
                firstTokenEvent = events.size() + (s.comments ? 1 : 0) + (s.empty ? 1 : 0);
            sent += k;
            if (s.comments)
                events.emplace_back(t, ": keep-alive\n\n");
            if (s.empty)
                events.emplace_back(t, chunkJson("", nullptr, sent - k));
            events.emplace_back(t, chunkJson(text, sent == maxTokens ? Json("length") : Json(nullptr), sent));
            t += s.tpotMs * double(k);
        }
        if (!cut) {
            if (usage && s.fault.empty()) {
                Json u{{"id", id},
                       {"object", chat ? "chat.completion.chunk" : "text_completion"},
                       {"created", 0},
                       {"model", req.value("model", "")},
                       {"choices", Json::array()},
                       {"usage",
                        {{"prompt_tokens", promptTokens},
                         {"completion_tokens", sent},
                         {"total_tokens", promptTokens + sent}}}};
                events.emplace_back(events.empty() ? t : events.back().first, "data: " + u.dump() + "\n\n");
            }
            if (!s.noDone)
                events.emplace_back(events.empty() ? t : events.back().first, "data: [DONE]\n\n");
        }
        if (s.batch) { // everything in one write, when the last is due
            std::string all;
            for (auto& e : events)
                all += e.second;
            const double last = events.empty() ? 0 : events.back().first;
            events.assign(1, {last, all});
            firstTokenEvent = sent > 0 ? 0 : size_t(-1);
        }
        double lastAt = 0; // pieces of one event never interleave with the next one's
        for (size_t i = 0; i < events.size(); ++i) {
            const auto& [when, bytes] = events[i];
            const int64_t firstTokenOf = i == firstTokenEvent ? tag : -1;
            lastAt = std::max(lastAt, when);
            if (s.split && bytes.size() > 4) { // three pieces, one of them cutting "\n\n" in two
                const size_t a = bytes.size() / 3, b = bytes.size() - 1;
                schedule(c, at(lastAt), bytes.substr(0, a), false, false, false, firstTokenOf);
                schedule(c, at(lastAt += s.splitGapMs), bytes.substr(a, b - a));
                schedule(c, at(lastAt += s.splitGapMs), bytes.substr(b));
            } else {
                schedule(c, at(lastAt), bytes, false, false, false, firstTokenOf);
            }
        }
        const double endAt = std::max(lastAt, events.empty() ? t : 0.0);
        if (endless) { // 64 events a write, as fast as the client reads them: a flood, not a trickle
            std::string batch;
            for (int i = 0; i < 64; ++i)
                batch += chunkJson(" tok", nullptr, sent + 1);
            return repeat(c, at(endAt), batch, false, std::max(0.1, s.tpotMs));
        }
        if (cut)
            schedule(c, at(endAt), "", true, true, true); // closed without the terminating chunk
        else
            schedule(c, at(endAt), "0\r\n\r\n", true, false, true);
        if (!cut && s.idleCloseMs >= 0)
            writes_.push(
                Write{at(endAt + s.idleCloseMs), ++seq_, c.fd, c.generation, "", true, true, false, true});
    }

    // A write made again every `everyMs` for as long as the connection lasts.
    void repeat(Connection& c, Clock::time_point at, std::string bytes, bool raw, double everyMs) {
        Write w{at, ++seq_, c.fd, c.generation, std::move(bytes), raw};
        w.repeatMs = everyMs;
        writes_.push(std::move(w));
    }

    void deliver(const Write& w) {
        auto it = connections_.find(w.fd);
        if (it == connections_.end() || it->second->generation != w.generation)
            return; // that connection is gone
        if (w.chained) {
            Connection& owner = *it->second;
            owner.queued = !owner.later.empty();
            if (owner.queued) {
                writes_.push(std::move(owner.later.front()));
                owner.later.pop_front();
            }
        }
        if (w.repeatMs >= 0) {
            Write again = w;
            again.at = w.at + std::chrono::microseconds(int64_t(w.repeatMs * 1000));
            again.seq = ++seq_;
            writes_.push(std::move(again));
        }
        const double lateMs = std::chrono::duration<double, std::milli>(Clock::now() - w.at).count();
        if (lateMs_.size() < kMaxLatenessSamples)
            lateMs_.push_back(lateMs);
        if (w.firstTokenOf >= 0)
            firstTokenLateMs_[w.firstTokenOf] = lateMs;
        Connection& c = *it->second;
        if (w.onlyIfIdle && (c.busy || !c.in.empty()))
            return;
        if (w.repeatMs >= 0 && c.out.size() > (1u << 20))
            return; // a client that stopped reading: no backlog without end here
        if (w.raw)
            c.out += w.bytes;
        else {
            char size[32];
            std::snprintf(size, sizeof size, "%zx\r\n", w.bytes.size());
            c.out += size;
            c.out += w.bytes;
            c.out += "\r\n";
        }
        if (w.close)
            c.closeAfterFlush = true;
        flush(c.fd);
        if (w.endOfResponse && connections_.count(w.fd)) {
            c.busy = false;
            setGenerating(c, false);
            if (!c.in.empty())
                takeRequests(c.fd); // a pipelined next request
        }
    }

    void flush(int fd) {
        auto it = connections_.find(fd);
        if (it == connections_.end())
            return;
        Connection& c = *it->second;
        while (!c.out.empty()) {
            const ssize_t n = ::send(fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
            if (n > 0) {
                c.out.erase(0, size_t(n));
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                watch(c, EPOLLIN | EPOLLOUT);
                return;
            }
            return closeConnection(fd);
        }
        watch(c, EPOLLIN);
        if (c.closeAfterFlush)
            closeConnection(fd);
    }

    struct Live {
        int running = 0, waiting = 0;
        double kv = 0;
    };
    Live live() const {
        Live l;
        l.running = std::min(generating_, kvSlots_);
        l.waiting = generating_ - l.running;
        l.kv = double(l.running) / double(kvSlots_);
        return l;
    }

    // The --metrics exposition with the load's names given live values, every other line as it was.
    std::string liveMetrics() const {
        const Live l = live();
        char number[64];
        const auto value = [&](const std::string& name) -> const char* {
            const auto is = [&](std::initializer_list<const char*> names) {
                return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
            };
            double v = 0;
            if (is({"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage"}))
                v = l.kv;
            else if (is({"vllm:num_requests_running", "sglang:num_running_reqs", "tgi_batch_current_size"}))
                v = l.running;
            else if (is({"vllm:num_requests_waiting", "sglang:num_queue_reqs", "tgi_queue_size"}))
                v = l.waiting;
            else if (is({"vllm:num_preemptions_total"}))
                v = double(preemptions_);
            else if (is({"vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"}))
                v = double(prefixQueries_);
            else if (is({"vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"}))
                v = double(prefixQueries_ / 2);
            else if (is({"sglang:cache_hit_rate"}))
                v = 0.5;
            else if (is({"nv_inference_count", "nv_inference_request_success"}))
                v = double(received_);
            else
                return nullptr;
            std::snprintf(number, sizeof number, "%.17g", v);
            return number;
        };
        std::string out;
        size_t pos = 0;
        while (pos < metrics_.size()) {
            size_t end = metrics_.find('\n', pos);
            end = end == std::string::npos ? metrics_.size() : end + 1;
            std::string line = metrics_.substr(pos, end - pos);
            pos = end;
            const size_t nameEnd = line.find_first_of("{ \t");
            if (!line.empty() && line[0] != '#' && nameEnd != std::string::npos) {
                const bool labels = line[nameEnd] == '{';
                const size_t afterLabels = labels ? line.rfind('}') : nameEnd;
                const size_t valueAt = afterLabels == std::string::npos
                                           ? afterLabels
                                           : line.find_first_not_of(" \t", afterLabels + labels);
                const char* v = valueAt == std::string::npos ? nullptr : value(line.substr(0, nameEnd));
                if (v)
                    line.replace(valueAt, line.find_first_of(" \t\r\n", valueAt) - valueAt, v);
            }
            out += line;
        }
        return out;
    }

    Script defaults_;
    std::string fixedAnswer_; // --fixed-answer's response; empty without it
    double acceptDelayMs_;
    std::string metrics_; // the exposition GET /metrics replays; empty: no /metrics
    int kvSlots_;
    uint64_t preemptions_ = 0, prefixQueries_ = 0;
    int listen_ = -1, epoll_ = -1;
    int generating_ = 0; // connections streaming a completion
    std::optional<Clock::time_point> acceptAt_;
    uint64_t received_ = 0; // completion requests, for GET /test/requests
    std::unordered_map<int, std::unique_ptr<Connection>> connections_;
    std::priority_queue<Write, std::vector<Write>, std::greater<Write>> writes_;
    static constexpr size_t kMaxLatenessSamples = 50'000'000;
    std::vector<double> lateMs_; // how late each write went out against its schedule
    // How late the first token of each tagged request went out (GET /test/first-token-lateness): a benchmark
    // tells, request by request, the server's part of a TTFT error from the client's.
    std::map<int64_t, double> firstTokenLateMs_;
    uint64_t seq_ = 0, generations_ = 0;
};

} // namespace

int main(int argc, char** argv) {
    Script defaults;
    std::string address = "127.0.0.1", script, metrics;
    int kvSlots = 32;
    bool fixedAnswer = false;
    int port = 0;
    double acceptDelayMs = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--port")
            port = std::stoi(next());
        else if (a == "--address")
            address = next();
        else if (a == "--script")
            script = next();
        else if (a == "--accept-delay-ms")
            acceptDelayMs = std::stod(next());
        else if (a == "--metrics") {
            const std::string path = next();
            std::FILE* f = std::fopen(path.c_str(), "rb");
            if (!f) {
                std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), std::strerror(errno));
                return 1;
            }
            char buf[65536];
            for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
                metrics.append(buf, n);
            std::fclose(f);
        } else if (a == "--kv-slots")
            kvSlots = std::stoi(next());
        else if (a == "--fixed-answer")
            fixedAnswer = true;
        else {
            std::fprintf(stderr,
                         "usage: %s [--address A] [--port N] [--script 'ttft=20;tpot=10;...'] "
                         "[--accept-delay-ms N] [--metrics FILE.prom] [--kv-slots N] [--fixed-answer]\n",
                         argv[0]);
            return 2;
        }
    }
    if (!applyScript(defaults, script)) {
        std::fprintf(stderr, "bad --script '%s'\n", script.c_str());
        return 2;
    }
    ::signal(SIGPIPE, SIG_IGN);
    rlimit files{}; // each stream is a socket: up to the hard limit
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    Server server(defaults, acceptDelayMs, metrics, kvSlots);
    if (fixedAnswer)
        server.answerEveryCompletionTheSame();
    const int bound = server.listenOn(address.c_str(), port);
    if (bound < 0) {
        std::fprintf(stderr, "cannot listen on %s:%d: %s\n", address.c_str(), port, std::strerror(errno));
        return 1;
    }
    std::printf("listening on %s:%d\n", address.c_str(), bound);
    std::fflush(stdout);
    server.run();
}
