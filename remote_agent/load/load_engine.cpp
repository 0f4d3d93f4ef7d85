#include "load_engine.h"

#include "http_transport.h"
#include "load_model/prompts.h"
#include "load_model/trace_file.h"
#include "metrics_scraper.h"
#include "openai_stream.h"
#include "request_body.h"
#include "sse_parser.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <random>

namespace rsload {
namespace {

constexpr size_t kMaxErrorBody = 64 * 1024;
constexpr size_t kMaxResponseBody = 64u << 20;

double secondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

std::string secondsText(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", s);
    return text;
}

// Raise the soft open-file limit to the hard one: each stream is a socket.
int raiseFdLimit() {
    rlimit l{};
    if (::getrlimit(RLIMIT_NOFILE, &l) != 0)
        return 0;
    if (l.rlim_cur < l.rlim_max) {
        rlimit want = l;
        want.rlim_cur = l.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &want) == 0)
            l = want;
    }
    return l.rlim_cur > 1u << 30 ? 1 << 30 : int(l.rlim_cur);
}

} // namespace

struct LoadEngine::Impl {
    // A multi-turn conversation in progress: what was said so far, and its turns.
    struct Session {
        int64_t id = 0;
        int turns = 0, sent = 0;        // planned, and sent so far
        Json history = Json::array();   // the messages before the next user turn
        const Prompt* source = nullptr; // a dataset conversation; null: synthetic turns
        Json userTurn;                  // the user message of the turn in flight
    };

    struct Transfer final : TransferEvents {
        Impl* engine = nullptr;
        RequestRecord record;
        std::string body;
        std::unique_ptr<SseParser> parser; // a stream's events
        std::string response;              // an error body, or a whole non-streaming response
        Clock::time_point sent, lastText;
        std::optional<Clock::time_point> lastChoice;
        bool statusKnown = false, streaming = false, done = false;
        int64_t usageSoFar = 0;
        std::optional<Failure> failure;
        std::string failureDetail;
        Clock::time_point now;                  // the arrival time of the bytes being parsed
        std::optional<Clock::time_point> ready; // when it could have been sent
        bool aborted = false;                   // the stream's own content stops the transfer
        std::shared_ptr<Session> session;       // a conversation's turn
        size_t slot = 0;                        // its place in Impl::inFlight

        // As new for the next request, keeping the room of its buffers.
        void reuse() {
            std::string b = std::move(body), r = std::move(response);
            Impl* e = engine;
            *this = Transfer{};
            engine = e;
            body = std::move(b);
            body.clear();
            response = std::move(r);
            response.clear();
        }
        void fail(Failure f, std::string detail) {
            if (failure)
                return; // the first thing that went wrong is what the request failed of
            failure = f;
            failureDetail = std::move(detail);
        }
        void onEvent(const SseEvent& ev);
        void stamp(Clock::time_point at);
        void readWholeResponse(Clock::time_point end);
        void takeUsage(const StreamChunk& c);

        // TransferEvents: the transport's word on this request
        void sending(Clock::time_point at) override { stamp(at); }
        bool received(int httpStatus, const char* data, size_t size, Clock::time_point at) override;
        void ended(const TransferEnd& end) override { engine->finish(this, end); }
    };

    Impl(LoadSpec s, LoadCallbacks c) : spec(std::move(s)), cb(std::move(c)) {}

    LoadSpec spec;
    LoadCallbacks cb;
    std::unique_ptr<HttpTransport> transport;
    std::atomic<HttpTransport*> wakeable{nullptr}; // the transport, for cancel() on another thread
    std::atomic<bool> cancelRequested{false};
    // The requests in flight, each at its `slot`, owned here; and ended ones, for the next requests. A
    // run's requests then allocate nothing of their own (malloc's per-thread cache keeps few blocks of a
    // size, and the ends of a busy run's requests come in bursts).
    std::vector<Transfer*> inFlight;
    std::vector<std::unique_ptr<Transfer>> spareTransfers;
    std::string promptScratch; // the synthetic prompt being made
    std::mt19937_64 rng;
    std::optional<RequestBody> bodies; // made when the run starts
    std::unique_ptr<MetricsScraper> scraper;

