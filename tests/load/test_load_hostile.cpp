// The load engine against a hostile server, on both HTTP clients: an event
// nested 200,000 levels deep, usage that claims billions of tokens, a stream
// that never ends, headers that never end, a redirect, text that is not
// UTF-8. Each request ends as what it is, within its timeout, and memory
// stays bounded whatever the server says.
#include "load/http_transport.h"
#include "load/load_engine.h"
#include "load_model/load_summary.h"
#include "load_test_server.h"

#include <QCoreApplication>
#include <QTest>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <thread>

using namespace rsload;
using rackscope::test::LoadTestServer;

namespace {

HttpClient client = HttpClient::Native; // the suite runs once for each (main, below)

LoadSpec specFor(const LoadTestServer& server, const std::string& script, int64_t requests, double timeoutS) {
    LoadSpec s;
    s.url = server.url();
    s.model = "test-model";
    s.requests = requests;
    s.concurrency = 2;
    s.inputLen = {LengthDist::Kind::Fixed, 10, 0};
    s.outputLen = {LengthDist::Kind::Fixed, 8, 0};
    s.ignoreEos = true;
    s.seed = 7;
    s.client = "test";
    s.httpClient = client;
    s.timeoutS = timeoutS;
    s.headers = {{"X-Test-Script", script}};
    return s;
}

long peakRssMb() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

struct Run {
    std::vector<RequestRecord> records;
    LoadOutcome outcome;
    double seconds = 0;
    long rssGrowthMb = 0;
};

Run runLoad(LoadSpec spec, std::function<void(LoadEngine&)> during = {}) {
    Run r;
    const long before = peakRssMb();
    const auto start = std::chrono::steady_clock::now();
    LoadEngine engine(std::move(spec),
                      {[&](const RequestRecord& rec) { r.records.push_back(rec); }, {}, 0.25, {}});
    std::thread side;
    if (during)
        side = std::thread([&] { during(engine); });
    r.outcome = engine.run();
    if (side.joinable())
        side.join();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.rssGrowthMb = peakRssMb() - before;
    return r;
}

// Every request failed as `want`, its message says `says`, and the record can be written as JSON.
void expectAll(const Run& run, size_t count, Failure want, const std::string& says) {
    QCOMPARE(run.records.size(), count);
    for (const RequestRecord& r : run.records) {
        QVERIFY2(r.failure == want, (std::string(failureName(r.failure)) + ": " + r.error).c_str());
        QVERIFY2(r.error.find(says) != std::string::npos, r.error.c_str());
        QVERIFY(!toJson(r).dump().empty()); // strict UTF-8: throws on what is not
    }
}

constexpr long kMemoryBoundMb =
    256; // well above what 2 requests need, far below what the server's words would cost

} // namespace

class TestLoadHostile : public QObject {
    Q_OBJECT
    LoadTestServer server_;

private slots:
    void initTestCase() { QVERIFY(server_.ok()); }

