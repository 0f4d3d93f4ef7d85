// The native client: HTTP/1.1 on Boost.Asio, each response read by Boost.Beast's parser, on the
// engine's thread. Plain http:// with no proxy; https:// and proxies go through libcurl.
#include "http_transport.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/version.hpp>

#include <fcntl.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <limits>
#include <unordered_map>

namespace rsload {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;

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
// chunked or not, to `body` as it is parsed, with the time of the read that brought it. `body` answers
// false to stop: the parse then ends with operation_aborted and `stopped` says so.
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
            ec = asio::error::operation_aborted;
        }
        return piece.size();
    }
    void on_chunk_header_impl(std::uint64_t, beast::string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, beast::string_view piece, error_code& ec) override {
        return on_body_impl(piece, ec);
    }
    void on_finish_impl(error_code&) override {}
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
        // Resolved once a run, as libcurl's cache would keep it for the length of most runs.
        tcp::resolver resolver(io_);
        error_code ec;
        endpoints_ = resolver.resolve(target_.host, target_.port, ec);
        if (ec || endpoints_.empty())
            resolveError_ = "could not resolve " + target_.host + (ec ? ": " + ec.message() : "");
    }

    std::string library() const override {
        return "Boost.Beast/" + std::to_string(BOOST_BEAST_VERSION) + " Boost/" +
               std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000);
    }

    bool send(const std::string& body, TransferEvents* events) override {
        auto owned = std::make_unique<Exchange>();
        Exchange* x = owned.get();
        x->events = events;
        x->body = &body;
        x->head = setup_.get ? head_ + "\r\n"
                             : head_ + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
        if (setup_.timeoutS > 0)
            x->deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(setup_.timeoutS));
        inFlight_[events] = std::move(owned);
        if (!resolveError_.empty()) { // ended after send() returns, as any other failure
            asio::post(io_, [this, x] {
                if (!x->dropped)
                    end(x, TransferEnd{Failure::Connect, resolveError_, {}, {}});
            });
        } else if (!idle_.empty()) {
            x->conn = std::move(idle_.back());
            idle_.pop_back();
            x->reused = true;
            write(x);
        } else {
            connect(x, 0);
        }
        return true;
    }

    void drop(TransferEvents* events) override {
        const auto it = inFlight_.find(events);
        if (it == inFlight_.end())
            return;
        Exchange* x = it->second.get();
        x->dropped = true;
        if (x->conn)
            x->conn->stream.close();               // its pending operation ends, aborted, and is ignored
        dropped_.push_back(std::move(it->second)); // alive until then: the operation holds its buffers
        inFlight_.erase(it);
    }

    bool wait(Clock::time_point until, std::string*) override {
        if (!timerArmed_ || timerAt_ != until) {
            timerAt_ = until;
            timerArmed_ = true;
            timer_.expires_at(until);
            timer_.async_wait([this](const error_code& ec) {
                if (!ec)
                    timerArmed_ = false;
            });
        }
        io_.run_one(); // until something happened: the timer, I/O, or wake()
        // And what else is ready, a bounded number: a server that never stops sending keeps a read
        // ready at every turn, and the engine must get back to its cancel flag and its schedule.
        for (int i = 0; i < kHandlersPerWait && io_.poll_one(); ++i) {
        }
        return true;
    }

    void wake() override {
        asio::post(io_, [] {});
    }