    // The schedule
    Clock::time_point origin; // t = 0 of the measured phase
    bool inWarmup = false;
    int64_t nextIndex = 0, warmupSent = 0, measuredSent = 0;
    double nextArrivalS = 0; // rate mode: the next request's scheduled time
    bool sendingDone = false;
    std::optional<Clock::time_point> slotFreedAt;
    // The clock as the schedule last read it: a request handed to the transport is stamped with it until the
    // transport says when it sent it (a clock read costs as much as a tenth of a plain request's own work).
    Clock::time_point scheduleNow;
    // Multi-turn: conversations whose next turn waits for its time (a reply ended, and the think time), in
    // order
    std::deque<std::pair<Clock::time_point, std::shared_ptr<Session>>> readyTurns;
    int64_t activeSessions = 0, committedTurns = 0, nextSession = 0;
    LoadProgress progress;
    Clock::time_point nextProgress;
    LoadOutcome outcome;

    ~Impl() {
        for (Transfer* t : inFlight) {
            if (transport)
                transport->drop(t);
            delete t;
        }
    }

    Transfer* newTransfer() {
        Transfer* t = nullptr;
        if (spareTransfers.empty()) {
            t = new Transfer;
            t->engine = this;
        } else {
            t = spareTransfers.back().release();
            spareTransfers.pop_back();
        }
        t->slot = inFlight.size();
        inFlight.push_back(t);
        return t;
    }

    // Out of flight and kept for another request.
    void recycle(Transfer* t) {
        Transfer* last = inFlight.back();
        inFlight[t->slot] = last;
        last->slot = t->slot;
        inFlight.pop_back();
        t->reuse();
        spareTransfers.emplace_back(t);
    }

    int64_t inFlightCount() const { return int64_t(inFlight.size()); }

    int limit() const {
        const int c = inWarmup ? std::max(1, spec.concurrency) : spec.concurrency;
        return c > 0 ? c : std::numeric_limits<int>::max();
    }

    // --- one request ----------------------------------------------------------------------------
    // A conversation's next user turn: a ShareGPT conversation's own, else a dataset prompt's text for the
    // first and synthetic words after it.
    Json nextUserTurn(const Session& s) {
        const auto user = [](std::string text) {
            return Json{{"role", "user"}, {"content", std::move(text)}};
        };
        if (s.source && !s.source->conversation.empty()) {
            int users = 0;
            for (const Json& m : s.source->conversation)
                if (m.value("role", "") == "user" && users++ == s.sent)
                    return m;
        }
        if (s.source && s.sent == 0)
            return user(s.source->text);
        return user(syntheticPrompt(drawLength(spec.inputLen, rng), rng));
    }
    // The reply to turn `sent` as the history keeps it: the dataset's, or synthetic words of the output
    // length.
    Json replyTo(const Session& s, int64_t maxTokens) {
        if (s.source && !s.source->conversation.empty()) {
            int users = 0;
            const Json& c = s.source->conversation;
            for (size_t i = 0; i < c.size(); ++i)
                if (c[i].value("role", "") == "user" && ++users == s.sent)
                    return i + 1 < c.size() && c[i + 1].value("role", "") == "assistant"
                               ? c[i + 1]
                               : Json{{"role", "assistant"}, {"content", ""}};
        }
        return Json{{"role", "assistant"}, {"content", syntheticPrompt(maxTokens, rng)}};
    }

