// The load engine against the project's own OpenAI-compatible server, over
// real sockets: every scripted fault is reported as what it is, nothing is
// counted twice, the load shapes keep their schedule and their caps, warm-up
// stays out, a cancel loses nothing. (The timing error bounds at 1000
// streams are measured in tests/bench/bench_load.cpp, not asserted here.)
#include "load/http_transport.h"
#include "load/load_engine.h"
#include "load_model/load_summary.h"
#include "load_model/prompts.h"
#include "load_model/trace_file.h"
#include "load_test_server.h"
#include "tls_front.h"

#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <thread>

using namespace rsload;
using rackscope::test::LoadTestServer;
using rackscope::test::TlsFront;

namespace {

// The whole suite runs once for each HTTP client (main, below): both must behave the same.
HttpClient client = HttpClient::Native;

LoadSpec specFor(const LoadTestServer& server, const std::string& script, int64_t requests = 8,
                 int concurrency = 4) {
    LoadSpec s;
    s.url = server.url();
    s.model = "test-model";
    s.requests = requests;
    s.concurrency = concurrency;
    s.inputLen = {LengthDist::Kind::Fixed, 50, 0};
    s.outputLen = {LengthDist::Kind::Fixed, 8, 0};
    s.ignoreEos = true;
    s.seed = 42;
    s.client = "test";
    s.httpClient = client;
    if (!script.empty())
        s.headers = {{"X-Test-Script", script}};
    return s;
}

struct Run {
    std::vector<RequestRecord> records;
    LoadOutcome outcome;
    std::vector<LoadProgress> progress;
    std::vector<ServerSample> server;
};

Run runLoad(LoadSpec spec, std::function<void(LoadEngine&)> during = {}) {
    Run r;
    LoadEngine engine(std::move(spec), {[&](const RequestRecord& rec) { r.records.push_back(rec); },
                                        [&](const LoadProgress& p) { r.progress.push_back(p); }, 0.05,
                                        [&](const ServerSample& s) { r.server.push_back(s); }});
    std::thread side;
    if (during)
        side = std::thread([&] { during(engine); });
    r.outcome = engine.run();
    if (side.joinable())
        side.join();
    return r;
}

// Answers every connection with the same raw bytes, once it has read the request, and closes: for what no
// OpenAI-compatible server would send (not HTTP, cut short, oversized, random bytes).
class RawReplyServer {
public:
    explicit RawReplyServer(std::string reply) : reply_(std::move(reply)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(listener_, reinterpret_cast<sockaddr*>(&a), len) != 0 || ::listen(listener_, 64) != 0 ||
            ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            return;
        port_ = ntohs(a.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~RawReplyServer() {
        ::shutdown(listener_, SHUT_RDWR); // accept() returns
        if (thread_.joinable())
            thread_.join();
        ::close(listener_);
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

private:
    std::string reply_;
    int listener_ = -1, port_ = 0;
    std::thread thread_;

    void serve() {
        for (int c; (c = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
            const timeval wait{2, 0};
            ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
            std::string request; // the whole of it, so closing sends FIN, not a reset for unread bytes
            char buf[4096];
            size_t need = std::string::npos;
            while (need == std::string::npos || request.size() < need) {
                const ssize_t n = ::read(c, buf, sizeof buf);
                if (n <= 0)
                    break;
                request.append(buf, size_t(n));
                if (const size_t end = request.find("\r\n\r\n");
                    need == std::string::npos && end != std::string::npos) {
                    std::string head = request.substr(0, end);
                    std::transform(head.begin(), head.end(), head.begin(),
                                   [](unsigned char ch) { return char(std::tolower(ch)); });
                    const size_t at = head.find("content-length:");
                    need = end + 4 + (at == std::string::npos ? 0 : std::stoul(head.substr(at + 15)));
                }
            }
            for (size_t sent = 0; sent < reply_.size();) {
                const ssize_t n = ::send(c, reply_.data() + sent, reply_.size() - sent, MSG_NOSIGNAL);
                if (n <= 0)
                    break;
                sent += size_t(n);
            }
            ::shutdown(c, SHUT_WR);
            while (::read(c, buf, sizeof buf) > 0) {
            }
            ::close(c);
        }
    }
};

void expectAll(const Run& run, Failure want, size_t count) {
    QVERIFY2(run.outcome.error.empty(), run.outcome.error.c_str());
    QCOMPARE(run.records.size(), count);
    for (const RequestRecord& r : run.records)
        QVERIFY2(r.failure == want, (std::string(failureName(r.failure)) + ": " + r.error).c_str());
}

} // namespace

class TestLoadEngine : public QObject {
    Q_OBJECT
    LoadTestServer server_;

private slots:
    void initTestCase() { QVERIFY(server_.ok()); }

    void aCleanStreamIsMeasuredAndCountedOnce() {
        for (Endpoint e : {Endpoint::ChatCompletions, Endpoint::Completions}) {
            LoadSpec spec = specFor(server_, "ttft=30;tpot=5");
            spec.endpoint = e;
            const Run run = runLoad(spec);
            expectAll(run, Failure::Ok, 8);
            for (const RequestRecord& r : run.records) {
                QCOMPARE(r.outputTokens.value_or(-1), int64_t(8));
                QCOMPARE(r.outputTokensSource, std::string("usage"));
                QCOMPARE(r.inputTokens.value_or(-1), int64_t(50)); // the server counted our 50 words
                QCOMPARE(r.inputTokensSource, std::string("usage"));
                QCOMPARE(r.chunks, int64_t(8)); // the role-only chunk is not a token
                QCOMPARE(r.itlMs.size(), size_t(7));
                // The server writes each token at its scripted moment or later (a loaded server writes late,
                // and then catches up, so a gap can be shorter than scripted): TTFT and E2E are at least the
                // schedule's. The upper margins are what a loaded 2-core machine needs and still catch a
                // wrong unit or start.
                QVERIFY2(*r.ttftMs >= 30 && *r.ttftMs < 30 + 1000, std::to_string(*r.ttftMs).c_str());
                QVERIFY2(*r.e2elMs >= 30 + 7 * 5 - 0.5, std::to_string(*r.e2elMs).c_str());
                QVERIFY2(*r.tpotMs() > 0 && *r.tpotMs() < 5 + 200, std::to_string(*r.tpotMs()).c_str());
                QCOMPARE(r.finishReason.value_or(""), std::string("length"));
                QCOMPARE(r.httpStatus.value_or(0), 200);
            }
            // four streams, then their connections again: keep-alive
            const auto fresh = std::count_if(run.records.begin(), run.records.end(),
                                             [](const RequestRecord& r) { return r.connectMs.has_value(); });
            QCOMPARE(fresh, 4);
            QCOMPARE(run.progress.back().completed, int64_t(8));
            QCOMPARE(run.progress.back().inFlight, int64_t(0));
        }
    }

    void oddButValidStreamsParseTheSame() {
        // events split across reads, several in one read, keep-alive comments, empty chunks
        for (const char* script : {"ttft=5;tpot=2;split", "ttft=5;tpot=2;batch", "ttft=5;tpot=2;comments",
                                   "ttft=5;tpot=2;empty", "ttft=5;tpot=2;split;comments;empty"}) {
            const Run run = runLoad(specFor(server_, script, 4, 2));
            expectAll(run, Failure::Ok, 4);
            for (const RequestRecord& r : run.records) {
                QCOMPARE(r.chunks, int64_t(8));
                QCOMPARE(r.outputTokens.value_or(-1), int64_t(8));
            }
        }
    }

    void multiTokenChunksAreTimedPerToken() {
        LoadSpec spec = specFor(server_, "ttft=5;tpot=3;chunk=4");
        spec.outputLen = {LengthDist::Kind::Fixed, 16, 0};
        spec.continuousUsage = true;
        const Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 8);
        for (const RequestRecord& r : run.records) {
            QCOMPARE(r.chunks, int64_t(4));
            QCOMPARE(r.chunkTokens, (std::vector<int>{4, 4, 4, 4}));
            QCOMPARE(r.outputTokens.value_or(-1), int64_t(16)); // the cumulative count, never a sum of counts
        }
        const LoadSummary s = summarize(run.records, {}, {50});
        QVERIFY(s.itlPerToken);
        QCOMPARE(s.itlPerToken->count, size_t(8 * 12));
        QVERIFY2(s.itlPerToken->median > 0 && s.itlPerToken->median < 3 + 100,
                 std::to_string(s.itlPerToken->median).c_str());
        for (const RequestRecord& r : run.records)
            QVERIFY2(*r.e2elMs >= 5 + 3 * 12 - 0.5,
                     std::to_string(*r.e2elMs).c_str()); // the last chunk's moment
        // A chunk's gap holds four tokens' time: each token stands for a quarter of its chunk's gap.
        QVERIFY2(std::abs(s.metrics.at("itl").median / 4 - s.itlPerToken->median) < 1e-9,
                 std::to_string(s.metrics.at("itl").median).c_str());
    }

    void everyFaultIsReportedAsWhatItIs() {
        struct Case {
            const char* script;
            Failure failure;
            const char* says;
        };
        const Case cases[] = {
            {"ttft=5;tpot=2;fault=error@3", Failure::StreamError,
             "scripted failure in the stream (InternalServerError, 500)"},
            {"ttft=5;tpot=2;fault=drop@3", Failure::Dropped, ""},
            {"ttft=5;tpot=2;fault=garbage@2", Failure::Protocol, "not JSON"},
            {"ttft=5;fault=http-500", Failure::Http, "HTTP 500: scripted failure (InternalServerError, 500)"},
            {"ttft=5;fault=http-429-flat", Failure::Http,
             "HTTP 429: scripted overload (TooManyRequests, 429)"},
            {"ttft=5;tpot=2;fault=drop@0", Failure::Dropped, ""},
        };
        for (const Case& c : cases) {
            const Run run = runLoad(specFor(server_, c.script, 4, 2));
            expectAll(run, c.failure, 4);
            for (const RequestRecord& r : run.records)
                QVERIFY2(QString::fromStdString(r.error).contains(c.says), r.error.c_str());
            if (c.failure == Failure::StreamError ||
                std::string(c.script).find("drop@3") != std::string::npos) {
                // what arrived before the fault is kept
                for (const RequestRecord& r : run.records)
                    QCOMPARE(r.chunks, int64_t(3));
            }
            const LoadSummary s = summarize(run.records, {}, {99});
            QCOMPARE(s.failed, size_t(4));
            QCOMPARE(s.failuresByKind.at(failureName(c.failure)), size_t(4));
            QCOMPARE(s.metrics.at("ttft").count, size_t(0)); // failed requests are not in the latencies
        }
        // a stream without [DONE] that finished its choice is whole; one cut before is not
        expectAll(runLoad(specFor(server_, "ttft=5;tpot=2;no-done", 2, 1)), Failure::Ok, 2);
    }

    // Bytes no HTTP server should send: each request fails with a clear error, nothing is counted twice,
    // and the run goes on to its end.
    void responsesThatAreNotHttpFailClearly() {
        std::mt19937 random(7);
        std::string noise(4096, '\0');
        for (char& ch : noise)
            ch = char(random());
        const std::string ok = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n";
        struct Case {
            const char* what;
            std::string reply;
            std::vector<Failure> allowed; // the clients' parsers name some of these differently
        };
        const Case cases[] = {
            {"not HTTP", "HELLO THERE\r\n\r\n", {Failure::Protocol}},
            {"random bytes", noise, {Failure::Protocol, Failure::Dropped}},
            {"a status line cut short", "HTTP/1.1 200 O", {Failure::Protocol, Failure::Dropped}},
            {"headers cut short",
             ok + "Transfer-Encoding: chunked\r\nX-",
             {Failure::Protocol, Failure::Dropped}},
            {"a header of 256 KiB",
             ok + "X-Big: " + std::string(256 * 1024, 'a') + "\r\n\r\n",
             {Failure::Protocol, Failure::Dropped}},
            {"a chunk size that is not hex",
             ok + "Transfer-Encoding: chunked\r\n\r\nZZ\r\ndata\r\n",
             {Failure::Protocol, Failure::Dropped}},
            {"a body shorter than its length",
             ok + "Content-Length: 500\r\n\r\ndata: {}\n\n",
             {Failure::Dropped}},
            {"an empty reply", "", {Failure::Dropped}},
        };
        for (const Case& c : cases) {
            RawReplyServer raw(c.reply);
            LoadSpec spec = specFor(server_, "", 3, 2);
            spec.url = raw.url();
            spec.timeoutS = 5;
            const Run run = runLoad(spec);
            QVERIFY2(run.outcome.error.empty(), run.outcome.error.c_str());
            QCOMPARE(run.records.size(), size_t(3));
            for (const RequestRecord& r : run.records) {
                const bool allowed =
                    std::find(c.allowed.begin(), c.allowed.end(), r.failure) != c.allowed.end();
                QVERIFY2(allowed && !r.error.empty(),
                         (std::string(c.what) + ": " + failureName(r.failure) + ": " + r.error).c_str());
            }
        }
    }

    void aRefusedConnectionAndATimeout() {
        LoadSpec refused = specFor(server_, "", 2, 1);
        refused.url = "http://127.0.0.1:1/v1";
        expectAll(runLoad(refused), Failure::Connect, 2);
        LoadSpec slow = specFor(server_, "ttft=3000", 2, 2);
        slow.timeoutS = 0.2;
        const Run run = runLoad(slow);
        expectAll(run, Failure::Timeout, 2);
        for (const RequestRecord& r : run.records)
            QVERIFY2(r.error == "no end within the request timeout of 0.2 s", r.error.c_str());
    }

    // A server whose accept queue is full drops each new connection's SYN, so a connection is never made: the
    // connect timeout ends each request, as what it is.
    void aConnectionNotMadeInTimeIsATimeout() {
        const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        QVERIFY(::bind(listener, reinterpret_cast<sockaddr*>(&a), len) == 0 && ::listen(listener, 0) == 0 &&
                ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) == 0);
        const int filler = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0); // the queue's one place taken
        QVERIFY(::connect(filler, reinterpret_cast<sockaddr*>(&a), len) == 0);
        LoadSpec spec = specFor(server_, "", 2, 2);
        spec.url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/v1";
        spec.connectTimeoutS = 0.3;
        const auto start = std::chrono::steady_clock::now();
        const Run run = runLoad(spec);
        const double tookS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ::close(filler);
        ::close(listener);
        expectAll(run, Failure::Timeout, 2);
        for (const RequestRecord& r :
             run.records) // "no connection to HOST in time", "... within the connect timeout"
            QVERIFY2(r.error.find("no connection") == 0, r.error.c_str());
        QVERIFY2(tookS < 30,
                 std::to_string(tookS).c_str()); // ended by the timeout, not by the kernel's retries
    }

