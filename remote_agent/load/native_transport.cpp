// The native client: HTTP/1.1 on the engine's own thread, its sockets on one level-triggered epoll
// (poller.h), each response read by Boost.Beast's parser. Plain http:// with no proxy; https:// and
// proxies go through libcurl.
//
// A request costs two system calls where the socket is ready: one send, and one recv when epoll says the
// response is there (nothing is read before). A connection that idles stays watched, so that one the
// server closes is let go when it closes, not found closed by the next request.
#include "http_transport.h"
#include "poller.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/version.hpp>
#include <boost/version.hpp>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>

namespace rsload {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using boost::system::error_code;
namespace errc = boost::system::errc;

struct Target {
    std::string host, port, hostHeader, path;
};

// "http://host[:port][/path]" in its parts; nullopt for what the native client leaves to libcurl.
std::optional<Target> parseHttpUrl(const std::string& url) {
    static const std::string scheme = "http://";
    if (url.rfind(scheme, 0) != 0)
        return std::nullopt;
    const size_t slash = url.find('/', scheme.size());
    const std::string authority =
        url.substr(scheme.size(), slash == std::string::npos ? std::string::npos : slash - scheme.size());
    Target t;
    t.path = slash == std::string::npos ? "/" : url.substr(slash);
    t.path = t.path.substr(0, t.path.find('#'));
    if (authority.empty() || authority.find_first_of("@ \r\n") != std::string::npos ||
        t.path.find_first_of(" \r\n") != std::string::npos)
        return std::nullopt;
    t.hostHeader = authority;
    std::string rest;
    if (authority[0] == '[') { // an IPv6 address
        const size_t close = authority.find(']');
        if (close == std::string::npos)
            return std::nullopt;
        t.host = authority.substr(1, close - 1);
        rest = authority.substr(close + 1);
    } else {
        const size_t colon = authority.find(':');
        t.host = authority.substr(0, colon);
        rest = colon == std::string::npos ? "" : authority.substr(colon);
    }
    t.port = "80";
    if (!rest.empty()) {
        if (rest[0] != ':' || rest.size() < 2 || rest.size() > 6 ||
            rest.find_first_not_of("0123456789", 1) != std::string::npos)
            return std::nullopt;
        t.port = rest.substr(1);
    }
    if (t.host.empty())
        return std::nullopt;
    return t;
}

enum class Stage { Connect, Send, Receive };

error_code systemError(int e) {
    return {e, boost::system::system_category()};
}

Failure failureOf(const error_code& ec, Stage stage) {
    if (ec == beast::error::timeout)
        return Failure::Timeout;
    if (stage == Stage::Connect)
        return Failure::Connect;
    if (ec.category() == http::make_error_code(http::error::end_of_stream).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message)
        return Failure::Protocol; // the response is not HTTP/1.x
    return Failure::Dropped;      // closed or reset before the response ended
}

std::string describe(const error_code& ec, Stage stage, const Target& t) {
    if (ec == beast::error::timeout)
        return stage == Stage::Connect ? "no connection to " + t.hostHeader + " in time"
                                       : ""; // "": the request timeout
    if (stage == Stage::Connect)
        return "could not connect to " + t.hostHeader + ": " + ec.message();
    if (ec == http::error::end_of_stream)
        return "the server closed the connection without a response";
    if (ec == http::error::partial_message)
        return "the connection closed before the response ended";
    if (ec == http::error::header_limit)
        return "the response's headers are larger than 64 KiB, the most this client reads";
    if (failureOf(ec, stage) == Failure::Protocol)
        return "malformed HTTP response: " + ec.message();
    return ec.message();
}

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A response's parser that keeps no headers (the engine reads none) and hands each piece of the body,
// chunked or not, to `body` as it is parsed. `body` answers false to stop: the parse then ends with
// operation_canceled and `stopped` says so.
class BodyParser final : public http::basic_parser<false> {
public:
    explicit BodyParser(std::function<bool(int status, beast::string_view piece)> body)
        : body_(std::move(body)) {
        header_limit(64 * 1024);
        body_limit(std::numeric_limits<std::uint64_t>::max()); // the engine caps what it keeps
        eager(true); // header and body in one parse, as far as the bytes read go
    }
    int status() const { return status_; }
    bool stopped() const { return stopped_; }

private:
    std::function<bool(int, beast::string_view)> body_;
    int status_ = 0;
    bool stopped_ = false;

