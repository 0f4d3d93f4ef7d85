#include "load_engine.h"

#include "curl_api.h"
#include "prompts.h"
#include "request_body.h"
#include "sse_parser.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <random>
#include <unordered_map>
#include <unordered_set>

namespace rsload {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxErrorBody = 64 * 1024;
constexpr size_t kMaxResponseBody = 64u << 20;

double secondsBetween(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// Raise the soft open-file limit to the hard one: each stream is a socket.
int raiseFdLimit() {
    rlimit l{};
    if (::getrlimit(RLIMIT_NOFILE, &l) != 0) return 0;
    if (l.rlim_cur < l.rlim_max) {
        rlimit want = l;
        want.rlim_cur = l.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &want) == 0) l = want;
    }
    return l.rlim_cur > 1u << 30 ? 1 << 30 : int(l.rlim_cur);
}

Failure failureOfCurl(CURLcode c) {
    switch (c) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION: return Failure::Connect;
    case CURLE_OPERATION_TIMEDOUT: return Failure::Timeout;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_HTTP2: return Failure::Protocol;
    default: return Failure::Dropped; // CURLE_GOT_NOTHING, PARTIAL_FILE, RECV_ERROR, SEND_ERROR, ...
    }
}

// The first of the environment variables that is set, as libcurl looks them up.
std::string firstVariable(std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (const char* v = std::getenv(n)) return v;
    return {};
}

// The proxy libcurl would take from the environment for this URL ("" for none): http_proxy only in
// lower case (a CGI program's HTTP_PROXY comes from a request header), then all_proxy.
std::string proxyFor(const std::string& url) {
    const bool https = url.rfind("https://", 0) == 0;
    std::string p = https ? firstVariable({"https_proxy", "HTTPS_PROXY"}) : firstVariable({"http_proxy"});
    return p.empty() ? firstVariable({"all_proxy", "ALL_PROXY"}) : p;
}

} // namespace

struct LoadEngine::Impl {
    struct Transfer {
        Impl* engine = nullptr;
        CURL* easy = nullptr;
        RequestRecord record;
        std::string body;
        std::unique_ptr<SseParser> parser;
        std::string response; // an error body, or a whole non-streaming response
        Clock::time_point sent, lastText;
        std::optional<Clock::time_point> lastChoice;
        bool statusKnown = false, streaming = false, done = false, finished = false;
        int64_t usageSoFar = 0;
        std::optional<Failure> failure;
        std::string failureDetail;
        Clock::time_point now; // the arrival time of the bytes being parsed
        std::optional<Clock::time_point> ready; // when it could have been sent
        bool aborted = false;  // the write callback stops the transfer

        void fail(Failure f, std::string detail) {
            if (failure) return; // the first thing that went wrong is what the request failed of
            failure = f;
            failureDetail = std::move(detail);
        }
        void onEvent(const SseEvent& ev);
        void stamp(Clock::time_point at);
        void readWholeResponse(Clock::time_point end);
        void takeUsage(const StreamChunk& c);
    };

    Impl(LoadSpec s, LoadCallbacks c) : spec(std::move(s)), cb(std::move(c)) {
        epoll = ::epoll_create1(EPOLL_CLOEXEC);
        wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    }

    LoadSpec spec;
    LoadCallbacks cb;
    const CurlApi* curl = nullptr;
    CURLM* multi = nullptr;
    curl_slist* headers = nullptr;
    std::string url, proxy, noProxy; // the same for every request
    int epoll = -1, wake = -1;
    std::atomic<bool> cancelRequested{false};
    std::optional<Clock::time_point> curlDeadline;
    // What each socket is registered for in epoll, and whether libcurl still wants to hear of it. A socket
    // libcurl lets go of stays registered until it next says something or is closed: a keep-alive connection
    // goes from one request to the next without two epoll_ctl calls, which cost as much as the request's send.
    // Only sockets opened and closed through the callbacks below are kept so: the number of one closed
    // behind our back could come back for a new connection and never be registered.
    struct Watch {
        uint32_t events = 0;
        bool wanted = false;
        bool ours = false; // opened by onOpenSocket, so its close reaches onCloseSocket
    };
    std::unordered_map<curl_socket_t, Watch> watched;
    std::vector<CURL*> idleHandles;
    std::unordered_set<Transfer*> inFlight;
    std::mt19937_64 rng;
    std::optional<RequestBody> bodies; // made when the run starts

