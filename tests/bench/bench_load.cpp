// The load engine's figures, side by side in one run, against the project's
// own OpenAI-compatible server on this machine:
//  1. plain (non-streaming) request rate of each of the engine's HTTP clients
//     (native, libcurl), against wrk on the same server (answering from a
//     prepared response) and the same request (goal: a ratio of 1.0), with
//     what a request costs each client in CPU;
//  2. the timing error of TTFT and TPOT at 1000 concurrent streams, against
//     the server's scripted values (goal: under 1 ms at the median, under
//     2 ms at p99), with streams arriving as users do and, as the worst
//     case, all in lockstep; beside it the server's own lateness, and each
//     error less the server's lateness for that first token, so a late
//     server is not mistaken for a slow client;
//  3. the most concurrent streams the engine sustains on this machine with
//     the error still in bound.
// It fails only when it cannot measure, never on a figure.
#include "load/load_engine.h"
#include "load/load_test_server.h"
#include "load_model/load_summary.h"
#include "proc_cpu.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <random>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace rsload;
using rackscope::test::LoadTestServer;

namespace {

using Clock = std::chrono::steady_clock;

HttpClient timingClient = HttpClient::Auto; // the client the timing part measures

LoadSpec baseSpec(const LoadTestServer& server) {
    LoadSpec s;
    s.httpClient = timingClient;
    s.url = server.url();
    s.model = "bench";
    s.endpoint = Endpoint::Completions;
    s.ignoreEos = true;
    s.seed = 1;
    s.client = "bench";
    return s;
}

LoadOutcome runWith(const LoadSpec& spec, std::function<void(const RequestRecord&)> onRecord) {
    LoadEngine engine(spec, {std::move(onRecord), {}, 1.0, {}});
    const LoadOutcome o = engine.run();
    if (!o.error.empty())
        std::fprintf(stderr, "bench_load: %s\n", o.error.c_str());
    return o;
}

// The request rate as summarize() has it, counted as the records come: keeping 300,000 records of 416
// bytes would cost the client's thread about 0.7 us a request (page faults, copies) that wrk does not pay.
struct RateCount {
    size_t records = 0, completed = 0, failed = 0;
    double start = 0, end = 0;
    void add(const RequestRecord& r) {
        ++records;
        if (r.warmup)
            return;
        const double finish = r.sentS + r.e2elMs.value_or(0) / 1000.0;
        start = completed + failed ? std::min(start, r.sentS) : r.sentS;
        end = completed + failed ? std::max(end, finish) : finish;
        ++(r.ok() ? completed : failed);
    }
    double rate() const { return end > start ? double(completed) / (end - start) : 0; }
};

// A thread's run delay so far, in ns: how long it has waited, runnable, for a core (the second figure of its
// /proc schedstat, read again from the start of the open file `fd`); -1 where it cannot be read.
long long runDelayNs(int fd) {
    char text[96];
    if (fd < 0 || ::lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    if (n <= 0)
        return -1;
    text[n] = 0;
    char* after = nullptr;
    std::strtoull(text, &after, 10); // the time it ran
    return static_cast<long long>(std::strtoull(after, nullptr, 10));
}

// The machine's own pauses: a thread of the highest real-time priority on each core wakes every millisecond
// and notes each wake more than 0.5 ms late. Nothing on the machine runs before it, so what it notes is time
// the core itself was gone (the hypervisor, the kernel's own work), which neither the client nor the server
// can help. The first core's also notes each millisecond in which the constructing thread (the client's)
// waited more than 0.5 ms, runnable, for a core another process had (the kernel's run delay for that thread).
class PauseProbe {
public:
    explicit PauseProbe(int cores) : client_(pid_t(syscall(SYS_gettid))) {
        for (int cpu = 0; cpu < cores; ++cpu)
            threads_.emplace_back([this, cpu] { watch(cpu); });
    }
    ~PauseProbe() { stop(); }
    // The pauses noted, as [start, end] on the steady clock; empty when the probe could not run real-time.
    std::vector<std::pair<Clock::time_point, Clock::time_point>> stop() {
        stopping_ = true;
        for (std::thread& t : threads_)
            if (t.joinable())
                t.join();
        return pauses_;
    }
    bool measured() const { return realTime_; }

private:
    void watch(int cpu) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        const sched_param top{sched_get_priority_max(SCHED_FIFO)};
        if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0 ||
            pthread_setschedparam(pthread_self(), SCHED_FIFO, &top) != 0)
            return;
        realTime_ = true;
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
        const int schedstat =
            cpu == 0 ? ::open(("/proc/self/task/" + std::to_string(client_) + "/schedstat").c_str(), O_RDONLY)
                     : -1;
        long long waited = runDelayNs(schedstat);
        Clock::time_point next = Clock::now(), last = next;
        while (!stopping_) {
            next += std::chrono::milliseconds(1);
            std::this_thread::sleep_until(next);
            const Clock::time_point woke = Clock::now();
            const long long nowWaited = runDelayNs(schedstat);
            if (woke - next > std::chrono::microseconds(500) ||
                (waited >= 0 && nowWaited - waited > 500'000)) {
                std::lock_guard lock(mutex_);
                pauses_.emplace_back(woke - next > std::chrono::microseconds(500) ? next : last, woke);
            }
            waited = nowWaited;
            last = woke;
            next = std::max(next, woke - std::chrono::milliseconds(1));
        }
        if (schedstat >= 0)
            ::close(schedstat);
    }
    const pid_t client_;
    std::vector<std::thread> threads_;
    std::atomic<bool> stopping_{false}, realTime_{false};
    std::mutex mutex_;
    std::vector<std::pair<Clock::time_point, Clock::time_point>> pauses_;
};

struct TimingError {
    double ttftMedian = 0, ttftP99 = 0, tpotMedian = 0, tpotP99 = 0;
    size_t ok = 0, failed = 0;
    double inFlightMedian = 0;  // streams open at once while it was measured
    std::string serverLateness; // how late the server itself wrote, by its own clock
    // Apart from the first tokens whose sending or delivery a pause of the machine (or other work on the
    // client's core) fell on: the client's and the server's own error.
    bool pausesMeasured = false;
    size_t inPause = 0;
    double ownTtftP99 = 0;
    double clientWaitedMs = -1; // the engine's thread runnable while others had its core (-1: not known)
    // Each TTFT error less how late the server wrote that request's first token, by the server's own clock:
    // the client's part (its sending, its reading, the kernel between them).
    size_t clientKnown = 0;
    double clientTtftMedian = 0, clientTtftP99 = 0;
    bool inBound() const {
        return failed == 0 && ok > 0 && ttftMedian < 1 && ttftP99 < 2 && tpotMedian < 1 && tpotP99 < 2;
    }
};

// This thread's run delay so far, in ms; -1 where the kernel does not say.
double runDelayMs() {
    const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY);
    const long long ns = runDelayNs(fd);
    if (fd >= 0)
        ::close(fd);
    return ns < 0 ? -1 : double(ns) / 1e6;
}

