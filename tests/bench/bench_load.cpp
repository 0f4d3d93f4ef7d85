// The load engine's figures, side by side in one run, against the project's
// own OpenAI-compatible server on this machine:
//  1. plain (non-streaming) request rate, against wrk on the same server and
//     the same request (goal: a ratio of at least 0.8);
//  2. the timing error of TTFT and TPOT at 1000 concurrent streams, against
//     the server's scripted values (goal: under 1 ms at the median, under
//     2 ms at p99);
//  3. the most concurrent streams the engine sustains on this machine with
//     the error still in bound.
// It fails only when it cannot measure, never on a figure.
#include "load/load_engine.h"
#include "load/load_summary.h"
#include "load/load_test_server.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>

using namespace rsload;
using rackscope::test::LoadTestServer;

namespace {

LoadSpec baseSpec(const LoadTestServer& server) {
    LoadSpec s;
    s.url = server.url();
    s.model = "bench";
    s.endpoint = Endpoint::Completions;
    s.ignoreEos = true;
    s.seed = 1;
    s.client = "bench";
    return s;
}

std::vector<RequestRecord> run(const LoadSpec& spec, LoadOutcome* outcome = nullptr) {
    std::vector<RequestRecord> records;
    LoadEngine engine(spec, {[&](const RequestRecord& r) { records.push_back(r); }, {}, 1.0});
    const LoadOutcome o = engine.run();
    if (outcome) *outcome = o;
    if (!o.error.empty()) std::fprintf(stderr, "bench_load: %s\n", o.error.c_str());
    return records;
}

struct TimingError {
    double ttftMedian = 0, ttftP99 = 0, tpotMedian = 0, tpotP99 = 0;
    size_t ok = 0, failed = 0;
};

TimingError timingAt(const LoadTestServer& server, int streams, double ttftMs, double tpotMs, int tokens) {
    LoadSpec s = baseSpec(server);
    s.concurrency = streams;
    s.warmup = streams;       // connections made before the clock starts, as a server in service has them
    s.requests = 2 * int64_t(streams);
    s.inputLen = {LengthDist::Kind::Fixed, 16, 0};
    s.outputLen = {LengthDist::Kind::Fixed, double(tokens), 0};
    s.headers = {{"X-Test-Script", "ttft=" + std::to_string(ttftMs) + ";tpot=" + std::to_string(tpotMs)}};
    std::vector<double> ttft, tpot;
    TimingError e;
    for (const RequestRecord& r : run(s)) {
        if (r.warmup) continue;
        if (!r.ok()) {
            ++e.failed;
            continue;
        }
        ++e.ok;
        ttft.push_back(std::abs(*r.ttftMs - ttftMs));
        tpot.push_back(std::abs(*r.tpotMs() - tpotMs));
    }
    const MetricStats a = statsOf(ttft, {99}), b = statsOf(tpot, {99});
    e.ttftMedian = a.median;
    e.ttftP99 = a.percentiles.empty() ? 0 : a.percentiles[0].second;
    e.tpotMedian = b.median;
    e.tpotP99 = b.percentiles.empty() ? 0 : b.percentiles[0].second;
    return e;
}

double wrkRate(const LoadTestServer& server, int connections, int seconds, const std::string& body) {
    const QString wrk = QStandardPaths::findExecutable(QStringLiteral("wrk"));
    if (wrk.isEmpty()) return -1;
    QTemporaryDir dir;
    QFile script(dir.filePath(QStringLiteral("post.lua")));
    if (!script.open(QIODevice::WriteOnly)) return -1;
    std::string lua = "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [[" + body + "]]\n";
    script.write(lua.data(), qint64(lua.size()));
    script.close();
    QProcess p;
    p.start(wrk, {QStringLiteral("-t1"), QStringLiteral("-c%1").arg(connections), QStringLiteral("-d%1s").arg(seconds), QStringLiteral("-s"), script.fileName(),
                  QString::fromStdString("http://127.0.0.1:" + std::to_string(server.port()) + "/v1/completions")});
    if (!p.waitForFinished(120000)) return -1;
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const auto m = QRegularExpression(QStringLiteral("Requests/sec:\\s+([0-9.]+)")).match(out);
    if (!m.hasMatch() || out.contains(QLatin1String("Non-2xx"))) {
        std::fprintf(stderr, "bench_load: wrk said:\n%s\n", qPrintable(out));
        return -1;
    }
    return m.captured(1).toDouble();
}

} // namespace