    // The schedule
    Clock::time_point origin;  // t = 0 of the measured phase
    bool inWarmup = false;
    int64_t nextIndex = 0, warmupSent = 0, measuredSent = 0;
    double nextArrivalS = 0;   // rate mode: the next request's scheduled time
    bool sendingDone = false;
    std::optional<Clock::time_point> slotFreedAt;
    LoadProgress progress;
    Clock::time_point nextProgress;
    LoadOutcome outcome;

    ~Impl() {
        for (Transfer* t : inFlight) {
            curl->multiRemoveHandle(multi, t->easy);
            curl->easyCleanup(t->easy);
            delete t;
        }
        if (curl) {
            for (CURL* e : idleHandles) curl->easyCleanup(e);
            if (multi) curl->multiCleanup(multi);
            if (headers) curl->slistFreeAll(headers);
        }
        if (epoll >= 0) ::close(epoll);
        if (wake >= 0) ::close(wake);
    }

    int64_t inFlightCount() const { return int64_t(inFlight.size()); }

    int limit() const {
        const int c = inWarmup ? std::max(1, spec.concurrency) : spec.concurrency;
        return c > 0 ? c : std::numeric_limits<int>::max();
    }

    // --- libcurl's callbacks --------------------------------------------------------------------
    static int onSocket(CURL*, curl_socket_t s, int what, void* user, void*) {
        auto* self = static_cast<Impl*>(user);
        if (what == CURL_POLL_REMOVE) {
            const auto it = self->watched.find(s);
            if (it != self->watched.end() && it->second.ours) {
                it->second.wanted = false;
            } else {
                ::epoll_ctl(self->epoll, EPOLL_CTL_DEL, s, nullptr);
                if (it != self->watched.end()) self->watched.erase(it);
            }
            return 0;
        }
        const uint32_t events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
        Watch& w = self->watched[s];
        w.wanted = true;
        if (w.events == events) return 0;
        epoll_event ev{};
        ev.events = events;
        ev.data.fd = s;
        int rc = ::epoll_ctl(self->epoll, w.events ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, s, &ev);
        if (rc != 0 && errno == EEXIST) rc = ::epoll_ctl(self->epoll, EPOLL_CTL_MOD, s, &ev);
        w.events = rc == 0 ? events : 0;
        return 0;
    }