// How streams start. Arrivals: a Poisson process at a rate that keeps `streams` open (capped at
// `streams`), as users arrive at a server in service; the first end-to-end time is the ramp and is
// not measured. Lockstep: a closed loop whose streams all start, and so all get each token, in the
// same instant: the worst case for a single client thread.
enum class Shape { Arrivals, Lockstep };

TimingError timingAt(const LoadTestServer& server, Shape shape, int streams, double ttftMs, double tpotMs,
                     int tokens, bool scrape = false) {
    LoadSpec s = baseSpec(server);
    if (scrape) // the server's /metrics every 0.5 s, as every run does by default
        s.metricsUrl = server.url().substr(0, server.url().size() - 3) + "/metrics";
    const double e2eS = (ttftMs + tpotMs * (tokens - 1)) / 1000.0;
    s.concurrency = streams;
    if (shape == Shape::Arrivals) {
        s.rate = 1.1 * streams / e2eS; // a little over what `streams` can serve: the cap holds them open
        s.requests = 4 * int64_t(streams);
    } else {
        s.warmup = streams; // connections made before the clock starts, as a server in service has them
        s.requests = 2 * int64_t(streams);
    }
    // Each request's prompt tagged with its index ("#N "), so that the server says how late it wrote that
    // request's first token: 16 words, as the synthetic prompts these runs had before.
    for (int64_t i = 0; i < s.warmup + s.requests; ++i)
        s.prompts.push_back(Prompt{
            "#" + std::to_string(i) + " the of and to in is that for it as with was on be at", {}, 0, {}});
    s.outputLen = {LengthDist::Kind::Fixed, double(tokens), 0};
    s.headers = {{"X-Test-Script", "ttft=" + std::to_string(ttftMs) + ";tpot=" + std::to_string(tpotMs)}};
    const double measuredFromS = shape == Shape::Arrivals ? e2eS : 0;
    std::vector<double> ttft, tpot, inFlight;
    std::vector<RequestRecord> records;
    server.get("/test/lateness"); // starts the server's count afresh
    LoadEngine engine(s, {[&](const RequestRecord& r) { records.push_back(r); },
                          [&](const LoadProgress& p) {
                              if (!p.warmup && p.elapsedS >= measuredFromS && p.sent < s.warmup + s.requests)
                                  inFlight.push_back(double(p.inFlight));
                          },
                          0.05,
                          {}});
    PauseProbe probe(int(sysconf(_SC_NPROCESSORS_ONLN)));
    const double waitedBefore = runDelayMs();
    const LoadOutcome o = engine.run();
    const double waitedAfter = runDelayMs();
    const auto pauses = probe.stop();
    if (!o.error.empty())
        std::fprintf(stderr, "bench_load: %s\n", o.error.c_str());
    TimingError e;
    e.pausesMeasured = probe.measured();
    if (waitedBefore >= 0 && waitedAfter >= 0)
        e.clientWaitedMs = waitedAfter - waitedBefore;
    std::vector<double> ownTtft;
    // A pause counts against a request when it overlaps its sending (the first 2 ms) or the delivery of its
    // first token (from 1 ms before it was due to when it came).
    const auto at = [&](double seconds) {
        return o.origin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    };
    const auto paused = [&](Clock::time_point from, Clock::time_point to) {
        for (const auto& [p0, p1] : pauses)
            if (p0 < to && p1 > from)
                return true;
        return false;
    };
    e.serverLateness = server.get("/test/lateness");
    const Json firstTokenLate = Json::parse(server.get("/test/first-token-lateness"), nullptr, false);
    std::vector<double> clientTtft;
    for (const RequestRecord& r : records) {
        if (r.warmup || r.sentS < measuredFromS)
            continue;
        if (!r.ok()) {
            ++e.failed;
            continue;
        }
        ++e.ok;
        ttft.push_back(std::abs(*r.ttftMs - ttftMs));
        if (const std::string tag = std::to_string(r.index);
            firstTokenLate.is_object() && firstTokenLate.contains(tag) && firstTokenLate[tag].is_number())
            clientTtft.push_back(std::abs(*r.ttftMs - ttftMs - firstTokenLate[tag].get<double>()));
        tpot.push_back(std::abs(*r.tpotMs() - tpotMs));
        const double sent = r.sentS, due = r.sentS + ttftMs / 1000, came = r.sentS + *r.ttftMs / 1000;
        if (paused(at(sent), at(sent + 0.002)) || paused(at(due - 0.001), at(std::max(came, due))))
            ++e.inPause;
        else
            ownTtft.push_back(ttft.back());
    }
    const MetricStats own = statsOf(ownTtft, {99});
    e.ownTtftP99 = own.percentiles.empty() ? 0 : own.percentiles[0].second;
    const MetricStats a = statsOf(ttft, {99}), b = statsOf(tpot, {99});
    e.ttftMedian = a.median;
    e.ttftP99 = a.percentiles.empty() ? 0 : a.percentiles[0].second;
    e.tpotMedian = b.median;
    e.tpotP99 = b.percentiles.empty() ? 0 : b.percentiles[0].second;
    e.inFlightMedian = statsOf(inFlight, {}).median;
    const MetricStats c = statsOf(clientTtft, {99});
    e.clientKnown = clientTtft.size();
    e.clientTtftMedian = c.median;
    e.clientTtftP99 = c.percentiles.empty() ? 0 : c.percentiles[0].second;
    return e;
}