    void deeplyNestedEventIsAProtocolError() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=1;fault=deep@2", 2, 30));
        expectAll(run, 2, Failure::Protocol, "nested deeper than 64 levels");
        QVERIFY2(run.rssGrowthMb < kMemoryBoundMb, std::to_string(run.rssGrowthMb).c_str());
    }

    void deeplyNestedErrorBodyIsAnHttpError() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=1;fault=http-500-deep", 2, 30));
        expectAll(run, 2, Failure::Http, "");
        for (const RequestRecord& r : run.records)
            QCOMPARE(r.httpStatus.value_or(0), 500);
    }

    void aLongStreamKeepsABoundedRecord() {
        // 70,000 chunks of one token: the record keeps kMaxTimedGaps gaps, counts the rest and keeps their
        // worst.
        LoadSpec spec = specFor(server_, "ttft=1;tpot=0", 1, 120);
        spec.concurrency = 1;
        spec.outputLen = {LengthDist::Kind::Fixed, 70000, 0};
        const Run run = runLoad(spec);
        QCOMPARE(run.records.size(), size_t(1));
        const RequestRecord& r = run.records.front();
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.chunks, int64_t(70000));
        QCOMPARE(r.itlMs.size(), kMaxTimedGaps);
        QCOMPARE(r.itlDropped, int64_t(70000 - 1) - int64_t(kMaxTimedGaps));
        const LoadSummary s = summarize(run.records, {}, {50});
        QCOMPARE(s.itlDropped, r.itlDropped);
        QVERIFY(summaryText(s, "t").find("ITL gaps not kept:") != std::string::npos);
        std::string why;
        const auto back = recordFromJson(toJson(r), &why); // and it is read back as it was written
        QVERIFY2(back && back->itlDropped == r.itlDropped, why.c_str());
    }

    void hugeUsageIsDataNotMemory() {
        LoadSpec spec = specFor(server_, "ttft=1;tpot=1;fault=huge-usage", 2, 30);
        spec.continuousUsage = true;
        const long before = peakRssMb();
        const Run run = runLoad(spec);
        QCOMPARE(run.records.size(), size_t(2));
        for (const RequestRecord& r : run.records) {
            QVERIFY2(r.ok(), r.error.c_str());
            QVERIFY(*r.outputTokens > 10'000'000'000LL); // what the server said, kept as it said it
            QCOMPARE(r.chunkTokens.size(), size_t(8));
        }
        const LoadSummary s = summarize(run.records, {}, {50, 99});
        QVERIFY(s.itlPerToken);
        QVERIFY(s.itlPerToken->count > 20'000'000'000ULL); // a weight, not a list of that length
        QVERIFY(s.itlPerToken->median >= 0);
        QVERIFY2(peakRssMb() - before < kMemoryBoundMb, std::to_string(peakRssMb() - before).c_str());
    }

    void endlessStreamEndsAtTheRequestTimeout() {
        // Tokens as fast as the server can write them, for ever: the request timeout ends each request.
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=0;fault=endless@2", 2, 3));
        expectAll(run, 2, Failure::Timeout, "");
        for (const RequestRecord& r : run.records) {
            QVERIFY(r.itlMs.size() <= kMaxTimedGaps);
            QCOMPARE(int64_t(r.itlMs.size()) + r.itlDropped, r.chunks - 1);
        }
        QVERIFY2(run.seconds < 3 + 20,
                 std::to_string(run.seconds).c_str()); // the timeout, and a loaded machine's margin
        QVERIFY2(run.rssGrowthMb < kMemoryBoundMb, std::to_string(run.rssGrowthMb).c_str());
    }

    void cancelHoldsUnderAFlood() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=0;fault=endless@2", 2, 0), [](LoadEngine& e) {
            std::this_thread::sleep_for(
                std::chrono::milliseconds(500)); // the flood is under way: the server writes at once
            e.cancel();
        });
        QVERIFY(run.outcome.cancelled);
        QVERIFY2(run.seconds < 0.5 + 2.5,
                 std::to_string(run.seconds).c_str()); // within a second, and a loaded machine's margin
        for (const RequestRecord& r : run.records)
            QCOMPARE(r.failure, Failure::Cancelled);
    }

    void endlessHeadersAreCalledWhatTheyAre() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=0;fault=endless-headers", 2, 30));
        expectAll(run, 2, Failure::Protocol, "headers are larger than");
        QVERIFY2(run.seconds < 30,
                 std::to_string(run.seconds).c_str()); // ended by the limit, not the timeout
        QVERIFY2(run.rssGrowthMb < kMemoryBoundMb, std::to_string(run.rssGrowthMb).c_str());
    }

    void aRedirectIsNotFollowed() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=1;fault=redirect", 2, 30));
        expectAll(run, 2, Failure::Http, "");
        for (const RequestRecord& r : run.records)
            QCOMPARE(r.httpStatus.value_or(0), 302);
    }

    void aLongFailureExampleKeepsItsLine() {
        // The summary's lines have no fixed width: a long example error is whole, and the next line starts on
        // its own.
        RequestRecord r;
        r.failure = Failure::Http;
        r.error = std::string(300, 'x') + " END";
        const std::string text = summaryText(summarize({r}, {}, {50, 99}), "t");
        QVERIFY(text.find(r.error + ")\n") != std::string::npos);
        QVERIFY(text.find("\nBenchmark duration (s):") != std::string::npos);
    }

    void textThatIsNotUtf8() {
        const Run run = runLoad(specFor(server_, "ttft=1;tpot=1;fault=bad-utf8@2", 2, 30));
        expectAll(run, 2, Failure::Protocol, "not JSON");
    }
};

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int failed = 0;
    for (HttpClient c : {HttpClient::Native, HttpClient::Curl}) {
        client = c;
        std::printf("--- the %s HTTP client\n", httpClientName(c));
        TestLoadHostile test;
        failed += QTest::qExec(&test, argc, argv);
    }
    return failed;
}
#include "test_load_hostile.moc"