    // localhost has two addresses here (::1 and 127.0.0.1), and the server listens on one: the next is tried.
    void aHostNameIsResolvedAndEachAddressTried() {
        LoadSpec spec = specFor(server_, "ttft=1;tpot=1", 2, 1);
        spec.url = "http://localhost:" + std::to_string(server_.port()) + "/v1";
        expectAll(runLoad(spec), Failure::Ok, 2);
    }

    void aSlowAcceptShowsInTheTimeToFirstToken() {
        LoadTestServer slow({"--accept-delay-ms", "300", "--script", "ttft=10;tpot=1"});
        QVERIFY(slow.ok());
        const Run run = runLoad(specFor(slow, "", 2, 2));
        expectAll(run, Failure::Ok, 2);
        for (const RequestRecord& r : run.records)
            QVERIFY2(*r.ttftMs >= 300, std::to_string(*r.ttftMs).c_str());
        LoadSpec impatient = specFor(slow, "", 2, 2);
        impatient.timeoutS = 0.15;
        expectAll(runLoad(impatient), Failure::Timeout, 2);
    }

    void anUnknownModelRouteIsAnHttpError() {
        LoadSpec spec = specFor(server_, "", 1, 1);
        spec.url = server_.url() + "/nope";
        const Run run = runLoad(spec);
        expectAll(run, Failure::Http, 1);
        QCOMPARE(run.records[0].httpStatus.value_or(0), 404);
    }