void printTiming(const char* label, int streams, const TimingError& e) {
    std::printf("  %s, %d streams (%.0f open at the median, %zu measured, %zu failed): %s\n", label, streams,
                e.inFlightMedian, e.ok, e.failed, e.inBound() ? "in bound" : "out of bound");
    std::printf("    TTFT error: median %.3f ms (ratio %.2f to 1 ms), p99 %.3f ms (ratio %.2f to 2 ms)\n",
                e.ttftMedian, e.ttftMedian / 1.0, e.ttftP99, e.ttftP99 / 2.0);
    std::printf("    TPOT error: median %.3f ms (ratio %.2f to 1 ms), p99 %.3f ms (ratio %.2f to 2 ms)\n",
                e.tpotMedian, e.tpotMedian / 1.0, e.tpotP99, e.tpotP99 / 2.0);
    std::printf("    the server's own lateness writing them: %s\n",
                e.serverLateness.empty() ? "not known" : e.serverLateness.c_str());
    if (e.clientKnown > 0)
        std::printf(
            "    the client's own TTFT error (each less how late the server wrote that first token, %zu of "
            "%zu): median %.3f ms (ratio %.2f to 1 ms), p99 %.3f ms (ratio %.2f to 2 ms)\n",
            e.clientKnown, e.ok, e.clientTtftMedian, e.clientTtftMedian / 1.0, e.clientTtftP99,
            e.clientTtftP99 / 2.0);
    else
        std::printf("    the client's own TTFT error: not known (the server tagged no first token)\n");
    if (e.pausesMeasured)
        std::printf("    TTFT error p99 apart from the machine's pauses and other work on the client's core: "
                    "%.3f ms (ratio %.2f to 2 ms; %zu of %zu first tokens had a pause of a core, or the "
                    "client's core taken by other work, over 0.5 ms in their sending or delivery)\n",
                    e.ownTtftP99, e.ownTtftP99 / 2.0, e.inPause, e.ok);
    else
        std::printf("    the machine's own pauses: not measured (a real-time thread needs root)\n");
    if (e.clientWaitedMs >= 0)
        std::printf("    the client's thread waited for its core, runnable, %.1f ms in all "
                    "(other threads and processes had it)\n",
                    e.clientWaitedMs);
}