    void on_request_impl(http::verb, beast::string_view, beast::string_view, int, error_code&) override {}
    void on_response_impl(int code, beast::string_view, int, error_code&) override { status_ = code; }
    void on_field_impl(http::field, beast::string_view, beast::string_view, error_code&) override {}
    void on_header_impl(error_code&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
    std::size_t on_body_impl(beast::string_view piece, error_code& ec) override {
        if (!piece.empty() && !body_(status_, piece)) {
            stopped_ = true;
            ec = errc::make_error_code(errc::operation_canceled);
        }
        return piece.size();
    }
    void on_chunk_header_impl(std::uint64_t, beast::string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, beast::string_view piece, error_code& ec) override {
        return on_body_impl(piece, ec);
    }
    void on_finish_impl(error_code&) override {}
};

struct Address {
    sockaddr_storage bytes{};
    socklen_t size = 0;
    int family = 0;
};

class NativeTransport final : public HttpTransport {
public:
    NativeTransport(const HttpSetup& setup, Target target) : setup_(setup), target_(std::move(target)) {
        // A Host header of the caller's (an ingress routes by it) takes the place of the URL's.
        const auto ownHost = std::find_if(setup_.headers.begin(), setup_.headers.end(),
                                          [](const auto& h) { return beast::iequals(h.first, "host"); });
        head_ = (setup_.get ? "GET " : "POST ") + target_.path + " HTTP/1.1\r\n";
        if (ownHost == setup_.headers.end())
            head_ += "Host: " + target_.hostHeader + "\r\n";
        for (const auto& [name, value] : setup_.headers)
            head_ += name + ": " + value + "\r\n";
        resolve();
    }

    ~NativeTransport() override {
        for (auto& [events, x] : inFlight_)
            closeSocket(x.conn.get());
        for (auto& c : idle_)
            closeSocket(c.get());
    }

    std::string library() const override {
        return "rackscope native (epoll, Boost.Beast/" + std::to_string(BOOST_BEAST_VERSION) +
               " parser, Boost/" + std::to_string(BOOST_VERSION / 100000) + "." +
               std::to_string(BOOST_VERSION / 100 % 1000) + ")";
    }

    bool send(const std::string& body, TransferEvents* events) override {
        Exchange* x = admit(events);
        x->request.reserve(head_.size() + 40 + body.size());
        x->request = head_;
        if (setup_.get) {
            x->request += "\r\n";
        } else {
            x->request += "Content-Length: "; // appended piece by piece: no temporary strings
            x->request += std::to_string(body.size());
            x->request += "\r\n\r\n";
            x->request += body;
        }
        if (setup_.timeoutS > 0)
            x->deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(setup_.timeoutS));
        // Whatever ends the request here is said after send() returns, as any other failure.
        sending_ = true;
        if (!resolveError_.empty()) {
            end(x, TransferEnd{Failure::Connect, resolveError_, {}, {}, {}});
        } else if (!idle_.empty()) {
            x->conn = std::move(idle_.back());
            idle_.pop_back();
            x->conn->x = x;
            x->reused = true;
            write(x);
        } else {
            connect(x, 0);
        }
        sending_ = false;
        return true;
    }

    void drop(TransferEvents* events) override {
        const auto it = inFlight_.find(events);
        if (it == inFlight_.end())
            return;
        Exchange* x = &it->second;
        setTimer(x, std::nullopt);
        retire(x->conn);
        dropped_.push_back(inFlight_.extract(it)); // until the next wait: a callback may be using it now
    }

    bool wait(Clock::time_point until, std::string* error) override {
        if (!poller_.error().empty()) {
            *error = poller_.error();
            return false;
        }
        retired_.clear(); // nothing refers to these now: the last wait's events are handled
        dropped_.clear();
        const bool ended = endLater();
        const Clock::time_point at = timers_.empty() ? until : std::min(until, timers_.begin()->first);
        const int n = poller_.wait(at, !ended, ready_.data(), error);
        if (n < 0)
            return false;
        for (int i = 0; i < n; ++i)
            handle(*static_cast<Connection*>(ready_[size_t(i)]));
        expireTimers();
        return true;
    }

    void wake() override { poller_.wake(); }

private:
    struct Exchange;

    struct Connection {
        enum class State { Connecting, Writing, Reading, Idle };
        int fd = -1; // -1 once let go
        State state = State::Connecting;
        uint32_t watched = 0;  // what epoll watches it for; 0 before it is added
        Exchange* x = nullptr; // the request on it; none while it idles
        size_t address = 0;    // which of the host's addresses it is connected to
        std::string unparsed;  // read but not yet taken by the parser: a header cut by a read
    };