int main() {
    LoadTestServer server({QStringLiteral("--script"), QStringLiteral("ttft=0;tpot=0")});
    if (!server.ok()) {
        std::fprintf(stderr, "bench_load: the test server did not start\n");
        return 1;
    }
    // 1. Plain request rate, same server, same request, one thread each, 64 connections.
    const int connections = 64, seconds = 5;
    LoadSpec plain = baseSpec(server);
    plain.stream = false;
    plain.concurrency = connections;
    plain.durationS = seconds;
    plain.warmup = connections;
    plain.inputLen = {LengthDist::Kind::Fixed, 8, 0};
    plain.outputLen = {LengthDist::Kind::Fixed, 1, 0};
    const auto plainRecords = run(plain);
    const LoadSummary ps = summarize(plainRecords, {}, {});
    const double engineRate = ps.durationS > 0 ? double(ps.completed) / ps.durationS : 0;
    const std::string body = R"({"model":"bench","prompt":"the of and to in is that for","max_tokens":1,"ignore_eos":true,"stream":false})";
    const double wrk = wrkRate(server, connections, seconds, body);
    std::printf("plain request rate, %d connections, %d s: rackscope %.0f req/s (%zu failed)", connections, seconds, engineRate, ps.failed);
    if (wrk > 0) std::printf(", wrk %.0f req/s, ratio %.2f (goal >= 0.8)\n", wrk, engineRate / wrk);
    else std::printf(", wrk not available: no ratio\n");

    // 2. Timing error at 1000 concurrent streams.
    LoadTestServer streaming;
    if (!streaming.ok()) return 1;
    const TimingError e = timingAt(streaming, 1000, 100, 20, 16);
    std::printf("1000 concurrent streams (TTFT 100 ms, TPOT 20 ms scripted, %zu measured, %zu failed):\n", e.ok, e.failed);
    std::printf("  TTFT error: median %.3f ms (ratio %.2f to 1 ms), p99 %.3f ms (ratio %.2f to 2 ms)\n", e.ttftMedian, e.ttftMedian / 1.0, e.ttftP99, e.ttftP99 / 2.0);
    std::printf("  TPOT error: median %.3f ms (ratio %.2f to 1 ms), p99 %.3f ms (ratio %.2f to 2 ms)\n", e.tpotMedian, e.tpotMedian / 1.0, e.tpotP99, e.tpotP99 / 2.0);

    // 3. The most streams with the error still in bound.
    int best = 0;
    for (int streams : {500, 1000, 2000, 4000, 8000}) {
        const TimingError t = timingAt(streaming, streams, 100, 20, 16);
        const bool inBound = t.failed == 0 && t.ok > 0 && t.ttftMedian < 1 && t.ttftP99 < 2 && t.tpotMedian < 1 && t.tpotP99 < 2;
        std::printf("  %5d streams: TTFT error p50 %.3f / p99 %.3f ms, TPOT error p50 %.3f / p99 %.3f ms, %zu failed: %s\n", streams, t.ttftMedian, t.ttftP99,
                    t.tpotMedian, t.tpotP99, t.failed, inBound ? "in bound" : "out of bound");
        if (!inBound) break;
        best = streams;
    }
    std::printf("most concurrent streams with the timing error in bound on this machine: %d\n", best);
    return engineRate > 0 && e.ok > 0 ? 0 : 1;
}