    // Starts a conversation (spec.turns > 1) and sends its first turn; false when there is no turn left to
    // give it.
    bool startSession(double scheduledS, std::optional<Clock::time_point> ready) {
        auto s = std::make_shared<Session>();
        s->id = nextSession++;
        s->source = spec.prompts.empty() ? nullptr : &spec.prompts[size_t(s->id) % spec.prompts.size()];
        int users = 0; // a ShareGPT conversation has as many turns as its user turns, at most
        if (s->source)
            for (const Json& m : s->source->conversation)
                users += m.value("role", "") == "user" ? 1 : 0;
        s->turns = users > 0 ? std::min(spec.turns, users) : spec.turns;
        if (spec.requests > 0)
            s->turns = int(std::min<int64_t>(s->turns, spec.requests - measuredSent - committedTurns));
        if (s->turns <= 0)
            return false;
        ++activeSessions;
        committedTurns += s->turns - 1;
        return send(scheduledS, ready, s);
    }

    bool send(double scheduledS, std::optional<Clock::time_point> ready,
              std::shared_ptr<Session> session = {}) {
        Transfer* t = newTransfer();
        RequestRecord& r = t->record;
        r.index = nextIndex++;
        r.client = spec.client;
        r.warmup = inWarmup;
        if (session) {
            session->userTurn = nextUserTurn(*session);
            ++session->sent;
            r.session = session->id;
            r.turn = session->sent;
            r.maxTokens = drawLength(spec.outputLen, rng);
            Prompt conversation;
            conversation.messages = session->history;
            conversation.messages.push_back(session->userTurn);
            bodies->write(&conversation, {}, r.maxTokens, &t->body);
            t->session = std::move(session);
            return dispatch(t, scheduledS, ready);
        }
        const TraceArrival* arrival = !inWarmup && size_t(measuredSent) < spec.trace.size()
                                          ? &spec.trace[size_t(measuredSent)]
                                          : nullptr;
        const Prompt* prompt =
            spec.prompts.empty() || arrival ? nullptr : &spec.prompts[size_t(r.index) % spec.prompts.size()];
        const int64_t inputLen = prompt ? 0 : arrival ? arrival->inputLen : drawLength(spec.inputLen, rng);
        r.maxTokens = arrival && arrival->outputLen > 0 ? arrival->outputLen
                      : prompt && prompt->outputLen > 0 ? prompt->outputLen
                                                        : drawLength(spec.outputLen, rng);
        if (!prompt) {
            r.inputTokens = inputLen;
            r.inputTokensSource = "requested";
        }
        promptScratch.clear();
        if (arrival)
            promptScratch = tracePrompt(*arrival, rng);
        else if (!prompt)
            appendSyntheticPrompt(&promptScratch, inputLen, rng);
        bodies->write(prompt, promptScratch, r.maxTokens, &t->body);
        return dispatch(t, scheduledS, ready);
    }

    bool dispatch(Transfer* t, double scheduledS, std::optional<Clock::time_point> ready) {
        RequestRecord& r = t->record;
        if (spec.stream)
            t->parser = std::make_unique<SseParser>([t](const SseEvent& ev) { t->onEvent(ev); });
        r.scheduledS = scheduledS;
        t->ready = ready;
        t->stamp(scheduleNow); // again when the transport sends it
        if (!transport->send(t->body, t)) {
            recycle(t);
            outcome.error = "the HTTP client could not take a request";
            return false;
        }
        ++progress.sent;
        return true;
    }