    void theConcurrencyCapHoldsAndIsReached() {
        const Run run = runLoad(specFor(server_, "ttft=20;tpot=2", 40, 6));
        expectAll(run, Failure::Ok, 40);
        // the most requests in flight at once, from the records' own times
        std::vector<std::pair<double, int>> edges;
        for (const RequestRecord& r : run.records) {
            edges.emplace_back(r.sentS, 1);
            edges.emplace_back(r.sentS + *r.e2elMs / 1000.0, -1);
        }
        std::sort(edges.begin(), edges.end(), [](auto a, auto b) {
            return a.first != b.first ? a.first < b.first : a.second < b.second;
        });
        int inFlight = 0, most = 0;
        for (auto [t, d] : edges)
            most = std::max(most, inFlight += d);
        QVERIFY2(most <= 6, std::to_string(most).c_str());
        QCOMPARE(std::count_if(run.records.begin(), run.records.end(),
                               [](const RequestRecord& r) { return r.connectMs.has_value(); }),
                 6);
        for (const RequestRecord& r :
             run.records) // a closed loop: scheduled when a slot frees (the same, up to rounding)
            QVERIFY2(std::abs(r.queueMs - r.clientDelayMs) < 1e-6,
                     qPrintable(QStringLiteral("%1 %2").arg(r.queueMs).arg(r.clientDelayMs)));
    }