    // One request, and the connection it is on.
    struct Exchange {
        TransferEvents* events = nullptr;
        std::string request; // request line, headers and body
        size_t written = 0;
        std::unique_ptr<Connection> conn;
        std::optional<BodyParser> parser;
        std::optional<Clock::time_point> deadline; // the request timeout's
        std::optional<std::multimap<Clock::time_point, Exchange*>::iterator> timer;
        Clock::time_point connectStarted;
        Clock::time_point readAt; // when the bytes parsed now were read
        std::optional<double> connectMs;
        std::optional<TransferEnd> endedInSend; // said at the next wait
        bool reused = false, retried = false;
    };

    Poller poller_;
    std::array<void*, Poller::kMaxReady> ready_; // the connections a wait found ready
    std::array<char, 65536> buffer_;             // each read's bytes, parsed at once
    HttpSetup setup_;
    Target target_;
    std::string head_, resolveError_;
    std::vector<Address> addresses_;
    std::vector<std::unique_ptr<Connection>> idle_;
    std::unordered_map<TransferEvents*, Exchange> inFlight_;
    std::multimap<Clock::time_point, Exchange*> timers_; // connect and request timeouts, due first first
    bool sending_ = false;
    std::vector<TransferEvents*> endedInSend_;
    // Let go in this wait, freed in the next: this wait's events may still name them.
    std::vector<std::unique_ptr<Connection>> retired_;
    std::vector<decltype(inFlight_)::node_type> dropped_;
    std::vector<decltype(inFlight_)::node_type> spare_; // ended requests' nodes, for the next ones

    // A request's Exchange, on the node of one that ended where there is one: a run's requests then cost
    // no allocation here (malloc's per-thread cache holds a few blocks of a size, and a burst of ends
    // overflows it), and the request's buffer keeps its size.
    Exchange* admit(TransferEvents* events) {
        if (spare_.empty()) {
            Exchange* x = &inFlight_[events];
            x->events = events;
            return x;
        }
        auto node = std::move(spare_.back());
        spare_.pop_back();
        node.key() = events;
        Exchange& x = node.mapped();
        std::string request = std::move(x.request);
        x = Exchange{};
        x.events = events;
        x.request = std::move(request);
        x.request.clear();
        return &inFlight_.insert(std::move(node)).position->second;
    }

    // Resolved once a run, as libcurl's cache would keep it for the length of most runs.
    void resolve() {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_protocol = IPPROTO_TCP;
        addrinfo* found = nullptr;
        const int rc = ::getaddrinfo(target_.host.c_str(), target_.port.c_str(), &hints, &found);
        for (const addrinfo* a = found; rc == 0 && a; a = a->ai_next) {
            if (a->ai_addrlen > sizeof(sockaddr_storage))
                continue;
            Address address;
            std::memcpy(&address.bytes, a->ai_addr, a->ai_addrlen);
            address.size = a->ai_addrlen;
            address.family = a->ai_family;
            addresses_.push_back(address);
        }
        if (found)
            ::freeaddrinfo(found);
        if (addresses_.empty())
            resolveError_ =
                "could not resolve " + target_.host + (rc ? std::string(": ") + ::gai_strerror(rc) : "");
    }

    void watch(Connection& c, Connection::State state, uint32_t events) {
        c.state = state;
        if (c.watched == events)
            return;
        if (!(c.watched ? poller_.change(c.fd, events, &c) : poller_.add(c.fd, events, &c)))
            return fail(c.x, systemError(errno),
                        state == Connection::State::Connecting ? Stage::Connect : Stage::Send);
        c.watched = events;
    }

    void closeSocket(Connection* c) {
        if (!c || c->fd < 0)
            return;
        if (c->watched) // before close: a child forked this moment would keep the socket, and epoll with it
            poller_.remove(c->fd);
        ::close(c->fd);
        c->fd = -1;
    }

    // Let go of a connection: closed now, freed at the next wait.
    void retire(std::unique_ptr<Connection>& c) {
        if (!c)
            return;
        closeSocket(c.get());
        c->x = nullptr;
        retired_.push_back(std::move(c));
    }

    void connect(Exchange* x, size_t address) {
        if (address == 0)
            x->connectStarted = Clock::now();
        const Address& to = addresses_[address];
        x->conn = std::make_unique<Connection>();
        Connection& c = *x->conn;
        c.x = x;
        c.address = address;
        c.fd = ::socket(to.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
        if (c.fd < 0)
            return fail(x, systemError(errno), Stage::Connect);
        const int one = 1;
        ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        std::optional<Clock::time_point> limit = x->deadline;
        if (setup_.connectTimeoutS > 0) {
            const auto byConnect =
                x->connectStarted + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(setup_.connectTimeoutS));
            limit = limit ? std::min(*limit, byConnect) : byConnect;
        }
        setTimer(x, limit);
        if (::connect(c.fd, reinterpret_cast<const sockaddr*>(&to.bytes), to.size) == 0)
            return connected(x);
        if (errno != EINPROGRESS)
            return connectFailed(x, systemError(errno));
        watch(c, Connection::State::Connecting, EPOLLOUT);
    }