    // An event libcurl no longer asked for (an idle keep-alive connection the server closed): stop
    // watching the socket now; libcurl finds the connection dead when it next takes it from its cache.
    bool unwanted(int fd) {
        const auto it = watched.find(fd);
        if (it != watched.end() && it->second.wanted) return false;
        ::epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nullptr);
        if (it != watched.end()) it->second.events = 0;
        return true;
    }

    // libcurl opens and closes its connections' sockets here: a closed number may come back for a new
    // connection, registered afresh.
    static curl_socket_t onOpenSocket(void* user, curlsocktype, curl_sockaddr* a) {
        const int s = ::socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
        if (s >= 0) static_cast<Impl*>(user)->watched[s] = Watch{0, false, true};
        return s >= 0 ? s : CURL_SOCKET_BAD;
    }
    static int onCloseSocket(void* user, curl_socket_t s) {
        static_cast<Impl*>(user)->watched.erase(s);
        return ::close(s);
    }

    static int onTimer(CURLM*, long timeoutMs, void* user) {
        auto* self = static_cast<Impl*>(user);
        if (timeoutMs < 0) self->curlDeadline.reset();
        else self->curlDeadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
        return 0;
    }

    // The request is about to go out on its connection: its clock starts here, not when it was queued
    // in libcurl, so a burst of sends does not lengthen the later ones' TTFT (the wait shows as client delay).
    static int onPrereq(void* user, char*, char*, int, int) {
        static_cast<Transfer*>(user)->stamp(Clock::now());
        return CURL_PREREQFUNC_OK;
    }

    static size_t onWrite(char* data, size_t size, size_t n, void* user) {
        auto* t = static_cast<Transfer*>(user);
        const size_t bytes = size * n;
        const Clock::time_point now = Clock::now();
        Impl& e = *t->engine;
        if (!t->statusKnown) {
            long status = 0;
            e.curl->easyGetinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
            t->record.httpStatus = int(status);
            t->statusKnown = true;
            t->streaming = e.spec.stream && status == 200;
        }
        if (!t->streaming) {
            const size_t cap = t->record.httpStatus == 200 ? kMaxResponseBody : kMaxErrorBody;
            t->response.append(data, std::min(bytes, cap - std::min(cap, t->response.size())));
            if (t->record.httpStatus == 200 && t->response.size() >= kMaxResponseBody) {
                t->fail(Failure::Protocol, "the response is larger than 64 MiB");
                return 0;
            }
            return bytes;
        }
        if (t->done) return bytes; // after [DONE] nothing more is expected; what comes is ignored
        t->now = now;
        if (!t->parser->feed(data, bytes)) {
            t->fail(Failure::Protocol, "malformed event stream: " + t->parser->error());
            return 0;
        }
        return t->aborted ? 0 : bytes;
    }

    // --- one request ----------------------------------------------------------------------------
    // A request handle, with what is the same for every request set once.
    CURL* takeHandle() {
        if (!idleHandles.empty()) {
            CURL* e = idleHandles.back();
            idleHandles.pop_back();
            return e;
        }
        CURL* e = curl->easyInit();
        if (!e) return nullptr;
        const auto set = curl->easySetopt;
        set(e, CURLOPT_URL, url.c_str());
        set(e, CURLOPT_HTTPHEADER, headers);
        set(e, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
        set(e, CURLOPT_NOSIGNAL, 1L);
        set(e, CURLOPT_TCP_NODELAY, 1L);
        set(e, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
        set(e, CURLOPT_TIMEOUT_MS, long(spec.timeoutS * 1000));
        set(e, CURLOPT_CONNECTTIMEOUT_MS, long(spec.connectTimeoutS * 1000));
        set(e, CURLOPT_PREREQFUNCTION, &Impl::onPrereq);
        set(e, CURLOPT_OPENSOCKETFUNCTION, &Impl::onOpenSocket);
        set(e, CURLOPT_OPENSOCKETDATA, this);
        set(e, CURLOPT_CLOSESOCKETFUNCTION, &Impl::onCloseSocket);
        set(e, CURLOPT_CLOSESOCKETDATA, this);
        // the proxy settings libcurl would read from the environment for every request, read once
        set(e, CURLOPT_PROXY, proxy.c_str());
        set(e, CURLOPT_NOPROXY, noProxy.c_str());
        return e;
    }

    bool send(double scheduledS, std::optional<Clock::time_point> ready) {
        auto t = std::make_unique<Transfer>();
        t->engine = this;
        RequestRecord& r = t->record;
        r.index = nextIndex++;
        r.client = spec.client;
        r.warmup = inWarmup;
        const Prompt* prompt = spec.prompts.empty() ? nullptr : &spec.prompts[size_t(r.index) % spec.prompts.size()];
        const int64_t inputLen = prompt ? 0 : drawLength(spec.inputLen, rng);
        r.maxTokens = prompt && prompt->outputLen > 0 ? prompt->outputLen : drawLength(spec.outputLen, rng);
        if (!prompt) {
            r.inputTokens = inputLen;
            r.inputTokensSource = "requested";
        }
        t->body = bodies->make(prompt, prompt ? std::string() : syntheticPrompt(inputLen, rng), r.maxTokens);
        CURL* easy = takeHandle();
        if (!easy) {
            outcome.error = "libcurl could not make a request handle";
            return false;
        }
        t->easy = easy;
        const auto set = curl->easySetopt;
        set(easy, CURLOPT_POSTFIELDS, t->body.c_str());
        set(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(t->body.size()));
        set(easy, CURLOPT_WRITEDATA, t.get());
        set(easy, CURLOPT_PRIVATE, t.get());
        set(easy, CURLOPT_PREREQDATA, t.get());
        Transfer* raw = t.get();
        raw->parser = std::make_unique<SseParser>([raw](const SseEvent& ev) { raw->onEvent(ev); });
        r.scheduledS = scheduledS;
        raw->ready = ready;
        raw->stamp(Clock::now()); // again when libcurl sends it, where libcurl can say (7.80 and later)
        if (curl->multiAddHandle(multi, easy) != CURLM_OK) {
            curl->easyCleanup(easy);
            return false;
        }
        inFlight.insert(t.release());
        ++progress.sent;
        return true;
    }

    void finish(Transfer* t, CURLcode code) {
        RequestRecord& r = t->record;
        const Clock::time_point end = Clock::now();
        if (!t->failure && code != CURLE_OK) {
            t->failure = failureOfCurl(code);
            t->failureDetail = curl->easyStrerror(code);
            if (code == CURLE_OPERATION_TIMEDOUT) t->failureDetail = "no end within the request timeout of " + std::to_string(spec.timeoutS) + " s";
        }
        if (!t->failure && r.httpStatus && *r.httpStatus != 200) {
            t->failure = Failure::Http;
            t->failureDetail = "HTTP " + std::to_string(*r.httpStatus) + ": " + describeErrorBody(t->response);
        }
        if (!t->failure && !spec.stream) t->readWholeResponse(end);
        if (!t->failure && spec.stream && !t->done && (t->parser->pending() || !r.finishReason)) {
            t->failure = Failure::Dropped;
            t->failureDetail = "the stream ended before data: [DONE]";
        }
        if (!t->failure && r.chunks == 0) {
            t->failure = Failure::NoOutput;
            t->failureDetail = "the server ended the response without generating text";
        }
        r.failure = t->failure.value_or(Failure::Ok);
        r.error = t->failureDetail;
        if (!r.e2elMs) r.e2elMs = secondsBetween(t->sent, t->lastChoice.value_or(end)) * 1000.0;
        if (!r.outputTokens && r.chunks > 0) {
            r.outputTokens = r.chunks;
            r.outputTokensSource = "chunks";
        }
        if (!r.chunkTokens.empty() && r.chunkTokens.size() != size_t(r.chunks)) r.chunkTokens.clear(); // not every chunk said
        long connects = 0;
        curl->easyGetinfo(t->easy, CURLINFO_NUM_CONNECTS, &connects);
        if (connects > 0) {
            curl_off_t connectUs = 0, appUs = 0;
            curl->easyGetinfo(t->easy, CURLINFO_CONNECT_TIME_T, &connectUs);
            curl->easyGetinfo(t->easy, CURLINFO_APPCONNECT_TIME_T, &appUs);
            r.connectMs = double(std::max(connectUs, appUs)) / 1000.0;
        }
        if (r.ok()) ++progress.completed;
        else ++progress.failed;
        curl->multiRemoveHandle(multi, t->easy);
        curl->easySetopt(t->easy, CURLOPT_WRITEDATA, nullptr);
        idleHandles.push_back(t->easy);
        inFlight.erase(t);
        slotFreedAt = end;
        ++outcome.records;
        if (cb.onRecord) cb.onRecord(r);
        delete t;
    }

    void drainFinished() {
        int left = 0;
        while (CURLMsg* m = curl->multiInfoRead(multi, &left)) {
            if (m->msg != CURLMSG_DONE) continue;
            Transfer* t = nullptr;
            curl->easyGetinfo(m->easy_handle, CURLINFO_PRIVATE, &t);
            if (t) finish(t, m->data.result);
        }
    }

    // --- the schedule ---------------------------------------------------------------------------
    double nextGap() {
        // gamma(shape = burstiness, scale = 1 / (rate * burstiness)): mean 1 / rate; shape 1 is Poisson
        std::gamma_distribution<double> g(spec.burstiness, 1.0 / (spec.rate * spec.burstiness));
        return g(rng);
    }

    bool measuredQuotaLeft(double atS) const {
        if (spec.requests > 0 && measuredSent >= spec.requests) return false;
        if (spec.durationS > 0 && atS >= spec.durationS) return false;
        return true;
    }

    // Sends every request that is due now; returns when the next one is due (if scheduled).
    std::optional<Clock::time_point> sendDue() {
        if (inWarmup) {
            while (warmupSent < spec.warmup && inFlightCount() < limit()) {
                if (!send(0, std::nullopt)) return std::nullopt;
                ++warmupSent;
            }
            if (warmupSent == spec.warmup && inFlight.empty()) { // the warm-up is over: the clock starts
                inWarmup = false;
                origin = Clock::now();
                slotFreedAt.reset();
                return sendDue();
            }
            return std::nullopt;
        }
        while (!sendingDone) {
            const double nowS = secondsBetween(origin, Clock::now());
            if (spec.rate > 0) {
                if (!measuredQuotaLeft(nextArrivalS)) break;
                if (nextArrivalS > nowS) return origin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(nextArrivalS));
                if (inFlightCount() >= limit()) return std::nullopt; // waits for a slot; the queue time shows it
                const Clock::time_point due = origin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(nextArrivalS));
                const Clock::time_point ready = slotFreedAt && *slotFreedAt > due ? *slotFreedAt : due;
                if (!send(nextArrivalS, ready)) break;
                nextArrivalS += nextGap();
            } else {
                if (!measuredQuotaLeft(nowS) || inFlightCount() >= limit()) {
                    if (!measuredQuotaLeft(nowS)) sendingDone = true;
                    return std::nullopt;
                }
                // closed loop: a request is scheduled when its slot frees
                const Clock::time_point ready = slotFreedAt ? std::max(*slotFreedAt, origin) : origin;
                if (!send(std::max(0.0, secondsBetween(origin, ready)), ready)) break;
            }
            ++measuredSent;
        }
        sendingDone = true;
        return std::nullopt;
    }

    void reportProgress(Clock::time_point now) {
        progress.elapsedS = secondsBetween(origin, now);
        progress.warmup = inWarmup;
        progress.inFlight = inFlightCount();
        if (cb.onProgress) cb.onProgress(progress);
        nextProgress = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(cb.progressIntervalS));
    }

    void cancelAll() {
        std::vector<Transfer*> all(inFlight.begin(), inFlight.end());
        for (Transfer* t : all) {
            t->fail(Failure::Cancelled, "the run was cancelled");
            finish(t, CURLE_OK);
        }
    }

    LoadOutcome run();
};