private:
    struct Connection {
        explicit Connection(asio::io_context& io) : stream(io.get_executor()) {}
        // the io_context's own executor, not the type-erased default: a dispatch per operation less
        beast::basic_stream<tcp, asio::io_context::executor_type> stream;
        beast::flat_buffer buffer;
    };

    // One request on its connection.
    struct Exchange {
        TransferEvents* events = nullptr;
        const std::string* body = nullptr;
        std::string head; // request line and headers, this body's length among them
        std::unique_ptr<Connection> conn;
        std::optional<BodyParser> parser;
        std::optional<Clock::time_point> deadline;
        Clock::time_point connectStarted;
        Clock::time_point readAt; // when the bytes parsed now were read
        std::optional<double> connectMs;
        bool reused = false, retried = false, dropped = false;
    };

    static constexpr int kHandlersPerWait = 256;

    // Declared first, destroyed last: every socket is closed before its io_context goes.
    asio::io_context io_{1};
    asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
    asio::steady_timer timer_{io_};
    Clock::time_point timerAt_;
    bool timerArmed_ = false;
    HttpSetup setup_;
    Target target_;
    std::string head_, resolveError_;
    tcp::resolver::results_type endpoints_;
    std::vector<std::unique_ptr<Connection>> idle_;
    std::unordered_map<TransferEvents*, std::unique_ptr<Exchange>> inFlight_;
    std::vector<std::unique_ptr<Exchange>> dropped_;

    void setExpiry(Connection& c, std::optional<Clock::time_point> at) {
        if (at)
            c.stream.expires_at(*at);
        else
            c.stream.expires_never();
    }

    void connect(Exchange* x, size_t endpoint) {
        if (endpoint == 0)
            x->connectStarted = Clock::now();
        x->conn = std::make_unique<Connection>(io_);
        const tcp::endpoint to = std::next(endpoints_.begin(), std::ptrdiff_t(endpoint))->endpoint();
        error_code opened;
        x->conn->stream.socket().open(to.protocol(), opened);
        if (opened)
            return fail(x, opened, Stage::Connect);
        ::fcntl(x->conn->stream.socket().native_handle(), F_SETFD,
                FD_CLOEXEC); // nothing the agent starts inherits it
        std::optional<Clock::time_point> limit = x->deadline;
        if (setup_.connectTimeoutS > 0) {
            const auto byConnect =
                x->connectStarted + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(setup_.connectTimeoutS));
            limit = limit ? std::min(*limit, byConnect) : byConnect;
        }
        setExpiry(*x->conn, limit);
        x->conn->stream.async_connect(to, [this, x, endpoint](const error_code& ec) {
            if (x->dropped)
                return;
            if (ec && ec != beast::error::timeout && endpoint + 1 < endpoints_.size())
                return connect(x, endpoint + 1); // the host's next address
            if (ec)
                return fail(x, ec, Stage::Connect);
            error_code ignored;
            x->conn->stream.socket().set_option(tcp::no_delay(true), ignored);
            x->conn->stream.socket().non_blocking(true, ignored); // write() never waits
            x->connectMs = msSince(x->connectStarted);
            write(x);
        });
    }

    // The request is written at once where the socket takes it all (nearly always: it is small), without
    // a round through the event loop; what it does not take is written when it can.
    void write(Exchange* x) {
        setExpiry(*x->conn, x->deadline);
        x->events->sending(Clock::now());
        const std::array<asio::const_buffer, 2> request{asio::buffer(x->head), asio::buffer(*x->body)};
        error_code ec;
        const size_t written = x->conn->stream.socket().write_some(request, ec);
        if (ec && ec != asio::error::would_block) // ended after send() returns, as any other failure
            return asio::post(io_, [this, x, ec] {
                if (!x->dropped)
                    fail(x, ec, Stage::Send);
            });
        if (written == asio::buffer_size(request))
            return awaitResponse(x);
        beast::buffers_suffix<std::array<asio::const_buffer, 2>> rest(request);
        rest.consume(written);
        asio::async_write(x->conn->stream, rest, [this, x](const error_code& error, size_t) {
            if (x->dropped)
                return;
            if (error)
                return fail(x, error, Stage::Send);
            awaitResponse(x);
        });
    }

    void awaitResponse(Exchange* x) {
        x->parser.emplace([x](int status, beast::string_view piece) {
            return x->events->received(status, piece.data(), piece.size(), x->readAt);
        });
        read(x);
    }

    // One read of the socket, and what it brought parsed at once: each piece of the body is timed by the
    // read that brought it.
    void read(Exchange* x) {
        Connection& c = *x->conn;
        c.stream.async_read_some(
            c.buffer.prepare(beast::read_size(c.buffer, 65536)), [this, x](error_code ec, size_t n) {
                if (x->dropped)
                    return;
                x->readAt = Clock::now();
                if (ec == asio::error::eof) {
                    if (!x->parser->got_some())
                        return fail(x, http::error::end_of_stream, Stage::Receive);
                    ec = {};
                    x->parser->put_eof(ec); // a body that ends with the connection, or one cut short
                } else if (!ec) {
                    x->conn->buffer.commit(n);
                    ec = parse(x);
                }
                if (x->parser->stopped()) {
                    x->conn.reset(); // the engine stopped it, and said why
                    return end(x, TransferEnd{{}, {}, statusOf(x), x->connectMs});
                }
                if (ec)
                    return fail(x, ec, Stage::Receive);
                if (x->parser->is_done())
                    return complete(x);
                // The stream's own timer loses every race to a read that data is already waiting for, so
                // under a flood it would never fire: the request timeout is checked here too.
                if (x->deadline && x->readAt >= *x->deadline) {
                    x->conn.reset();
                    return end(x, TransferEnd{Failure::Timeout, "", statusOf(x), x->connectMs});
                }
                read(x);
            });
    }

    // The response's status once its status line is parsed, else 0.
    static int statusOf(const Exchange* x) { return x->parser ? x->parser->status() : 0; }

    // What the connection's buffer holds, through the parser (eager: as far as it goes in one call).
    static error_code parse(Exchange* x) {
        beast::flat_buffer& buffer = x->conn->buffer;
        error_code ec;
        while (buffer.size() > 0 && !x->parser->is_done()) {
            const size_t used = x->parser->put(buffer.data(), ec);
            buffer.consume(used);
            if (ec == http::error::need_more)
                return {}; // the rest of a header, or of a chunk's size line, is still to come
            if (ec || used == 0)
                break;
        }
        return ec;
    }

    void complete(Exchange* x) {
        // kept for the next request when the server keeps it and nothing unread is left on it
        if (x->parser->keep_alive() && x->conn->buffer.size() == 0 &&
            (setup_.concurrency <= 0 || idle_.size() < size_t(setup_.concurrency)))
            idle_.push_back(std::move(x->conn));
        end(x, TransferEnd{{}, {}, statusOf(x), x->connectMs});
    }

    void fail(Exchange* x, const error_code& ec, Stage stage) {
        // A kept connection the server closed while it idled: the request goes again on a new one, once,
        // as libcurl does, when nothing of a response came.
        const bool closedWhileIdle = ec == http::error::end_of_stream ||
                                     ec == asio::error::connection_reset || ec == asio::error::broken_pipe;
        if (x->reused && !x->retried && stage != Stage::Connect && statusOf(x) == 0 && closedWhileIdle) {
            x->retried = true;
            x->reused = false;
            x->parser.reset();
            return connect(x, 0);
        }
        x->conn.reset();
        end(x, TransferEnd{failureOf(ec, stage), describe(ec, stage, target_),
                           statusOf(x) ? std::optional<int>(statusOf(x)) : std::nullopt, x->connectMs});
    }

    void end(Exchange* x, const TransferEnd& how) {
        TransferEvents* events = x->events;
        auto node = inFlight_.extract(events); // freed when this returns
        if (node)
            events->ended(how);
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