    void connectFailed(Exchange* x, const error_code& ec) {
        const size_t next = x->conn->address + 1;
        if (next < addresses_.size()) { // the host's next address
            retire(x->conn);
            return connect(x, next);
        }
        fail(x, ec, Stage::Connect);
    }

    void connected(Exchange* x) {
        x->connectMs = msSince(x->connectStarted);
        write(x);
    }

    void write(Exchange* x) {
        x->written = 0;
        setTimer(x, x->deadline);
        x->events->sending(Clock::now());
        writeRest(x);
    }

    // As much of the request as the socket takes (nearly always all: it is small); the rest when it can.
    void writeRest(Exchange* x) {
        Connection& c = *x->conn;
        while (x->written < x->request.size()) {
            const ssize_t n =
                ::send(c.fd, x->request.data() + x->written, x->request.size() - x->written, MSG_NOSIGNAL);
            if (n >= 0) {
                x->written += size_t(n);
            } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
                return watch(c, Connection::State::Writing, EPOLLOUT);
            } else if (errno != EINTR) {
                return fail(x, systemError(errno), Stage::Send);
            }
        }
        x->parser.emplace([x](int status, beast::string_view piece) {
            return x->events->received(status, piece.data(), piece.size(), x->readAt);
        });
        watch(c, Connection::State::Reading, EPOLLIN);
    }

    void handle(Connection& c) {
        if (c.fd < 0) // let go earlier in this wait
            return;
        switch (c.state) {
        case Connection::State::Idle: // closed by the server, or sent what nobody asked for
            return letIdleGo(c);
        case Connection::State::Connecting: {
            int error = 0;
            socklen_t size = sizeof error;
            if (::getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0)
                error = errno;
            if (error == EINPROGRESS || error == EALREADY)
                return;
            return error ? connectFailed(c.x, systemError(error)) : connected(c.x);
        }
        case Connection::State::Writing:
            return writeRest(c.x);
        case Connection::State::Reading:
            return read(c.x);
        }
    }

    void letIdleGo(Connection& c) {
        const auto it =
            std::find_if(idle_.begin(), idle_.end(), [&](const auto& i) { return i.get() == &c; });
        if (it == idle_.end())
            return;
        std::swap(*it, idle_.back());
        retire(idle_.back());
        idle_.pop_back();
    }