namespace {
double msBetween(Clock::time_point a, Clock::time_point b) { return secondsBetween(a, b) * 1000.0; }
} // namespace

void LoadEngine::Impl::Transfer::takeUsage(const StreamChunk& c) {
    if (c.completionTokens) {
        usageSoFar = *c.completionTokens;
        record.outputTokens = *c.completionTokens; // cumulative where sent on every chunk: never summed
        record.outputTokensSource = "usage";
    }
    if (c.promptTokens) {
        record.inputTokens = *c.promptTokens;
        record.inputTokensSource = "usage";
    }
    if (c.finishReason) record.finishReason = c.finishReason;
}

void LoadEngine::Impl::Transfer::stamp(Clock::time_point at) {
    sent = at;
    record.sentS = secondsBetween(engine->origin, at);
    record.queueMs = std::max(0.0, (record.sentS - record.scheduledS) * 1000.0);
    record.clientDelayMs = ready ? std::max(0.0, secondsBetween(*ready, at) * 1000.0) : 0.0;
}

void LoadEngine::Impl::Transfer::onEvent(const SseEvent& ev) {
    if (done || aborted) return;
    const StreamChunk c = interpretChunk(ev.data, engine->spec.endpoint);
    if (c.done) {
        done = true;
        return;
    }
    if (c.invalid) {
        fail(Failure::Protocol, "a stream event is " + c.problem);
        aborted = true;
        return;
    }
    if (c.error) { // the server failed after its 200: read on to the end, the error stands
        fail(Failure::StreamError, *c.error);
        return;
    }
    if (c.hasChoices) lastChoice = now;
    if (!c.text.empty()) {
        if (!record.ttftMs) record.ttftMs = msBetween(sent, now);
        else record.itlMs.push_back(msBetween(lastText, now));
        lastText = now;
        ++record.chunks;
        if (c.completionTokens) record.chunkTokens.push_back(int(*c.completionTokens - usageSoFar));
    }
    takeUsage(c);
}

