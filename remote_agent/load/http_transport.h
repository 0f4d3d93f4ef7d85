#pragma once
// How the load engine's requests travel: one interface, two HTTP/1.1 clients.
//  - native (native_transport.cpp): its own epoll loop (poller.h), each response read by Boost.Beast's
//    parser, for plain http:// with no proxy, the usual case inside a cluster. Nothing to install for
//    it (Beast is headers only), and it costs less than wrk a request.
//  - libcurl's multi interface (curl_transport.cpp), for https:// and proxies, opened at run time.
// Both keep every connection alive for the next request, with no cap.
#include "load_model/request_record.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rsload {

using Clock = std::chrono::steady_clock;

// How a request ended, as far as the transport saw it.
struct TransferEnd {
    std::optional<Failure> failure; // none: the response came to its end
    std::string detail; // empty for a timeout the transport cannot tell apart: the engine words it
    std::optional<int> httpStatus;
    std::optional<double> connectMs;         // this request opened its connection, in this long
    std::optional<Clock::time_point> readAt; // when the read that ended the response was made, where one did
};

// What a request tells the engine, in this order: sending (again when the transport retries it on a
// fresh connection), the response's bytes as they arrive, then ended, once.
class TransferEvents {
public:
    virtual void sending(Clock::time_point at) = 0;
    virtual bool received(int httpStatus, const char* data, size_t size,
                          Clock::time_point at) = 0; // false: stop reading
    virtual void ended(const TransferEnd& end) = 0;

protected:
    ~TransferEvents() = default;
};

struct HttpSetup {
    std::string url; // the endpoint's, the same for every request
    std::vector<std::pair<std::string, std::string>> headers;
    double timeoutS = 0; // per request; 0 = none
    double connectTimeoutS = 10;
    int concurrency = 0;   // how many connections to keep when idle; 0 = as many as are open
    std::string caPem;     // https: the certificates to trust instead of the system's
    bool insecure = false; // https: no check of the server's certificate or name
    bool get = false;      // GET with no body (a /metrics scrape), where requests are POSTs
};

class HttpTransport {
public:
    virtual ~HttpTransport() = default;
    // Who carries the requests: "libcurl/7.88.1 OpenSSL/3.0", "rackscope native (epoll, Boost.Beast/300
    // parser, ...)"
    virtual std::string library() const = 0;
    virtual bool send(const std::string& body,
                      TransferEvents* events) = 0; // the body outlives the request; empty with get
    virtual void drop(TransferEvents* events) = 0; // stop one request; ended is not called for it
    // Does the I/O that is due, waiting until `until` at most; returns early after anything happened,
    // or on wake(). False, with `error`, when the event loop itself failed.
    virtual bool wait(Clock::time_point until, std::string* error) = 0;
    virtual void wake() = 0; // from any thread
};

// The client `choice` names (Auto: native where it can carry the URL); nullptr with `why` when it cannot run.
std::unique_ptr<HttpTransport> makeTransport(const HttpSetup& setup, HttpClient choice, std::string* why);

// The two, for makeTransport and the tests that hold both to the same behaviour.
std::unique_ptr<HttpTransport> makeCurlTransport(const HttpSetup& setup, std::string* why);
std::unique_ptr<HttpTransport> makeNativeTransport(const HttpSetup& setup, std::string* why);
bool nativeCanCarry(const std::string& url); // plain http://, and no proxy in the environment

} // namespace rsload