    // One read of the socket, and what it brought parsed at once: each piece of the body is timed by the
    // read that brought it.
    void read(Exchange* x) {
        const ssize_t n = ::recv(x->conn->fd, buffer_.data(), buffer_.size(), 0);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                return;
            return fail(x, systemError(errno), Stage::Receive);
        }
        x->readAt = Clock::now();
        error_code ec;
        if (n == 0) {
            if (!x->parser->got_some())
                return fail(x, http::error::end_of_stream, Stage::Receive);
            x->parser->put_eof(ec); // a body that ends with the connection, or one cut short
        } else {
            ec = parse(x, buffer_.data(), size_t(n));
        }
        if (x->parser->stopped()) // the engine stopped it, and said why
            return end(x, TransferEnd{{}, {}, statusOf(x), x->connectMs, x->readAt});
        if (ec)
            return fail(x, ec, Stage::Receive);
        if (x->parser->is_done())
            return complete(x);
        // A server that never stops sending keeps the socket ready at every turn: the request timeout is
        // checked here too.
        if (x->deadline && x->readAt >= *x->deadline)
            return end(x, TransferEnd{Failure::Timeout, "", statusOf(x), x->connectMs, {}});
    }

    // The response's status once its status line is parsed, else 0.
    static int statusOf(const Exchange* x) { return x->parser ? x->parser->status() : 0; }

    // The bytes just read, after what an earlier read left unparsed, through the parser (eager: as far as
    // they go); what it cannot take yet is kept for the next read.
    static error_code parse(Exchange* x, const char* data, size_t size) {
        std::string& unparsed = x->conn->unparsed;
        if (!unparsed.empty()) {
            unparsed.append(data, size);
            data = unparsed.data();
            size = unparsed.size();
        }
        size_t used = 0;
        error_code ec;
        while (used < size && !x->parser->is_done()) {
            const size_t n = x->parser->put(boost::asio::const_buffer(data + used, size - used), ec);
            used += n;
            if (ec == http::error::need_more) {
                ec = {}; // the rest of a header, or of a chunk's size line, is still to come
                break;
            }
            if (ec || n == 0)
                break;
        }
        if (!unparsed.empty())
            unparsed.erase(0, used);
        else if (used < size)
            unparsed.assign(data + used, size - used);
        return ec;
    }

    void complete(Exchange* x) {
        // kept for the next request when the server keeps it and nothing unread is left on it; still
        // watched, so that a close while it idles lets it go
        Connection& c = *x->conn;
        if (x->parser->keep_alive() && c.unparsed.empty() &&
            (setup_.concurrency <= 0 || idle_.size() < size_t(setup_.concurrency))) {
            c.state = Connection::State::Idle;
            c.x = nullptr;
            idle_.push_back(std::move(x->conn));
        }
        end(x, TransferEnd{{}, {}, statusOf(x), x->connectMs, x->readAt});
    }

    void fail(Exchange* x, const error_code& ec, Stage stage) {
        // A kept connection the server closed while it idled: the request goes again on a new one, once,
        // as libcurl does, when nothing of a response came.
        const bool closedWhileIdle =
            ec == http::error::end_of_stream || ec == errc::connection_reset || ec == errc::broken_pipe;
        if (x->reused && !x->retried && stage != Stage::Connect && statusOf(x) == 0 && closedWhileIdle) {
            x->retried = true;
            x->reused = false;
            x->parser.reset();
            retire(x->conn);
            return connect(x, 0);
        }
        end(x, TransferEnd{failureOf(ec, stage),
                           describe(ec, stage, target_),
                           statusOf(x) ? std::optional<int>(statusOf(x)) : std::nullopt,
                           x->connectMs,
                           {}});
    }

    void end(Exchange* x, const TransferEnd& how) {
        setTimer(x, std::nullopt);
        retire(x->conn);
        if (sending_) { // said at the next wait, after send() has returned
            x->endedInSend = how;
            endedInSend_.push_back(x->events);
            return;
        }
        TransferEvents* events = x->events;
        auto node = inFlight_.extract(events);
        if (!node)
            return;
        events->ended(how);
        spare_.push_back(std::move(node));
    }

    // Says the ends found while sending; true if there were any.
    bool endLater() {
        if (endedInSend_.empty())
            return false;
        std::vector<TransferEvents*> pending;
        pending.swap(endedInSend_);
        for (TransferEvents* events : pending)
            // not dropped since (a request sent since at the same address has no end of its own yet)
            if (const auto it = inFlight_.find(events); it != inFlight_.end() && it->second.endedInSend)
                end(&it->second, *it->second.endedInSend);
        return true;
    }

    void setTimer(Exchange* x, std::optional<Clock::time_point> at) {
        if (x->timer)
            timers_.erase(*x->timer);
        x->timer.reset();
        if (at)
            x->timer = timers_.emplace(*at, x);
    }

    // Connect and request timeouts that are due: a connection not made in time, a response not ended.
    void expireTimers() {
        if (timers_.empty())
            return;
        const Clock::time_point now = Clock::now();
        while (!timers_.empty() && timers_.begin()->first <= now) {
            Exchange* x = timers_.begin()->second;
            setTimer(x, std::nullopt);
            const Connection::State state = x->conn ? x->conn->state : Connection::State::Reading;
            fail(x, beast::error::timeout,
                 state == Connection::State::Connecting ? Stage::Connect
                 : state == Connection::State::Writing  ? Stage::Send
                                                        : Stage::Receive);
        }
    }
};

} // namespace

bool nativeCanCarry(const std::string& url) {
    for (const char* proxy : {"http_proxy", "all_proxy", "ALL_PROXY"}) // what libcurl would take for http://
        if (const char* v = std::getenv(proxy); v && *v)
            return false;
    return parseHttpUrl(url).has_value();
}

std::unique_ptr<HttpTransport> makeNativeTransport(const HttpSetup& setup, std::string* why) {
    auto target = parseHttpUrl(setup.url);
    if (!target) {
        *why = "the native HTTP client carries plain http:// URLs only: " + setup.url;
        return nullptr;
    }
    return std::make_unique<NativeTransport>(setup, std::move(*target));
}

std::unique_ptr<HttpTransport> makeTransport(const HttpSetup& setup, HttpClient choice, std::string* why) {
    if (choice == HttpClient::Native || (choice == HttpClient::Auto && nativeCanCarry(setup.url)))
        return makeNativeTransport(setup, why);
    return makeCurlTransport(setup, why);
}

} // namespace rsload