    void finish(Transfer* t, const TransferEnd& how) {
        RequestRecord& r = t->record;
        const Clock::time_point end = how.readAt.value_or(Clock::now());
        if (how.httpStatus)
            r.httpStatus = how.httpStatus;
        if (how.failure == Failure::Timeout &&
            how.detail.empty()) // the transport could not say which of the two
            t->fail(Failure::Timeout,
                    spec.timeoutS > 0
                        ? "no end within the request timeout of " + secondsText(spec.timeoutS)
                        : "no connection within the connect timeout of " + secondsText(spec.connectTimeoutS));
        else if (how.failure)
            t->fail(*how.failure, how.detail);
        if (!t->failure && r.httpStatus && *r.httpStatus != 200) {
            t->failure = Failure::Http;
            t->failureDetail =
                "HTTP " + std::to_string(*r.httpStatus) + ": " + describeErrorBody(t->response);
        }
        if (!t->failure && !spec.stream)
            t->readWholeResponse(end);
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
        if (!r.e2elMs)
            r.e2elMs = secondsBetween(t->sent, t->lastChoice.value_or(end)) * 1000.0;
        if (!r.outputTokens && r.chunks > 0) {
            r.outputTokens = r.chunks;
            r.outputTokensSource = "chunks";
        }
        if (!r.chunkTokens.empty() &&
            r.chunkTokens.size() != std::min<size_t>(size_t(r.chunks), kMaxTimedGaps + 1))
            r.chunkTokens.clear(); // not every chunk said
        r.connectMs = how.connectMs;
        if (r.ok())
            ++progress.completed;
        else
            ++progress.failed;
        slotFreedAt = end;
        if (Session* s = t->session.get()) {
            if (r.ok() && s->sent < s->turns && !cancelRequested) {
                s->history.push_back(s->userTurn);
                s->history.push_back(replyTo(*s, r.maxTokens));
                readyTurns.emplace_back(end + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(spec.thinkTimeS)),
                                        t->session);
            } else { // its last turn, or one failed: the conversation ends, its other turns are not sent
                committedTurns -= s->turns - s->sent;
                --activeSessions;
            }
        }
        ++outcome.records;
        if (cb.onRecord)
            cb.onRecord(r);
        recycle(t);
    }

    // --- the schedule ---------------------------------------------------------------------------
    double nextGap() {
        // gamma(shape = burstiness, scale = 1 / (rate * burstiness)): mean 1 / rate; shape 1 is Poisson
        std::gamma_distribution<double> g(spec.burstiness, 1.0 / (spec.rate * spec.burstiness));
        return g(rng);
    }

    // A trace's request i arrives at its time, sped up or slowed down.
    double traceTime(int64_t i) const {
        return size_t(i) < spec.trace.size() ? spec.trace[size_t(i)].atS / spec.traceSpeed
                                             : std::numeric_limits<double>::infinity();
    }

    bool measuredQuotaLeft(double atS) const {
        if (!spec.trace.empty() && size_t(measuredSent) >= spec.trace.size())
            return false;
        if (spec.requests > 0 && measuredSent + committedTurns >= spec.requests)
            return false;
        if (spec.durationS > 0 && atS >= spec.durationS)
            return false;
        return true;
    }

    // Sends every request that is due now: conversations' next turns, then new requests (or conversations);
    // returns when the next one is due (if scheduled).
    std::optional<Clock::time_point> sendDue() {
        scheduleNow = Clock::now();
        if (inWarmup) {
            while (warmupSent < spec.warmup && inFlightCount() < limit()) {
                if (!send(0, std::nullopt))
                    return std::nullopt;
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
        while (!readyTurns.empty() && readyTurns.front().first <= scheduleNow) {
            auto [due, session] = std::move(readyTurns.front());
            readyTurns.pop_front();
            --committedTurns;
            ++measuredSent;
            if (!send(secondsBetween(origin, due), due, std::move(session)))
                return std::nullopt;
        }
        std::optional<Clock::time_point> next = sendDueFresh();
        if (!readyTurns.empty())
            next = next ? std::min(*next, readyTurns.front().first) : readyTurns.front().first;
        return next;
    }

    // A new request, or with turns a new conversation's first turn.
    bool sendFresh(double scheduledS, std::optional<Clock::time_point> ready) {
        return spec.turns > 1 ? startSession(scheduledS, ready) : send(scheduledS, ready);
    }
    int64_t busy() const { return spec.turns > 1 ? activeSessions : inFlightCount(); }

    std::optional<Clock::time_point> sendDueFresh() {
        while (!sendingDone) {
            scheduleNow = Clock::now();
            const double nowS = secondsBetween(origin, scheduleNow);
            if (spec.rate > 0 || !spec.trace.empty()) {
                if (!spec.trace.empty())
                    nextArrivalS = traceTime(measuredSent);
                if (!measuredQuotaLeft(nextArrivalS))
                    break;
                if (nextArrivalS > nowS)
                    return origin + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(nextArrivalS));
                if (busy() >= limit())
                    return std::nullopt; // waits for a slot; the queue time shows it
                const Clock::time_point due = origin + std::chrono::duration_cast<Clock::duration>(
                                                           std::chrono::duration<double>(nextArrivalS));
                const Clock::time_point ready = slotFreedAt && *slotFreedAt > due ? *slotFreedAt : due;
                if (!sendFresh(nextArrivalS, ready))
                    break;
                if (spec.trace.empty())
                    nextArrivalS += nextGap();
            } else {
                if (!measuredQuotaLeft(nowS) || busy() >= limit()) {
                    if (!measuredQuotaLeft(nowS))
                        sendingDone = true;
                    return std::nullopt;
                }
                // closed loop: a request is scheduled when its slot frees
                const Clock::time_point ready = slotFreedAt ? std::max(*slotFreedAt, origin) : origin;
                if (!sendFresh(std::max(0.0, secondsBetween(origin, ready)), ready))
                    break;
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
        if (cb.onProgress)
            cb.onProgress(progress);
        if (!inWarmup)
            deliverScrapes();
        nextProgress = now + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(cb.progressIntervalS));
    }

    void deliverScrapes() {
        if (!scraper)
            return;
        for (const TimedScrape& s : scraper->take())
            if (cb.onServerSample)
                cb.onServerSample(ServerSample{secondsBetween(origin, s.at), s.load, s.error});
    }

    void cancelAll() {
        const std::vector<Transfer*> all = inFlight;
        for (Transfer* t : all) {
            transport->drop(t);
            t->fail(Failure::Cancelled, "the run was cancelled");
            finish(t, TransferEnd{});
        }
    }

    LoadOutcome run();
};

namespace {
double msBetween(Clock::time_point a, Clock::time_point b) {
    return secondsBetween(a, b) * 1000.0;
}
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
    if (c.finishReason)
        record.finishReason = c.finishReason;
}

void LoadEngine::Impl::Transfer::stamp(Clock::time_point at) {
    sent = at;
    record.sentS = secondsBetween(engine->origin, at);
    record.queueMs = std::max(0.0, (record.sentS - record.scheduledS) * 1000.0);
    record.clientDelayMs = ready ? std::max(0.0, secondsBetween(*ready, at) * 1000.0) : 0.0;
}

void LoadEngine::Impl::Transfer::onEvent(const SseEvent& ev) {
    if (done || aborted)
        return;
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
    if (c.hasChoices)
        lastChoice = now;
    if (!c.text.empty()) {
        if (!record.ttftMs)
            record.ttftMs = msBetween(sent, now);
        else if (record.itlMs.size() < kMaxTimedGaps)
            record.itlMs.push_back(msBetween(lastText, now));
        else {
            ++record.itlDropped;
            record.itlDroppedMaxMs = std::max(record.itlDroppedMaxMs, msBetween(lastText, now));
        }
        lastText = now;
        ++record.chunks;
        if (c.completionTokens && record.chunkTokens.size() <= kMaxTimedGaps)
            record.chunkTokens.push_back(int(
                std::clamp<int64_t>(*c.completionTokens - usageSoFar, 0, std::numeric_limits<int>::max())));
    }
    takeUsage(c);
}

bool LoadEngine::Impl::Transfer::received(int httpStatus, const char* data, size_t bytes,
                                          Clock::time_point at) {
    if (!statusKnown) {
        record.httpStatus = httpStatus;
        statusKnown = true;
        streaming = engine->spec.stream && httpStatus == 200;
    }
    if (!streaming) {
        const size_t cap = httpStatus == 200 ? kMaxResponseBody : kMaxErrorBody;
        response.append(data, std::min(bytes, cap - std::min(cap, response.size())));
        if (httpStatus == 200 && response.size() >= kMaxResponseBody) {
            fail(Failure::Protocol, "the response is larger than 64 MiB");
            return false;
        }
        return true;
    }
    if (done)
        return true; // after [DONE] nothing more is expected; what comes is ignored
    now = at;
    if (!parser->feed(data, bytes)) {
        fail(Failure::Protocol, "malformed event stream: " + parser->error());
        return false;
    }
    return !aborted;
}

void LoadEngine::Impl::Transfer::readWholeResponse(Clock::time_point end) {
    const StreamChunk c = interpretResponse(response, engine->spec.endpoint);
    if (c.invalid)
        return fail(Failure::Protocol, "the response is " + c.problem);
    if (c.error)
        return fail(Failure::StreamError, *c.error);
    if (!c.text.empty()) {
        record.ttftMs = msBetween(sent, end); // without a stream, the first token comes with the last
        record.chunks = 1;
    }
    lastChoice = end;
    takeUsage(c);
}

LoadOutcome LoadEngine::Impl::run() {
    if (auto problems = validate(spec); !problems.empty()) {
        outcome.error = problems.front();
        return outcome;
    }
    HttpSetup setup;
    setup.url = spec.url + endpointPath(spec.endpoint);
    setup.headers.emplace_back("Content-Type", "application/json");
    if (spec.stream)
        setup.headers.emplace_back("Accept", "text/event-stream");
    setup.headers.insert(setup.headers.end(), spec.headers.begin(), spec.headers.end());
    setup.timeoutS = spec.timeoutS;
    setup.connectTimeoutS = spec.connectTimeoutS;
    setup.caPem = spec.caPem;
    setup.insecure = spec.insecure;
    setup.concurrency = spec.concurrency;
    std::string why;
    transport = makeTransport(setup, spec.httpClient, &why);
    if (!transport) {
        outcome.error = why;
        return outcome;
    }
    wakeable = transport.get();
    outcome.httpClient = transport->library();
    outcome.fdLimit = raiseFdLimit();
    rng.seed(spec.seed);
    bodies.emplace(spec);
    inWarmup = spec.warmup > 0;
    if (!spec.metricsUrl.empty())
        scraper = std::make_unique<MetricsScraper>(spec);
    origin = Clock::now();
    nextProgress = origin;
    while (true) {
        if (cancelRequested) {
            cancelAll();
            outcome.cancelled = true;
            break;
        }
        const std::optional<Clock::time_point> nextSend = sendDue();
        if (!inWarmup && sendingDone && inFlight.empty() && readyTurns.empty())
            break;
        const Clock::time_point now = Clock::now();
        if (now >= nextProgress)
            reportProgress(now);
        const Clock::time_point wakeAt = nextSend ? std::min(nextProgress, *nextSend) : nextProgress;
        if (!transport->wait(wakeAt, &why)) {
            outcome.error = why;
            cancelAll();
            break;
        }
    }
    if (scraper && !cancelRequested)
        scraper->finish(); // the counters as the run ends
    reportProgress(Clock::now());
    deliverScrapes(); // a run that ended in its warm-up has them too
    scraper.reset();
    outcome.origin = origin;
    return outcome;
}

LoadEngine::LoadEngine(LoadSpec spec, LoadCallbacks callbacks)
    : impl_(std::make_unique<Impl>(std::move(spec), std::move(callbacks))) {}
LoadEngine::~LoadEngine() = default;

LoadOutcome LoadEngine::run() {
    return impl_->run();
}

void LoadEngine::cancel() {
    impl_->cancelRequested = true;
    if (HttpTransport* t = impl_->wakeable)
        t->wake();
}

} // namespace rsload