// CPU time, user and system, in microseconds.
struct Cpu {
    double userUs = 0, systemUs = 0;
    Cpu operator-(const Cpu& o) const { return {userUs - o.userUs, systemUs - o.systemUs}; }
    Cpu per(double requests) const { return {userUs / requests, systemUs / requests}; }
    double total() const { return userUs + systemUs; }
};

Cpu cpuOf(int who) { // RUSAGE_THREAD: this thread, which runs the engine; RUSAGE_CHILDREN: wrk, once reaped
    rusage u{};
    getrusage(who, &u);
    const auto us = [](const timeval& t) { return double(t.tv_sec) * 1e6 + double(t.tv_usec); };
    return {us(u.ru_utime), us(u.ru_stime)};
}

// wrk's rate, and its CPU per request in `cpu`.
double wrkRate(const LoadTestServer& server, int connections, int seconds, const std::string& body,
               Cpu* cpu) {
    const QString wrk = QStandardPaths::findExecutable(QStringLiteral("wrk"));
    if (wrk.isEmpty())
        return -1;
    QTemporaryDir dir;
    QFile script(dir.filePath(QStringLiteral("post.lua")));
    if (!script.open(QIODevice::WriteOnly))
        return -1;
    std::string lua =
        "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [[" + body +
        "]]\n";
    script.write(lua.data(), qint64(lua.size()));
    script.close();
    QProcess p;
    const Cpu before = cpuOf(RUSAGE_CHILDREN);
    p.start(wrk, {QStringLiteral("-t1"), QStringLiteral("-c%1").arg(connections),
                  QStringLiteral("-d%1s").arg(seconds), QStringLiteral("-s"), script.fileName(),
                  QString::fromStdString(server.url() + "/completions")});
    if (!p.waitForFinished(120000))
        return -1;
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const auto m = QRegularExpression(QStringLiteral("Requests/sec:\\s+([0-9.]+)")).match(out);
    const auto n = QRegularExpression(QStringLiteral("([0-9]+) requests in")).match(out);
    if (!m.hasMatch() || !n.hasMatch() || out.contains(QLatin1String("Non-2xx"))) {
        std::fprintf(stderr, "bench_load: wrk said:\n%s\n", qPrintable(out));
        return -1;
    }
    *cpu = (cpuOf(RUSAGE_CHILDREN) - before).per(n.captured(1).toDouble());
    return m.captured(1).toDouble();
}