void LoadEngine::Impl::Transfer::readWholeResponse(Clock::time_point end) {
    const StreamChunk c = interpretResponse(response, engine->spec.endpoint);
    if (c.invalid) return fail(Failure::Protocol, "the response is " + c.problem);
    if (c.error) return fail(Failure::StreamError, *c.error);
    if (!c.text.empty()) {
        record.ttftMs = msBetween(sent, end); // without a stream, the first token comes with the last
        record.chunks = 1;
    }
    lastChoice = end;
    takeUsage(c);
}

namespace {

// epoll_pwait2 takes a timeout to the nanosecond: a scheduled send is not held to the next millisecond.
int waitEvents(int epoll, epoll_event* events, int max, Clock::duration wait) {
    const auto ns = std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count());
    timespec ts{time_t(ns / 1000000000), long(ns % 1000000000)};
    static bool havePwait2 = true;
    if (havePwait2) {
        const int n = ::epoll_pwait2(epoll, events, max, &ts, nullptr);
        if (n >= 0 || errno != ENOSYS) return n;
        havePwait2 = false;
    }
    return ::epoll_wait(epoll, events, max, int((ns + 999999) / 1000000));
}

} // namespace

LoadOutcome LoadEngine::Impl::run() {
    std::string why;
    curl = openCurl(&why);
    if (!curl) {
        outcome.error = why;
        return outcome;
    }
    outcome.curlVersion = curl->version;
    if (auto problems = validate(spec); !problems.empty()) {
        outcome.error = problems.front();
        return outcome;
    }
    if (epoll < 0 || wake < 0) {
        outcome.error = std::string("cannot make the event loop: ") + std::strerror(errno);
        return outcome;
    }
    outcome.fdLimit = raiseFdLimit();
    epoll_event wakeEvent{};
    wakeEvent.events = EPOLLIN;
    wakeEvent.data.fd = wake;
    ::epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &wakeEvent);

    multi = curl->multiInit();
    if (!multi) {
        outcome.error = "libcurl could not make a multi handle";
        return outcome;
    }
    curl->multiSetopt(multi, CURLMOPT_SOCKETFUNCTION, &Impl::onSocket);
    curl->multiSetopt(multi, CURLMOPT_SOCKETDATA, this);
    curl->multiSetopt(multi, CURLMOPT_TIMERFUNCTION, &Impl::onTimer);
    curl->multiSetopt(multi, CURLMOPT_TIMERDATA, this);
    // No cap on connections per host or in all; the cache keeps every stream's connection alive for its next request.
    curl->multiSetopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
    curl->multiSetopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);
    curl->multiSetopt(multi, CURLMOPT_MAXCONNECTS, long(spec.concurrency > 0 ? spec.concurrency + 16 : 100000));

    headers = curl->slistAppend(headers, "Content-Type: application/json");
    if (spec.stream) headers = curl->slistAppend(headers, "Accept: text/event-stream");
    headers = curl->slistAppend(headers, "Expect:"); // no 100-continue round trip before a large prompt
    for (const auto& [name, value] : spec.headers) headers = curl->slistAppend(headers, (name + ": " + value).c_str());

    url = spec.url + endpointPath(spec.endpoint);
    proxy = proxyFor(url);
    noProxy = firstVariable({"no_proxy", "NO_PROXY"});
    rng.seed(spec.seed);
    bodies.emplace(spec);
    inWarmup = spec.warmup > 0;
    origin = Clock::now();
    nextProgress = origin;
    std::vector<epoll_event> events(512);
    int running = 0;
    while (true) {
        if (cancelRequested) {
            cancelAll();
            outcome.cancelled = true;
            break;
        }
        const std::optional<Clock::time_point> nextSend = sendDue();
        if (!inWarmup && sendingDone && inFlight.empty()) break;
        Clock::time_point now = Clock::now();
        if (now >= nextProgress) reportProgress(now);
        Clock::time_point wakeAt = nextProgress;
        if (nextSend) wakeAt = std::min(wakeAt, *nextSend);
        if (curlDeadline) wakeAt = std::min(wakeAt, *curlDeadline);
        const int n = waitEvents(epoll, events.data(), int(events.size()), wakeAt - now);
        if (n < 0 && errno != EINTR) {
            outcome.error = std::string("the event loop failed: ") + std::strerror(errno);
            cancelAll();
            break;
        }
        for (int i = 0; i < n; ++i) {
            const int fd = events[size_t(i)].data.fd;
            if (fd == wake) {
                uint64_t v = 0;
                [[maybe_unused]] ssize_t got = ::read(wake, &v, sizeof v);
                continue;
            }
            if (unwanted(fd)) continue;
            const uint32_t e = events[size_t(i)].events;
            const int flags = (e & EPOLLIN ? CURL_CSELECT_IN : 0) | (e & EPOLLOUT ? CURL_CSELECT_OUT : 0) | (e & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
            curl->multiSocketAction(multi, fd, flags, &running);
        }
        if (curlDeadline && Clock::now() >= *curlDeadline) {
            curlDeadline.reset();
            curl->multiSocketAction(multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        drainFinished();
    }
    reportProgress(Clock::now());
    return outcome;
}

LoadEngine::LoadEngine(LoadSpec spec, LoadCallbacks callbacks) : impl_(std::make_unique<Impl>(std::move(spec), std::move(callbacks))) {}
LoadEngine::~LoadEngine() = default;

LoadOutcome LoadEngine::run() { return impl_->run(); }

void LoadEngine::cancel() {
    impl_->cancelRequested = true;
    const uint64_t one = 1;
    if (impl_->wake >= 0) [[maybe_unused]] ssize_t w = ::write(impl_->wake, &one, sizeof one);
}

} // namespace rsload
