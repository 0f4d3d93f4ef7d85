// Real /metrics scrapes of vLLM (V0 names and V1 with engines and _created series), SGLang, TGI (through
// IBM's adapter), trtllm-serve and Triton, read by the exposition parser, and what each says of the server's
// load; then cut, mangled, oversized and random text: a clear problem per line, everything else kept.
#include "load_model/prometheus_text.h"
#include "load_model/server_metrics.h"
#include "test_support.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>

using namespace rsload;
using namespace rackscope::test;

namespace {

PromScrape scrapeOf(const char* name) {
    const QByteArray bytes = incomingBytes(QString::fromLatin1(name));
    return parsePrometheusText(std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

// How many sample lines a file has, counted naively: lines that are neither blank nor comments.
int sampleLines(const char* name) {
    int n = 0;
    for (const QByteArray& line : incomingBytes(QString::fromLatin1(name)).split('\n'))
        n += !line.trimmed().isEmpty() && !line.trimmed().startsWith('#');
    return n;
}

int samplesOf(const PromScrape& s) {
    int n = 0;
    for (const PromFamily& f : s.families)
        n += int(f.samples.size());
    return n;
}

} // namespace

class TestPrometheusText : public QObject {
    Q_OBJECT
private slots:
    void everyRealScrapeIsRead() {
        for (const char* name :
             {"sglang-metrics_llama3.1-8b-instruct_docs-example-scrape.prom",
              "sglang-metrics_engine-type-unified-llama3-8b-gauges_pr4412_excerpt.prom",
              "vllm-metrics_v0.10.0-glm4.5-engine-label-deprecated-prefix-cache_excerpt.prom",
              "vllm-metrics_v1-engine-qwen2.5-coder-32b-gpu-cache-usage-perc_excerpt.prom",
              "tgis-vllm-adapter-metrics_tgi-batch-inference-duration-dict-label_excerpt.prom",
              "trtllm-serve-prometheus-metrics_qwen3-8b-engine-type-undefined_excerpt.prom",
              "triton-tensorrtllm-backend-metrics_ensemble-preprocessing-postprocessing_excerpt.prom"}) {
            const PromScrape s = scrapeOf(name);
            QVERIFY2(
                s.problems.empty(),
                qPrintable(QString::fromLatin1(name) + QStringLiteral(": ") +
                           QString::fromStdString(s.problems.empty() ? std::string() : s.problems.front())));
            QCOMPARE(samplesOf(s), sampleLines(name)); // every sample line, none twice
        }
    }

    void histogramsLabelsAndNumbers() {
        const PromScrape s = scrapeOf("sglang-metrics_llama3.1-8b-instruct_docs-example-scrape.prom");
        const PromFamily* ttft = s.family("sglang:time_to_first_token_seconds");
        QVERIFY(ttft);
        QCOMPARE(ttft->type, std::string("histogram"));
        // `_sum` printed before the buckets, `le` the first label: all one family
        int buckets = 0;
        bool sum = false, count = false, inf = false;
        for (const PromSample& x : ttft->samples) {
            buckets += x.name == "sglang:time_to_first_token_seconds_bucket";
            sum |= x.name == "sglang:time_to_first_token_seconds_sum";
            count |= x.name == "sglang:time_to_first_token_seconds_count";
            if (const std::string* le = x.label("le"); le && *le == "+Inf")
                inf = true;
            if (x.name.size() > 7 && x.name.compare(x.name.size() - 7, 7, "_bucket") == 0)
                QCOMPARE(*x.label("model_name"), std::string("meta-llama/Llama-3.1-8B-Instruct"));
        }
        QVERIFY(buckets > 5 && sum && count && inf);
        QCOMPARE(*s.sum("sglang:prompt_tokens_total"), 8.128902e+06); // scientific notation
        const ServerLoad load = serverLoadOf(s);
        QCOMPARE(load.server, std::string("SGLang"));
        QCOMPARE(*load.kvCacheUse, 0.28);
        QCOMPARE(*load.running, 162.0);
        QCOMPARE(*load.waiting, 2826.0);
        QVERIFY(!load.preemptions); // SGLang does not say: unknown, not 0
        QVERIFY(load.prefixHitRate && std::abs(*load.prefixHitRate - 0.007507552643049313) < 1e-15);
    }

    void vllmOldAndNewNames() {
        const ServerLoad v1 = serverLoadOf(
            scrapeOf("vllm-metrics_v0.10.0-glm4.5-engine-label-deprecated-prefix-cache_excerpt.prom"));
        QCOMPARE(v1.server, std::string("vLLM"));
        QCOMPARE(*v1.kvCacheUse, 9.75010481363281e-06);
        QCOMPARE(*v1.prefixQueries, 32.0); // the new name, not the deprecated gpu_prefix_cache_* beside it
        const PromScrape withCreated =
            scrapeOf("vllm-metrics_v0.10.0-glm4.5-engine-label-deprecated-prefix-cache_excerpt.prom");
        QVERIFY(
            withCreated.family("vllm:gpu_prefix_cache_queries_created")); // its own series, not a counter's
        const ServerLoad early = serverLoadOf(
            scrapeOf("vllm-metrics_v1-engine-qwen2.5-coder-32b-gpu-cache-usage-perc_excerpt.prom"));
        QCOMPARE(early.server, std::string("vLLM"));
        QVERIFY(early.kvCacheUse && early.running && early.waiting); // gpu_cache_usage_perc, the older name
        const ServerLoad tgi = serverLoadOf(
            scrapeOf("tgis-vllm-adapter-metrics_tgi-batch-inference-duration-dict-label_excerpt.prom"));
        QCOMPARE(tgi.server, std::string("TGI"));
        QVERIFY(tgi.waiting && tgi.running && !tgi.kvCacheUse);
        const PromScrape tgis =
            scrapeOf("tgis-vllm-adapter-metrics_tgi-batch-inference-duration-dict-label_excerpt.prom");
        bool dictLabel = false;
        for (const PromSample& x : tgis.family("tgi_batch_inference_duration")->samples)
            dictLabel |= x.label("method") && *x.label("method") == "{'method': 'prefill'}";
        QVERIFY(dictLabel);
        QCOMPARE(
            serverLoadOf(scrapeOf("triton-tensorrtllm-backend-metrics_ensemble-preprocessing-postprocessing_"
                                  "excerpt.prom"))
                .server,
            std::string("Triton"));
        QCOMPARE(serverLoadOf(
                     scrapeOf("trtllm-serve-prometheus-metrics_qwen3-8b-engine-type-undefined_excerpt.prom"))
                     .server,
                 std::string("TensorRT-LLM (trtllm-serve)"));
    }

    void badTextSaysWhereAndKeepsTheRest() {
        const std::string text = "# TYPE a gauge\n"
                                 "a{x=\"1\"} 1\n"
                                 "a{x=\"unclosed} 2\n"
                                 "b{x=1} 3\n"
                                 "c not-a-number\n"
                                 "# TYPE d sideways\n"
                                 "e{y=\"q\\\"uote\\\\\\n\"} +Inf 1700000000000\n"
                                 "f NaN\n"
                                 "g{x=\"cut";
        const PromScrape s = parsePrometheusText(text);
        QCOMPARE(samplesOf(s), 3); // a, e, f
        QCOMPARE(*s.family("e")->samples.front().label("y"), std::string("q\"uote\\\n"));
        QVERIFY(std::isinf(s.family("e")->samples.front().value));
        QCOMPARE(*s.family("e")->samples.front().timestampMs, int64_t(1700000000000));
        QCOMPARE(s.problems.size(), std::size_t(5));
        QVERIFY(s.problems[0].rfind("line 3:", 0) == 0);
        QVERIFY(s.problems[3].find("sideways") != std::string::npos);
        QVERIFY(s.problems[4].find("cut short") != std::string::npos);
        // every real scrape cut at every 97th byte: never a crash, a problem only for a cut sample line
        const QByteArray real =
            incomingBytes(QStringLiteral("sglang-metrics_llama3.1-8b-instruct_docs-example-scrape.prom"));
        for (qsizetype cut = 0; cut < real.size(); cut += 97) {
            const PromScrape part = parsePrometheusText(std::string_view(real.constData(), std::size_t(cut)));
            QVERIFY(part.problems.size() <= 1);
        }
        QVERIFY(!parsePrometheusText(std::string(kMaxScrapeBytes + 1, 'a')).problems.empty());
    }

    void defaultMetricsUrlIsTheServersRoot() {
        QCOMPARE(defaultMetricsUrl("http://node3:8000/v1"), std::string("http://node3:8000/metrics"));
        QCOMPARE(defaultMetricsUrl("https://[fe80::1]:443/openai/v1?x=1"),
                 std::string("https://[fe80::1]:443/metrics"));
        QCOMPARE(defaultMetricsUrl("http://gw"), std::string("http://gw/metrics"));
        QCOMPARE(defaultMetricsUrl("node3:8000/v1"), std::string());
        QCOMPARE(defaultMetricsUrl("http:///v1"), std::string());
    }

    // Peaks and means over the measured phase, counters as their growth, the prefix hit rate from the
    // counters where there are both, else the server's own; unknown where no scrape said.
    void theSummaryOfASeries() {
        const auto sample = [](double t, double kv, double waiting, double preempt, double q, double h) {
            ServerSample s;
            s.tS = t;
            s.load.server = "vLLM";
            s.load.kvCacheUse = kv;
            s.load.running = 3;
            s.load.waiting = waiting;
            s.load.preemptions = preempt;
            s.load.prefixQueries = q;
            s.load.prefixHits = h;
            return s;
        };
        std::vector<ServerSample> series{sample(-1, 0.99, 50, 0, 0, 0), // warm-up: left out
                                         sample(0, 0.2, 0, 5, 100, 10), sample(0.5, 0.6, 4, 7, 300, 110)};
        ServerSample failed;
        failed.tS = 1;
        failed.error = "connect: refused";
        series.push_back(failed);
        series.push_back(sample(1.5, 0.4, 1, 9, 500, 210));
        const ServerMetricsSummary m = summarizeServerMetrics(series, "http://x/metrics");
        QCOMPARE(m.server, std::string("vLLM"));
        QCOMPARE(m.scrapes, int64_t(4));
        QCOMPARE(m.failedScrapes, int64_t(1));
        QCOMPARE(m.firstError, std::string("connect: refused"));
        QCOMPARE(*m.kvCachePeak, 0.6);
        QVERIFY(std::abs(*m.kvCacheMean - 0.4) < 1e-9);
        QCOMPARE(*m.waitingPeak, 4.0);
        QCOMPARE(*m.runningPeak, 3.0);
        QCOMPARE(*m.preemptions, 4.0);
        QCOMPARE(*m.prefixHitRate, 0.5); // 200 hits of 400 queries during the run
        // a counter that went back (the server restarted): its growth is unknown, not negative
        series.back().load.preemptions = 1;
        QVERIFY(!summarizeServerMetrics(series, "").preemptions);
        // the server's own rate where it gives no counters
        ServerSample sglang;
        sglang.load.server = "SGLang";
        sglang.load.prefixHitRate = 0.25;
        const ServerMetricsSummary g = summarizeServerMetrics({sglang}, "");
        QCOMPARE(*g.prefixHitRate, 0.25);
        QVERIFY(!g.kvCachePeak && !g.preemptions && !g.waitingPeak);
        QVERIFY(toJson(g)["peak_kv_cache_use"].is_null());
    }

    void samplesRoundTripAndBadOnesAreRefused() {
        ServerSample s;
        s.tS = 2.5;
        s.load.server = "TGI";
        s.load.waiting = 3;
        std::string why;
        const auto back = serverSampleFromJson(toJson(s), &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->tS, 2.5);
        QCOMPARE(back->load.server, std::string("TGI"));
        QCOMPARE(*back->load.waiting, 3.0);
        QVERIFY(!back->load.kvCacheUse && !back->load.running);
        ServerSample bad;
        bad.error = "HTTP 404";
        QCOMPARE(serverSampleFromJson(toJson(bad), &why)->error, std::string("HTTP 404"));
        for (const char* text :
             {"[]", "{}", R"({"t_s":"1"})", R"({"t_s":1,"waiting":"3"})", R"({"t_s":1,"error":5})", "null"}) {
            why.clear();
            QVERIFY2(!serverSampleFromJson(Json::parse(text), &why), text);
            QVERIFY(!why.empty());
        }
    }

    void randomInput() {
        QRandomGenerator rng(20261206);
        const QByteArray real = incomingBytes(
            QStringLiteral("vllm-metrics_v0.10.0-glm4.5-engine-label-deprecated-prefix-cache_excerpt.prom"));
        for (int round = 0; round < 300; ++round) {
            QByteArray b = real;
            for (int k = 0; k < 20; ++k)
                b[rng.bounded(int(b.size()))] = char(rng.bounded(256));
            const PromScrape s = parsePrometheusText(std::string_view(b.constData(), std::size_t(b.size())));
            QVERIFY(
                samplesOf(s) <=
                sampleLines("vllm-metrics_v0.10.0-glm4.5-engine-label-deprecated-prefix-cache_excerpt.prom") +
                    20);
        }
    }
};

QTEST_GUILESS_MAIN(TestPrometheusText)
#include "test_prometheus_text.moc"