    void arrivalsFollowTheRateAndTheBurstiness() {
        auto gaps = [&](double burstiness) {
            LoadSpec spec = specFor(server_, "ttft=1;tpot=0", 600, 0);
            spec.rate = 1000;
            spec.burstiness = burstiness;
            spec.outputLen = {LengthDist::Kind::Fixed, 1, 0};
            const Run run = runLoad(spec);
            expectAll(run, Failure::Ok, 600);
            std::vector<double> scheduled;
            for (const RequestRecord& r : run.records)
                scheduled.push_back(r.scheduledS);
            std::sort(scheduled.begin(), scheduled.end());
            std::vector<double> g;
            for (size_t i = 1; i < scheduled.size(); ++i)
                g.push_back(scheduled[i] - scheduled[i - 1]);
            const MetricStats m = statsOf(g, {});
            return std::pair(m.mean, m.stddev / m.mean);
        };
        const auto [poissonMean, poissonCv] = gaps(1.0);
        QVERIFY2(poissonMean > 0.0009 && poissonMean < 0.0011, std::to_string(poissonMean).c_str());
        QVERIFY2(poissonCv > 0.85 && poissonCv < 1.15,
                 std::to_string(poissonCv).c_str()); // exponential gaps: CV 1
        const auto [burstyMean, burstyCv] = gaps(0.25);
        QVERIFY(burstyMean > 0.0008 && burstyMean < 0.0012);
        QVERIFY2(burstyCv > 1.6, std::to_string(burstyCv).c_str()); // gamma(0.25): CV 2
    }

    void warmupStaysOutAndTheDurationStopsSending() {
        LoadSpec spec = specFor(server_, "ttft=5;tpot=1", 6, 3);
        spec.warmup = 4;
        const Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 10);
        QCOMPARE(std::count_if(run.records.begin(), run.records.end(),
                               [](const RequestRecord& r) { return r.warmup; }),
                 4);
        for (const RequestRecord& r : run.records)
            if (!r.warmup)
                QVERIFY(r.sentS >= 0);
        QCOMPARE(summarize(run.records, {}, {50}).completed, size_t(6));

        LoadSpec timed = specFor(server_, "ttft=5;tpot=1", 0, 2);
        timed.durationS = 0.3;
        const Run t = runLoad(timed);
        QVERIFY(t.records.size() >= 4);
        for (const RequestRecord& r : t.records)
            QVERIFY(r.scheduledS < 0.3); // one due at 0.2999 may go out just after
    }

    // A server's keep-alive timeout closes idle connections: each request then finds its cached connection
    // dead and opens another, and the closes in between do not keep the engine busy.
    void idleConnectionsTheServerClosesAreReplaced() {
        LoadSpec spec = specFor(server_, "ttft=1;tpot=1;idle-close=2", 20, 0);
        spec.rate = 20;         // a request every 50 ms: the last connection was closed some 40 ms before
        spec.burstiness = 1000; // evenly spaced
        rusage before{}, after{};
        ::getrusage(RUSAGE_THREAD, &before);
        const auto start = std::chrono::steady_clock::now();
        const Run run = runLoad(spec);
        const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ::getrusage(RUSAGE_THREAD, &after);
        expectAll(run, Failure::Ok, 20);
        QCOMPARE(std::count_if(run.records.begin(), run.records.end(),
                               [](const RequestRecord& r) { return r.connectMs.has_value(); }),
                 20);
        auto cpuS = [](const rusage& u) {
            return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                   double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
        };
        // a closed socket left in epoll would wake the loop for nothing until the next request: 80% of the
        // time
        QVERIFY2(
            cpuS(after) - cpuS(before) < 0.25 * wallS,
            qPrintable(QStringLiteral("%1 s of CPU in %2 s").arg(cpuS(after) - cpuS(before)).arg(wallS)));
    }