// The server on the last of `allowed` (the cores this process was given), this process (and what it starts
// from now on) on the others.
bool pinApart(const LoadTestServer& server, cpu_set_t allowed) {
    if (CPU_COUNT(&allowed) < 2)
        return false;
    int last = CPU_SETSIZE - 1;
    while (!CPU_ISSET(last, &allowed))
        --last;
    CPU_CLR(last, &allowed);
    return server.pinTo(last) && sched_setaffinity(0, sizeof allowed, &allowed) == 0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

int main(int argc, char** argv) {
    const std::string part = argc > 1 ? argv[1] : "all"; // plain, timing or all
    if (argc > 2)
        timingClient = httpClientFromName(argv[2]).value_or(HttpClient::Auto); // auto, native or curl
    // The plain rate's server answers each request with one prepared response: it then costs less a request
    // than the clients it measures, and the rate is theirs (with the full server, parsing each request's
    // JSON, its core was the limit of both wrk and the native client).
    LoadTestServer server({QStringLiteral("--fixed-answer")});
    if (!server.ok()) {
        std::fprintf(stderr, "bench_load: the test server did not start\n");
        return 1;
    }
    // The server measured against is not to be the bottleneck of its own measurement: with two cores or more
    // it has the last of those this process may use to itself, and the client (this process, and wrk) the
    // others. `taskset -c 0 bench_load` measures one core shared by the client and the server: how the
    // figures scale with cores, as far as one machine can say.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        CPU_SET(0, &allowed);
    const int cores = CPU_COUNT(&allowed);
    const bool apart = pinApart(server, allowed);
    std::printf("bench_load: %d cores; %s\n", cores,
                apart ? "the test server on the last core alone, the client on the others"
                      : "the test server and the client share the cores");
    double engineRate = 0;
    if (part != "timing") {
        // 1. Plain request rate, same server, same request, one thread each, 64 connections. The clients
        // take turns, a few rounds each; each round's native run and wrk run are back to back (which goes
        // first alternating), and the ratio is the median of the rounds' own: a neighbour's burst of load
        // falls on one round, and a slow spell of the machine (tens of seconds, seen here) on both runs of
        // a pair, not on one side.
        const int connections = 64, seconds = 3, rounds = 5;
        LoadSpec plain = baseSpec(server);
        plain.stream = false;
        plain.concurrency = connections;
        plain.durationS = seconds;
        plain.warmup = connections;
        plain.inputLen = {LengthDist::Kind::Fixed, 8, 0};
        plain.outputLen = {LengthDist::Kind::Fixed, 1, 0};
        const std::string body =
            R"({"model":"bench","prompt":"the of and to in is that for","max_tokens":1,"ignore_eos":true,"stream":false})";
        // Each client of the engine's (the native one, which a plain http run takes, and libcurl, which https
        // and proxies take) and wrk in turn, round after round.
        std::vector<double> native, curl, theirs;
        std::vector<Cpu> nativeCpu, curlCpu, theirCpu; // per request
        std::vector<double> serverBusy[3];             // how busy the server's core was, for each client
        std::string names[2];
        size_t failed = 0;
        // The share of its core the server used while `measure` ran.
        const auto serverShare = [&](const std::function<void()>& measure) {
            const double cpu0 = rackscope::bench::processCpuSeconds(server.pid());
            const auto t0 = std::chrono::steady_clock::now();
            measure();
            const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return (rackscope::bench::processCpuSeconds(server.pid()) - cpu0) / wallS;
        };
        auto rate = [&](HttpClient client, std::string* name, std::vector<Cpu>* cpu) {
            plain.httpClient = client;
            RateCount count;
            const Cpu before = cpuOf(RUSAGE_THREAD);
            const LoadOutcome o = runWith(plain, [&](const RequestRecord& r) { count.add(r); });
            cpu->push_back((cpuOf(RUSAGE_THREAD) - before).per(double(std::max<size_t>(1, count.records))));
            failed += count.failed;
            *name = o.httpClient;
            return count.rate();
        };
        const auto measureNative = [&] {
            serverBusy[0].push_back(
                serverShare([&] { native.push_back(rate(HttpClient::Native, &names[0], &nativeCpu)); }));
        };
        const auto measureWrk = [&] {
            Cpu wrkCpu;
            double w = 0;
            serverBusy[2].push_back(
                serverShare([&] { w = wrkRate(server, connections, seconds, body, &wrkCpu); }));
            if (w > 0) {
                theirs.push_back(w);
                theirCpu.push_back(wrkCpu);
            }
        };
        for (int round = 0; round < rounds; ++round) {
            if (round % 2 == 0) {
                measureNative();
                measureWrk();
            } else {
                measureWrk();
                measureNative();
            }
            serverBusy[1].push_back(
                serverShare([&] { curl.push_back(rate(HttpClient::Curl, &names[1], &curlCpu)); }));
            char wrkText[64] = "-";
            if (theirs.size() == size_t(round + 1))
                std::snprintf(wrkText, sizeof wrkText, "%.0f req/s, ratio %.2f", theirs.back(),
                              native.back() / theirs.back());
            std::printf("  round %d (%s first): native %.0f req/s, wrk %s; libcurl %.0f req/s\n", round + 1,
                        round % 2 == 0 ? "native" : "wrk", native.back(), wrkText, curl.back());
        }
        engineRate = median(native);
        std::printf("plain request rate, %d connections, median of %d rounds of %d s (%zu failed):\n",
                    connections, rounds, seconds, failed);
        const double reference = median(theirs);
        for (const auto& [label, rates, name] : {std::tuple{"native client", &native, names[0]},
                                                 std::tuple{"libcurl client", &curl, names[1]}}) {
            std::printf("  %-15s %7.0f req/s", label, median(*rates));
            if (!theirs.empty() && theirs.size() == rates->size()) {
                // Each round's ratio to the wrk run of the same round; the median of those, and their spread.
                std::vector<double> byRound;
                for (size_t i = 0; i < theirs.size(); ++i)
                    byRound.push_back((*rates)[i] / theirs[i]);
                std::printf("   wrk %7.0f req/s   ratio %.2f (median of the rounds' %.2f-%.2f; goal >= 1.0)",
                            reference, median(byRound), *std::min_element(byRound.begin(), byRound.end()),
                            *std::max_element(byRound.begin(), byRound.end()));
            } else if (!theirs.empty()) {
                std::printf("   wrk %7.0f req/s   ratio %.2f (goal >= 1.0)", reference,
                            median(*rates) / reference);
            }
            std::printf("   [%s]\n", name.c_str());
        }
        if (theirs.empty())
            std::printf("  wrk not available: no ratio\n");
        // What a request costs each client, from the kernel's accounts: where the rates differ, this says
        // whether it is the client's own work (user) or its system calls and the network stack (system).
        const auto costOf = [](const std::vector<Cpu>& v) {
            std::vector<double> totals, user, system;
            for (const Cpu& c : v) {
                totals.push_back(c.total());
                user.push_back(c.userUs);
                system.push_back(c.systemUs);
            }
            char line[96];
            std::snprintf(line, sizeof line, "%.1f us (user %.1f, system %.1f)", median(totals), median(user),
                          median(system));
            return std::string(line);
        };
        std::printf("  client CPU per request, median of rounds: native %s, libcurl %s, wrk %s\n",
                    costOf(nativeCpu).c_str(), costOf(curlCpu).c_str(),
                    theirCpu.empty() ? "-" : costOf(theirCpu).c_str());
        // Near 100 %, the server was the limit and the ratio says little of the clients.
        std::printf("  the server's core busy, median of rounds: %.0f %% with native, %.0f %% with libcurl, "
                    "%.0f %% with wrk\n",
                    100 * median(serverBusy[0]), 100 * median(serverBusy[1]), 100 * median(serverBusy[2]));
        if (part == "plain")
            return engineRate > 0 ? 0 : 1;
    }

    // 2. Timing error at 1000 concurrent streams, then 3. the most streams with it in bound.
    // Its /metrics replay a real vLLM scrape, for the run with scraping on.
    LoadTestServer streaming({"--metrics", RACKSCOPE_INCOMING_FIXTURES_DIR
                              "/vllm-metrics_v1-engine-qwen2.5-coder-32b-gpu-cache-usage-perc_excerpt.prom"});
    if (!streaming.ok())
        return 1;
    if (apart)
        pinApart(streaming, allowed);
    // Its lateness is not the client's error: ahead of the machine's other processes where that is allowed.
    std::printf("the streaming server %s\n", streaming.runAheadOfOtherProcesses()
                                                 ? "runs ahead of other processes (real-time priority)"
                                                 : "runs at ordinary priority (real-time needs root)");
    const double ttftMs = 100, tpotMs = 20;
    const int tokens = 64;
    std::printf("timing error against the script (TTFT %.0f ms, TPOT %.0f ms, %d tokens; goal: median under "
                "1 ms, p99 under 2 ms):\n",
                ttftMs, tpotMs, tokens);
    // A server in service has its memory for this many connections already: one run first, not measured (the
    // first run after the server starts pays its page faults, and its TTFT p99 was 2 to 4 times the next
    // one's).
    timingAt(streaming, Shape::Arrivals, 1000, ttftMs, tpotMs, tokens);
    const TimingError e = timingAt(streaming, Shape::Arrivals, 1000, ttftMs, tpotMs, tokens);
    printTiming("Poisson arrivals", 1000, e);
    const TimingError scraped = timingAt(streaming, Shape::Arrivals, 1000, ttftMs, tpotMs, tokens, true);
    printTiming("Poisson arrivals, the server's /metrics scraped every 0.5 s", 1000, scraped);
    std::printf(
        "    TTFT error p99 with scraping beside without: %.3f ms / %.3f ms, ratio %.2f (goal <= 1.0 within "
        "the rounds' spread)\n",
        scraped.ttftP99, e.ttftP99, e.ttftP99 > 0 ? scraped.ttftP99 / e.ttftP99 : 0.0);
    {
        // A trace replayed at 200 requests/s (Poisson, 5 s, no concurrency cap): how late each request left
        // against the trace's time.
        LoadSpec t = baseSpec(streaming);
        t.concurrency = 0;
        t.requests = 0;
        t.headers = {{"X-Test-Script", "ttft=100;tpot=20"}};
        std::mt19937_64 arrivals(11);
        double at = 0;
        for (int i = 0; i < 1000; ++i, at += std::exponential_distribution<double>(200)(arrivals))
            t.trace.push_back(TraceArrival{at, 16, 16, {}});
        std::vector<double> lateMs;
        LoadEngine engine(t,
                          {[&](const RequestRecord& r) { lateMs.push_back((r.sentS - r.scheduledS) * 1000); },
                           {},
                           1.0,
                           {}});
        engine.run();
        const MetricStats late = statsOf(lateMs, {99});
        std::printf(
            "  trace replay at 200 requests/s, %zu requests: send-time error median %.3f ms, p99 %.3f ms "
            "(ratio %.2f to 2 ms)\n",
            lateMs.size(), late.median, late.percentiles.empty() ? 0.0 : late.percentiles[0].second,
            late.percentiles.empty() ? 0.0 : late.percentiles[0].second / 2.0);
    }
    printTiming("lockstep (every stream's token in the same instant)", 1000,
                timingAt(streaming, Shape::Lockstep, 1000, ttftMs, tpotMs, tokens));
    int best = e.inBound() ? 1000 : 0;
    for (int streams : {1500, 2000, 4000, 8000}) {
        if (best < streams / 2)
            break;
        const TimingError t = timingAt(streaming, Shape::Arrivals, streams, ttftMs, tpotMs, tokens);
        printTiming("Poisson arrivals", streams, t);
        if (!t.inBound())
            break;
        best = streams;
    }
    if (best == 0) {
        const TimingError t = timingAt(streaming, Shape::Arrivals, 500, ttftMs, tpotMs, tokens);
        printTiming("Poisson arrivals", 500, t);
        if (t.inBound())
            best = 500;
    }
    std::printf(
        "most concurrent streams with the timing error in bound on this machine (Poisson arrivals): %d\n",
        best);
    return (part == "timing" || engineRate > 0) && e.ok > 0 ? 0 : 1;
}