    // With a proxy in the environment, libcurl carries the run and reads the proxy once per run, as it
    // would read it per request; without one, plain http goes native.
    void theProxyEnvironmentIsHonoured() {
        LoadSpec spec = specFor(server_, "ttft=1;tpot=1", 2, 1);
        spec.httpClient = HttpClient::Auto;
        const Run plain = runLoad(spec);
        qputenv("http_proxy", "http://127.0.0.1:1"); // nothing listens there
        const Run viaProxy = runLoad(spec);
        qputenv("no_proxy", "127.0.0.1");
        const Run direct = runLoad(spec);
        qunsetenv("http_proxy");
        qunsetenv("no_proxy");
        expectAll(plain, Failure::Ok, 2);
        QVERIFY2(plain.outcome.httpClient.rfind("rackscope native", 0) == 0,
                 plain.outcome.httpClient.c_str());
        expectAll(viaProxy, Failure::Connect, 2);
        QVERIFY2(viaProxy.outcome.httpClient.rfind("libcurl/", 0) == 0, viaProxy.outcome.httpClient.c_str());
        expectAll(direct, Failure::Ok, 2);
    }

    void eachClientSaysWhoItIs() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=1", 1, 1));
        expectAll(run, Failure::Ok, 1);
        const char* want = client == HttpClient::Native ? "rackscope native" : "libcurl/";
        QVERIFY2(run.outcome.httpClient.rfind(want, 0) == 0, run.outcome.httpClient.c_str());
    }

    // The native client leaves https and odd URLs to libcurl, and says so when it is asked for one.
    void theNativeClientRefusesWhatItCannotCarry() {
        LoadSpec spec = specFor(server_, "", 1, 1);
        spec.httpClient = HttpClient::Native;
        spec.url = "https://127.0.0.1:1/v1";
        const Run run = runLoad(spec);
        QVERIFY2(QString::fromStdString(run.outcome.error).contains("http://"), run.outcome.error.c_str());
        QVERIFY(run.records.empty());
        QVERIFY(!nativeCanCarry("https://h/v1"));
        QVERIFY(!nativeCanCarry("http://user@h/v1"));
        QVERIFY(!nativeCanCarry("http://h:notaport/v1"));
        QVERIFY(nativeCanCarry("http://[::1]:8000/v1"));
        QVERIFY(nativeCanCarry("http://node3:8000/v1"));
    }

    // https through a real TLS terminator: trusted with the certificates given with the run, refused without
    // them or for a certificate of another name (in libcurl's words on which check failed), carried unchecked
    // when asked.
    void httpsIsCheckedAgainstTheGivenCertificates() {
        if (client == HttpClient::Native)
            QSKIP(
                "https is libcurl's; the native client refuses it (theNativeClientRefusesWhatItCannotCarry)");
        QTemporaryDir dir;
        TlsFront front(dir.path(), QStringLiteral("ip"), server_.port());
        QVERIFY2(front.ok(), qPrintable(front.error()));
        LoadSpec spec = specFor(server_, "ttft=20;tpot=2", 4, 2);
        spec.url = front.url();
        spec.caPem = front.certPem();
        const Run trusted = runLoad(spec);
        expectAll(trusted, Failure::Ok, 4);
        QVERIFY2(trusted.outcome.httpClient.rfind("libcurl/", 0) == 0, trusted.outcome.httpClient.c_str());
        for (const RequestRecord& r : trusted.records) {
            QVERIFY(*r.ttftMs >= 20);
            QCOMPARE(r.outputTokens.value_or(-1), int64_t(8));
        }

        spec.caPem.clear(); // the system's certificates do not know this one
        const Run untrusted = runLoad(spec);
        expectAll(untrusted, Failure::Connect, 4);
        for (const RequestRecord& r : untrusted.records)
            QVERIFY2(QString::fromStdString(r.error).contains("certificate"), r.error.c_str());

        spec.insecure = true;
        expectAll(runLoad(spec), Failure::Ok, 4);

        TlsFront elsewhere(dir.path(), QStringLiteral("dns"), server_.port(),
                           QStringLiteral("DNS:elsewhere.example"));
        QVERIFY2(elsewhere.ok(), qPrintable(elsewhere.error()));
        spec.url = elsewhere.url();
        spec.insecure = false;
        spec.caPem = elsewhere.certPem();
        const Run wrongName = runLoad(spec);
        expectAll(wrongName, Failure::Connect, 4);
        for (const RequestRecord& r : wrongName.records)
            QVERIFY2(QString::fromStdString(r.error).contains("127.0.0.1"), r.error.c_str());
    }

    void tlsOptionsAreForHttpsAndCaFilesArePem() {
        LoadSpec spec = specFor(server_, "", 1, 1);
        spec.insecure = true;
        QCOMPARE(validate(spec).size(), size_t(1)); // an http:// URL
        spec.url = "https://h/v1";
        QVERIFY(validate(spec).empty());
        spec.caPem = "not a certificate";
        QCOMPARE(validate(spec).size(), size_t(1));
        spec.caPem = "-----BEGIN CERTIFICATE-----\n" + std::string(kMaxCaPemBytes, 'A');
        QCOMPARE(validate(spec).size(), size_t(1));
        spec.caPem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        std::string why;
        const auto back = loadSpecFromJson(toJson(spec), &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->caPem, spec.caPem);
        QVERIFY(back->insecure);
    }

    void aCancelLosesNothing() {
        LoadSpec spec = specFor(server_, "ttft=5;tpot=50", 0, 5);
        spec.durationS = 30;
        const Run run = runLoad(spec, [](LoadEngine& e) {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            e.cancel();
        });
        QVERIFY(run.outcome.cancelled);
        QCOMPARE(int64_t(run.records.size()), run.progress.back().sent); // every request sent has its record
        const auto cancelled =
            std::count_if(run.records.begin(), run.records.end(),
                          [](const RequestRecord& r) { return r.failure == Failure::Cancelled; });
        QCOMPARE(cancelled, 5);
        for (const RequestRecord& r : run.records)
            if (r.failure == Failure::Cancelled)
                QVERIFY(r.chunks > 0); // what arrived is kept
    }

    void withoutAStreamTheWholeResponseCounts() {
        LoadSpec spec = specFor(server_, "ttft=10;tpot=1", 6, 3);
        spec.stream = false;
        const Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 6);
        for (const RequestRecord& r : run.records) {
            QCOMPARE(r.outputTokens.value_or(-1), int64_t(8));
            QCOMPARE(*r.ttftMs, *r.e2elMs);
        }
    }

    // The plain-rate bench's server: every completion gets one prepared response at once, its request
    // read whole and its body left unread, on connections kept; what is not a completion is answered as
    // by the full server.
    void theFixedAnswerServerAnswersEveryCompletionAtOnce() {
        LoadTestServer fixed({QStringLiteral("--fixed-answer")});
        QVERIFY(fixed.ok());
        LoadSpec spec = specFor(fixed, "", 200, 8);
        spec.endpoint = Endpoint::Completions;
        spec.stream = false;
        Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 200);
        for (const RequestRecord& r : run.records) {
            QCOMPARE(r.outputTokens.value_or(-1), int64_t(1));
            QCOMPARE(r.inputTokens.value_or(-1), int64_t(8));
            QVERIFY(!r.connectMs || r.index < 8); // a connection each stream, kept
        }
        spec = specFor(fixed, "ttft=50;tpot=1", 4, 2);
        spec.endpoint = Endpoint::ChatCompletions;
        run = runLoad(spec);
        expectAll(run, Failure::Ok, 4);
        for (const RequestRecord& r : run.records) {
            QCOMPARE(r.outputTokens.value_or(-1), int64_t(8));
            QVERIFY2(r.ttftMs.value_or(0) >= 49, "the script runs from the request's arrival");
        }
    }

    // Each real exposition in the fixtures, served with live values by the test server (running up to its 4
    // slots, the rest waiting, a preemption for each request that found every slot taken, half the prompt
    // words prefix hits): the engine's scrapes read them on the run's time axis, and what the test server
    // says was true is what the last scrape read.
    void serverMetricsAreScrapedDuringTheRun() {
        struct Case {
            const char* file;
            const char* server;
            bool load, prefix; // the exposition names the running and waiting requests, prefix-cache counters
        };
        const Case cases[] = {
            {"vllm-metrics_v1-engine-qwen2.5-coder-32b-gpu-cache-usage-perc_excerpt.prom", "vLLM", true,
             false},
            {"vllm-metrics_v0.10.0-glm4.5-engine-label-deprecated-prefix-cache_excerpt.prom", "vLLM", false,
             true},
            {"sglang-metrics_llama3.1-8b-instruct_docs-example-scrape.prom", "SGLang", true, false},
            {"sglang-metrics_engine-type-unified-llama3-8b-gauges_pr4412_excerpt.prom", "SGLang", false,
             false},
            {"tgis-vllm-adapter-metrics_tgi-batch-inference-duration-dict-label_excerpt.prom", "TGI", true,
             false},
            {"triton-tensorrtllm-backend-metrics_ensemble-preprocessing-postprocessing_excerpt.prom",
             "Triton", false, false},
            {"trtllm-serve-prometheus-metrics_qwen3-8b-engine-type-undefined_excerpt.prom",
             "TensorRT-LLM (trtllm-serve)", false, false},
        };
        for (const Case& c : cases) {
            const QString path = QStringLiteral(RACKSCOPE_INCOMING_FIXTURES_DIR "/") + QLatin1String(c.file);
            LoadTestServer server({"--metrics", path, "--kv-slots", "4", "--script", "ttft=300;tpot=20"});
            QVERIFY2(server.ok(), c.file);
            LoadSpec spec = specFor(server, "", 12, 6);
            spec.metricsUrl = defaultMetricsUrl(spec.url);
            spec.scrapeIntervalS = 0.1;
            const Run run = runLoad(spec);
            expectAll(run, Failure::Ok, 12);
            QVERIFY2(run.server.size() >= 3, c.file); // the first, at least one during, and the last
            for (size_t i = 0; i < run.server.size(); ++i) {
                const ServerSample& s = run.server[i];
                QVERIFY2(s.error.empty(), (std::string(c.file) + ": " + s.error).c_str());
                QCOMPARE(s.load.server, std::string(c.server));
                if (i > 0)
                    QVERIFY(s.tS >= run.server[i - 1].tS);
            }
            const ServerLoad& last = run.server.back().load;
            const auto truth = nlohmann::json::parse(server.get("/test/metrics-truth"));
            const ServerMetricsSummary summary = summarizeServerMetrics(run.server, spec.metricsUrl);
            QCOMPARE(summary.failedScrapes, int64_t(0));
            QVERIFY(!summary.preemptions); // no fixture names the preemption counter: unknown, never 0
            if (c.load) {
                // six requests in flight for most of the run: 4 running and 2 waiting were seen
                QCOMPARE(summary.runningPeak.value_or(-1), 4.0);
                QCOMPARE(summary.waitingPeak.value_or(-1), 2.0);
                QCOMPARE(last.running.value_or(-1), 0.0); // the last scrape came after every request ended
            }
            if (c.prefix) {
                QCOMPARE(last.prefixQueries.value_or(-1), truth["prefix_queries"].get<double>());
                QCOMPARE(last.prefixHits.value_or(-1), truth["prefix_hits"].get<double>());
                QVERIFY2(summary.prefixHitRate && std::abs(*summary.prefixHitRate - 0.5) < 0.05, c.file);
            }
            if (std::string(c.server) == "SGLang" ||
                std::string(c.file).find("v1-engine") != std::string::npos)
                QCOMPARE(summary.kvCachePeak.value_or(-1), 1.0); // every slot taken
        }
    }

    // A server with no /metrics, and one whose port is closed: the load runs as ever, and each sample says
    // why.
    void aServerWithoutMetricsSaysWhyAndTheLoadRuns() {
        for (const std::string& url : {server_.url().substr(0, server_.url().size() - 3) + "/metrics",
                                       std::string("http://127.0.0.1:9/metrics")}) {
            LoadSpec spec = specFor(server_, "ttft=50;tpot=5", 4, 2);
            spec.metricsUrl = url;
            spec.scrapeIntervalS = 0.1;
            const Run run = runLoad(spec);
            expectAll(run, Failure::Ok, 4);
            QVERIFY(!run.server.empty());
            for (const ServerSample& s : run.server)
                QVERIFY2(!s.error.empty() && s.load.server.empty(), url.c_str());
            const ServerMetricsSummary summary = summarizeServerMetrics(run.server, url);
            QCOMPARE(summary.failedScrapes, summary.scrapes);
            QVERIFY(!summary.kvCachePeak && !summary.runningPeak);
            if (url.find(":9/") == std::string::npos)
                QVERIFY2(summary.firstError.find("HTTP 404") != std::string::npos,
                         summary.firstError.c_str());
        }
    }

    // A trace replayed: each request scheduled at its time (sped up twice), with its own lengths, whatever
    // the run's length distributions say; no concurrency cap and no request count: the trace is both.
    // Prompts of a few megabytes are more than a socket takes in one write: each is written whole, in pieces
    // as the server reads, and the server counts every word.
    void aRequestLargerThanTheSocketTakesIsWrittenWhole() {
        LoadSpec spec = specFor(server_, "ttft=1;tpot=1", 3, 3);
        spec.inputLen = {LengthDist::Kind::Fixed, 1'500'000, 0};
        spec.timeoutS = 30; // a request not written whole would wait for its response forever
        const Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 3);
        for (const RequestRecord& r : run.records)
            QCOMPARE(r.inputTokens.value_or(-1), int64_t(1'500'000));
    }

    // The bench's instrument: the test server says how late it wrote each tagged request's first token, so
    // that a TTFT error is split into the server's part and the client's. Every request tagged, none other.
    void theServerSaysHowLateItWroteEachFirstToken() {
        LoadSpec spec = specFor(server_, "ttft=20;tpot=1", 6, 3);
        spec.endpoint = Endpoint::ChatCompletions;
        spec.prompts = {Prompt{"#0 a b", {}, 0, {}}, Prompt{"#1 a b", {}, 0, {}}, Prompt{"#2 a b", {}, 0, {}},
                        Prompt{"no tag", {}, 0, {}}};
        server_.get("/test/first-token-lateness"); // afresh
        expectAll(runLoad(spec), Failure::Ok, 6);
        const Json late = Json::parse(server_.get("/test/first-token-lateness"), nullptr, false);
        QVERIFY2(late.is_object() && late.size() == 3,
                 late.dump().c_str()); // #0..#2 (each twice), not "no tag"
        for (const char* tag : {"0", "1", "2"})
            QVERIFY2(late.contains(tag) && late[tag].get<double>() >= 0 && late[tag].get<double>() < 1000,
                     late.dump().c_str());
    }

    void aTraceIsReplayedAtItsTimes() {
        LoadSpec spec = specFor(server_, "ttft=5;tpot=2", 0, 0);
        spec.inputLen = {LengthDist::Kind::Fixed, 999, 0};
        std::mt19937_64 rng(5);
        double t = 0;
        for (int i = 0; i < 40; ++i) {
            spec.trace.push_back(TraceArrival{t, 10 + i, 2 + i % 5,
                                              i % 2 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{}});
            t += std::exponential_distribution<double>(100)(rng);
        }
        spec.traceSpeed = 2;
        const Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 40);
        for (const RequestRecord& r : run.records) {
            const TraceArrival& a = spec.trace[size_t(r.index)];
            QCOMPARE(r.scheduledS, a.atS / 2);
            QCOMPARE(r.inputTokens.value_or(-1), a.inputLen); // the server counted the words sent
            QCOMPARE(r.maxTokens, a.outputLen);
            QCOMPARE(r.outputTokens.value_or(-1), a.outputLen);
            QVERIFY(r.sentS >= r.scheduledS);
        }
    }

    // Conversations of three turns, two at a time: each turn carries the conversation so far and a new user
    // turn (the server counts every message's words), is sent only after the turn before it ended and the
    // think time passed, and the request count is of turns.
    void conversationsGrowTurnByTurn() {
        LoadSpec spec = specFor(server_, "ttft=5;tpot=1", 12, 2);
        spec.turns = 3;
        spec.thinkTimeS = 0.02;
        spec.inputLen = {LengthDist::Kind::Fixed, 30, 0};
        spec.outputLen = {LengthDist::Kind::Fixed, 8, 0};
        const Run run = runLoad(spec);
        expectAll(run, Failure::Ok, 12);
        std::map<int64_t, std::vector<const RequestRecord*>> bySession;
        for (const RequestRecord& r : run.records) {
            QVERIFY(r.session);
            bySession[*r.session].push_back(&r);
        }
        QCOMPARE(bySession.size(), size_t(4));
        for (auto& [id, turns] : bySession) {
            std::sort(turns.begin(), turns.end(), [](auto* a, auto* b) { return a->turn < b->turn; });
            QCOMPARE(turns.size(), size_t(3));
            for (int k = 0; k < 3; ++k) {
                QCOMPARE(turns[size_t(k)]->turn, k + 1);
                // 30 new words a turn, and each earlier turn's 30 words and 8-word reply again
                QCOMPARE(turns[size_t(k)]->inputTokens.value_or(-1), int64_t(30 + k * (30 + 8)));
                if (k > 0) {
                    const RequestRecord& before = *turns[size_t(k - 1)];
                    QVERIFY(turns[size_t(k)]->sentS >= before.sentS + *before.e2elMs / 1000 + 0.02 - 1e-3);
                }
            }
        }
        // from a ShareGPT conversation: its own user turns and replies, for as many turns as it has
        std::string skippedWhy;
        size_t skipped = 0;
        spec.prompts = readPromptFile(
            R"([{"conversations": [{"from": "human", "value": "one two three"}, {"from": "gpt", "value": "four five"},
                {"from": "human", "value": "six"}, {"from": "gpt", "value": "seven"}]}])",
            10, &skipped, &skippedWhy);
        QCOMPARE(spec.prompts.size(), size_t(1));
        spec.requests = 4;
        spec.concurrency = 1;
        const Run shared = runLoad(spec);
        expectAll(shared, Failure::Ok, 4);
        std::vector<int64_t> inputs;
        for (const RequestRecord& r : shared.records)
            inputs.push_back(r.inputTokens.value_or(-1));
        QCOMPARE(inputs, (std::vector<int64_t>{3, 3 + 2 + 1, 3, 6})); // two conversations of its two turns
        // a plain prompt: its text opens the conversation, synthetic turns follow
        spec.prompts = readPromptFile("{\"prompt\": \"alpha beta\"}\n", 10, &skipped, &skippedWhy);
        spec.requests = 2;
        const Run plain = runLoad(spec);
        expectAll(plain, Failure::Ok, 2);
        QCOMPARE(plain.records[0].inputTokens.value_or(-1), int64_t(2));
        QCOMPARE(plain.records[1].inputTokens.value_or(-1), int64_t(2 + 8 + 30));
    }

    // What a hostile or broken /metrics sends: not HTTP, a web page, a body cut short, an oversized one. Each
    // scrape says what was wrong, and the load runs as ever.
    void aHostileMetricsEndpointHarmsNothing() {
        const std::string huge =
            "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(kMaxScrapeBytes + 10) + "\r\n\r\n" +
            std::string(kMaxScrapeBytes + 10, '#');
        const std::pair<std::string, const char*> cases[] = {
            {"SSH-2.0-OpenSSH_9.2\r\n", ""},
            {"HTTP/1.1 200 OK\r\nContent-Length: 27\r\n\r\n<html><body>hi</body></html>",
             "no Prometheus metrics"},
            {"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nvllm:num_requests_running 3\n", ""},
            {huge, "larger than 32 MiB"},
        };
        for (const auto& [reply, expected] : cases) {
            RawReplyServer hostile(reply);
            LoadSpec spec = specFor(server_, "ttft=20;tpot=5", 4, 2);
            spec.metricsUrl = hostile.url().substr(0, hostile.url().size() - 3) + "/metrics";
            // a scrape may take four intervals: enough for 32 MiB on a loaded machine
            spec.scrapeIntervalS = reply.size() > kMaxScrapeBytes ? 3 : 0.1;
            const Run run = runLoad(spec);
            expectAll(run, Failure::Ok, 4);
            QVERIFY(!run.server.empty());
            for (const ServerSample& s : run.server) {
                QVERIFY2(!s.error.empty(), reply.substr(0, 40).c_str());
                QVERIFY2(s.error.find(expected) != std::string::npos, s.error.c_str());
            }
        }
    }

    void aBadSpecIsRefusedBeforeAnythingIsSent() {
        LoadSpec spec = specFor(server_, "", 1, 1);
        spec.model.clear();
        const Run run = runLoad(spec);
        QVERIFY(QString::fromStdString(run.outcome.error).contains("model"));
        QVERIFY(run.records.empty());
    }
};

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int failed = 0;
    for (HttpClient c : {HttpClient::Native, HttpClient::Curl}) {
        client = c;
        std::printf("--- the %s HTTP client\n", httpClientName(c));
        TestLoadEngine test;
        failed += QTest::qExec(&test, argc, argv);
    }
    return failed;
}
#include "test_load_engine.moc"
