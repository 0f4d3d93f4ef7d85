// The load engine's parts that need no server: the event-stream parser (split
// at every byte, line ends of every kind, comments, oversize, random bytes),
// what each OpenAI-compatible chunk and error body says, lengths, prompts,
// SLOs, records and specs as JSON (and refused when malformed), and the
// summary's statistics and layout against vLLM's own console output.
#include "load/openai_stream.h"
#include "load/request_body.h"
#include "load/sse_parser.h"
#include "load_model/load_summary.h"
#include "load_model/prompts.h"
#include "runs/load_json.h"
#include "test_support.h"

#include <QRegularExpression>
#include <QTest>

#include <random>

using namespace rsload;

namespace {

std::vector<SseEvent> parseAll(const std::string& bytes, std::vector<size_t> cuts = {},
                               std::string* error = nullptr) {
    std::vector<SseEvent> out;
    SseParser p([&](const SseEvent& e) { out.push_back(e); });
    size_t pos = 0;
    cuts.push_back(bytes.size());
    for (size_t cut : cuts) {
        p.feed(bytes.data() + pos, cut - pos);
        pos = cut;
    }
    if (error)
        *error = p.error();
    return out;
}

std::vector<std::string> datas(const std::vector<SseEvent>& events) {
    std::vector<std::string> out;
    for (const SseEvent& e : events)
        out.push_back(e.data);
    return out;
}

RequestRecord okRecord(double ttft, double e2el, int64_t tokens) {
    RequestRecord r;
    r.ttftMs = ttft;
    r.e2elMs = e2el;
    r.outputTokens = tokens;
    r.outputTokensSource = "usage";
    r.inputTokens = 10;
    r.inputTokensSource = "usage";
    r.chunks = tokens;
    for (int64_t i = 1; i < tokens; ++i)
        r.itlMs.push_back((e2el - ttft) / double(tokens - 1));
    return r;
}

} // namespace

class TestLoadStream : public QObject {
    Q_OBJECT
private slots:
    void eventsSplitAnywhereParseTheSame() {
        const std::string stream = ": keep-alive\n\ndata: {\"a\":1}\n\ndata: {\"b\":2}\r\n\r\nevent: "
                                   "ping\ndata: x\ndata: y\n\ndata:nospace\r\rdata: [DONE]\n\n";
        const std::vector<std::string> want = {"{\"a\":1}", "{\"b\":2}", "x\ny", "nospace", "[DONE]"};
        QCOMPARE(datas(parseAll(stream)), want);
        for (size_t cut = 0; cut <= stream.size(); ++cut)
            QCOMPARE(datas(parseAll(stream, {cut})), want);
        std::vector<size_t> everyByte;
        for (size_t i = 1; i < stream.size(); ++i)
            everyByte.push_back(i);
        QCOMPARE(datas(parseAll(stream, everyByte)), want);
        const auto events = parseAll(stream);
        QCOMPARE(events[2].event, std::string("ping"));
    }

    void commentsAreCountedNotDispatched() {
        std::vector<SseEvent> out;
        SseParser p([&](const SseEvent& e) { out.push_back(e); });
        const std::string s = ": ping\n\n:another\ndata: 1\n\n";
        QVERIFY(p.feed(s.data(), s.size()));
        QCOMPARE(p.comments(), size_t(2));
        QCOMPARE(out.size(), size_t(1));
    }

    void aCrLfSplitAcrossReadsIsOneLineEnd() {
        // "data: a\r" | "\n\r\n": one event, not an event and a blank dispatch too early
        QCOMPARE(datas(parseAll("data: a\r\n\r\ndata: b\r\n\r\n", {8, 9, 10})),
                 (std::vector<std::string>{"a", "b"}));
    }

    void aByteOrderMarkIsSkippedEvenWhenSplit() {
        const std::string s = "\xEF\xBB\xBF"
                              "data: 1\n\n";
        QCOMPARE(datas(parseAll(s, {1, 2})), std::vector<std::string>{"1"});
        QCOMPARE(datas(parseAll("\xEF"
                                "data: 1\n\n"))
                     .size(),
                 size_t(0)); // a broken BOM spoils the field name
    }

    void aCutStreamIsPendingNotDispatched() {
        std::vector<SseEvent> out;
        SseParser p([&](const SseEvent& e) { out.push_back(e); });
        const std::string s = "data: {\"a\":1}\n\ndata: {\"b\"";
        p.feed(s.data(), s.size());
        QCOMPARE(out.size(), size_t(1));
        QVERIFY(p.pending());
    }

    void anOversizedEventIsRefusedAndNothingMoreIsRead() {
        std::vector<SseEvent> out;
        SseParser p([&](const SseEvent& e) { out.push_back(e); }, 64);
        const std::string big = "data: " + std::string(100, 'x') + "\n\ndata: after\n\n";
        QVERIFY(!p.feed(big.data(), big.size()));
        QVERIFY(QString::fromStdString(p.error()).contains("larger than 64 bytes"));
        QVERIFY(!p.feed("data: 1\n\n", 9));
        QVERIFY(out.empty());
        // many lines of one event add up too
        SseParser q([&](const SseEvent& e) { out.push_back(e); }, 64);
        std::string lines;
        for (int i = 0; i < 20; ++i)
            lines += "data: 12345\n";
        QVERIFY(!q.feed(lines.data(), lines.size()));
    }

    void randomBytesNeverBreakTheParser() {
        std::mt19937 rng(7);
        const std::string alphabet = "data: \r\n:{}[]\"event\xEF\xBB\xBF";
        for (int round = 0; round < 2000; ++round) {
            std::string s(rng() % 300, ' ');
            for (char& c : s)
                c = rng() % 4 ? alphabet[rng() % alphabet.size()] : char(rng() % 256);
            size_t n = 0;
            SseParser p([&](const SseEvent& e) { n += e.data.size() + 1; }, 128);
            for (size_t pos = 0; pos < s.size();) {
                const size_t len = std::min(s.size() - pos, size_t(rng() % 17));
                p.feed(s.data() + pos, len);
                pos += len;
            }
            QVERIFY(n <= s.size() * 2);
            (void)interpretChunk(s, round % 2 ? Endpoint::ChatCompletions : Endpoint::Completions);
            (void)describeErrorBody(s);
        }
    }

    void chatChunksAsVllmSendsThem() {
        const auto role = interpretChunk(
            R"({"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})",
            Endpoint::ChatCompletions);
        QVERIFY(role.hasChoices);
        QVERIFY(role.text.empty()); // a role-only first chunk is no first token
        const auto content =
            interpretChunk(R"({"choices":[{"index":0,"delta":{"content":" Hello"},"finish_reason":null}]})",
                           Endpoint::ChatCompletions);
        QCOMPARE(content.text, std::string(" Hello"));
        const auto reasoning = interpretChunk(
            R"({"choices":[{"index":0,"delta":{"reasoning_content":"hmm"}}]})", Endpoint::ChatCompletions);
        QCOMPARE(reasoning.text, std::string("hmm"));
        const auto last = interpretChunk(R"({"choices":[{"index":0,"delta":{},"finish_reason":"length"}]})",
                                         Endpoint::ChatCompletions);
        QCOMPARE(last.finishReason.value_or(""), std::string("length"));
        const auto usage = interpretChunk(
            R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}})",
            Endpoint::ChatCompletions);
        QVERIFY(!usage.hasChoices);
        QCOMPARE(usage.promptTokens.value_or(-1), int64_t(12));
        QCOMPARE(usage.completionTokens.value_or(-1), int64_t(34));
        QVERIFY(interpretChunk("[DONE]", Endpoint::ChatCompletions).done);
    }

    void completionChunksCarryText() {
        const auto c = interpretChunk(
            R"({"object":"text_completion","choices":[{"index":0,"text":" world","finish_reason":null}]})",
            Endpoint::Completions);
        QCOMPARE(c.text, std::string(" world"));
        const auto empty = interpretChunk(R"({"choices":[{"index":0,"text":"","finish_reason":null}]})",
                                          Endpoint::Completions);
        QVERIFY(empty.hasChoices && empty.text.empty());
    }

    void errorsInsideAStreamInBothShapes() {
        const auto current =
            interpretChunk(R"({"error":{"message":"out of memory","type":"InternalServerError","code":500}})",
                           Endpoint::ChatCompletions);
        QCOMPARE(current.error.value_or(""), std::string("out of memory (InternalServerError, 500)"));
        const auto flat = interpretChunk(
            R"({"object":"error","message":"context too long","type":"BadRequestError","param":null,"code":400})",
            Endpoint::Completions);
        QCOMPARE(flat.error.value_or(""), std::string("context too long (BadRequestError, 400)"));
        const auto tgi = interpretChunk(R"({"error":"Input validation error","error_type":"validation"})",
                                        Endpoint::ChatCompletions);
        QCOMPARE(tgi.error.value_or(""), std::string("Input validation error"));
        QVERIFY(interpretChunk("{not json", Endpoint::ChatCompletions).invalid);
        QVERIFY(interpretChunk("[1,2]", Endpoint::ChatCompletions).invalid);
        QVERIFY(!interpretChunk(R"({"object":7,"choices":"x"})", Endpoint::ChatCompletions)
                     .invalid); // wrong kinds are ignored, not trusted
    }

    void httpErrorBodies() {
        QCOMPARE(
            describeErrorBody(
                R"({"error":{"message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}})"),
            std::string("The model `x` does not exist. (NotFoundError, 404)"));
        QCOMPARE(
            describeErrorBody(
                R"({"object":"error","message":"busy","type":"ServiceUnavailable","param":null,"code":503})"),
            std::string("busy (ServiceUnavailable, 503)"));
        QCOMPARE(describeErrorBody("<html>502 Bad Gateway</html>"),
                 std::string("<html>502 Bad Gateway</html>"));
        QCOMPARE(describeErrorBody(""), std::string("(empty body)"));
        QCOMPARE(describeErrorBody(std::string(500, 'x')).size(), size_t(203));
    }

    void lengthsAndSlos() {
        std::string why;
        QCOMPARE(parseLengthDist("128", &why)->a, 128.0);
        const auto u = parseLengthDist("uniform:64-256", &why);
        QVERIFY(u && u->kind == LengthDist::Kind::Uniform && u->a == 64 && u->b == 256);
        QCOMPARE(formatLengthDist(*u), std::string("uniform:64-256"));
        QCOMPARE(formatLengthDist(*parseLengthDist("normal:100,12.5", &why)), std::string("normal:100,12.5"));
        for (const char* bad :
             {"", "0", "-3", "abc", "uniform:9-3", "uniform:3", "normal:5", "normal:0,1", "1e99", "nan"}) {
            QVERIFY2(!parseLengthDist(bad, &why), bad);
            QVERIFY(!why.empty());
        }
        std::mt19937_64 rng(1);
        for (int i = 0; i < 1000; ++i) {
            const int64_t v = drawLength(*u, rng);
            QVERIFY(v >= 64 && v <= 256);
            QVERIFY(drawLength(*parseLengthDist("normal:3,50", &why), rng) >= 1);
        }
        const auto slos = parseSlos("ttft<=200ms,tpot<=50ms", &why);
        QVERIFY(slos && slos->size() == 2 && (*slos)[1].metric == "tpot" && (*slos)[1].ms == 50);
        QCOMPARE(formatSlos(*slos), std::string("ttft<=200ms,tpot<=50ms"));
        QCOMPARE(parseSlos("ttft:75,itl:19.75", &why)->at(1).ms, 19.75); // vLLM's --goodput form
        for (const char* bad : {"", "ttft", "ttft<=", "speed<=3ms", "ttft<=-1ms", "ttft<=5s"})
            QVERIFY2(!parseSlos(bad, &why), bad);
    }

    void syntheticPromptsHaveTheirLengthInWordsAndDifferBySeed() {
        std::mt19937_64 a(1), b(2);
        const std::string p = syntheticPrompt(1024, a);
        QCOMPARE(std::count(p.begin(), p.end(), ' '), 1023);
        QVERIFY(p != syntheticPrompt(1024, b));
        std::mt19937_64 again(1);
        QCOMPARE(syntheticPrompt(1024, again), p);
    }

    void promptFiles() {
        size_t skipped = 0;
        std::string why;
        const auto jsonl = readPromptFile("{\"prompt\":\"a "
                                          "b\",\"output_len\":7}\n\n{\"messages\":[{\"role\":\"user\","
                                          "\"content\":\"hi\"}]}\nnot json\n{\"x\":1}\n",
                                          100, &skipped, &why);
        QCOMPARE(jsonl.size(), size_t(2));
        QCOMPARE(jsonl[0].outputLen, int64_t(7));
        QCOMPARE(jsonl[1].text, std::string("hi"));
        QCOMPARE(skipped, size_t(2));
        QCOMPARE(why, std::string("line 4 is not JSON"));
        const auto share = readPromptFile(
            R"([{"id":"x","conversations":[{"from":"human","value":"What is RDMA?"},{"from":"gpt","value":"..."}]},{"conversations":[]}])",
            100, &skipped, &why);
        QCOMPARE(share.size(), size_t(1));
        QCOMPARE(share[0].text, std::string("What is RDMA?"));
        QCOMPARE(skipped, size_t(1));
        QCOMPARE(readPromptFile("[{\"prompt\":\"a\"}", 10, &skipped, &why).size(), size_t(0));
        QCOMPARE(skipped, size_t(1));
        std::string many;
        for (int i = 0; i < 50; ++i)
            many += "{\"prompt\":\"p\"}\n";
        QCOMPARE(readPromptFile(many, 10, &skipped, &why).size(), size_t(10));
    }

    void requestBodiesAreTheJsonTheyAlwaysWere() {
        LoadSpec spec;
        spec.model = "m \"quoted\"";
        spec.endpoint = Endpoint::Completions;
        spec.temperature = 0.7;
        spec.ignoreEos = true;
        const std::string text = "line\nwith \"quotes\", a tab\t and \xe4\xb8\xad\xe6\x96\x87";
        auto keys = [](const Json& j) {
            std::vector<std::string> out;
            for (auto it = j.begin(); it != j.end(); ++it)
                out.push_back(it.key());
            return out;
        };
        Json b = Json::parse(RequestBody(spec).make(nullptr, text, 128));
        QCOMPARE(keys(b), (std::vector<std::string>{"model", "prompt", "max_tokens", "temperature",
                                                    "ignore_eos", "stream", "stream_options"}));
        QCOMPARE(b["model"].get<std::string>(), spec.model);
        QCOMPARE(b["prompt"].get<std::string>(), text);
        QCOMPARE(b["max_tokens"].get<int64_t>(), int64_t(128));
        QCOMPARE(b["temperature"].get<double>(), 0.7);
        QCOMPARE(b["stream_options"].dump(), std::string("{\"include_usage\":true}"));

        spec.endpoint = Endpoint::ChatCompletions;
        spec.temperature.reset();
        spec.ignoreEos = false;
        spec.continuousUsage = true;
        b = Json::parse(RequestBody(spec).make(nullptr, text, 5));
        QCOMPARE(keys(b),
                 (std::vector<std::string>{"model", "messages", "max_tokens", "stream", "stream_options"}));
        QCOMPARE(b["messages"].dump(), Json::array({Json{{"role", "user"}, {"content", text}}}).dump());
        QCOMPARE(b["stream_options"]["continuous_usage_stats"].get<bool>(), true);

        Prompt fromFile;
        fromFile.text = "ignored where messages are given";
        fromFile.messages = Json::parse(
            "[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"hi\"}]");
        b = Json::parse(RequestBody(spec).make(&fromFile, "", 3));
        QVERIFY(b["messages"] == fromFile.messages);

        spec.stream = false;
        b = Json::parse(RequestBody(spec).make(nullptr, "x", 1));
        QCOMPARE(b.contains("stream_options"), false);
        QCOMPARE(b["stream"].get<bool>(), false);
        b = Json::parse(
            RequestBody(spec).make(nullptr, "bad \xff byte", 1)); // not UTF-8: replaced, never thrown
        QCOMPARE(b["messages"][0]["content"].get<std::string>(), std::string("bad \xef\xbf\xbd byte"));
    }

    void promptsAreQuotedAsNlohmannQuotesThem() {
        // The body writes its prompt itself: byte for byte what nlohmann's dump writes for UTF-8 text, and
        // valid JSON with U+FFFD for bytes that are not.
        LoadSpec spec;
        spec.model = "m";
        spec.endpoint = Endpoint::Completions;
        const RequestBody body(spec);
        std::mt19937 rng(41);
        const std::vector<std::string> pieces = {"a",
                                                 " ",
                                                 "\"",
                                                 "\\",
                                                 "/",
                                                 "\n",
                                                 "\r",
                                                 "\t",
                                                 "\b",
                                                 "\f",
                                                 std::string(1, '\0'),
                                                 "\x01",
                                                 "\x1f",
                                                 "\x7f",
                                                 "\xC3\xA9",
                                                 "\xE4\xB8\xAD",
                                                 "\xF0\x9F\x98\x80",
                                                 "\xEF\xBF\xBD"};
        const std::vector<std::string> broken = {"\xff",         "\xC3",     "\xE4\xB8",
                                                 "\xED\xA0\x80", "\xC0\xAF", "\x80"};
        for (int round = 0; round < 3000; ++round) {
            std::string text;
            for (int k = int(rng() % 12); k > 0; --k)
                text += pieces[rng() % pieces.size()];
            const std::string made = body.make(nullptr, text, 1);
            const std::string want = "\"prompt\":" + Json(text).dump() + ",\"max_tokens\":1,";
            QVERIFY2(made.find(want) != std::string::npos, made.c_str());
            std::string bad = text;
            bad.insert(rng() % (bad.size() + 1), broken[rng() % broken.size()]);
            const Json parsed = Json::parse(body.make(nullptr, bad, 1), nullptr, false);
            QVERIFY(!parsed.is_discarded());
            QVERIFY(parsed["prompt"].get<std::string>().find("\xEF\xBF\xBD") != std::string::npos);
        }
    }

    void statisticsAreNumpys() {
        std::vector<double> v{10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
        const MetricStats m = statsOf(v, {50, 90, 99});
        QCOMPARE(m.median, 5.5);
        QVERIFY(qFuzzyCompare(m.percentiles[1].second, 9.1));
        QVERIFY(qFuzzyCompare(m.percentiles[2].second, 9.91));
        QVERIFY(qFuzzyCompare(m.stddev, 2.8722813232690143));
        QCOMPARE(statsOf({}, {99}).count, size_t(0));
        QCOMPARE(percentileOf({4.0}, 99), 4.0);
    }

    void summaryCountsEachRequestOnceAndKeepsFailuresApart() {
        std::vector<RequestRecord> rs;
        for (int i = 0; i < 10; ++i) {
            RequestRecord r = okRecord(100 + i, 1000 + i, 10);
            r.index = i;
            r.sentS = i * 0.1;
            rs.push_back(r);
        }
        RequestRecord warm = okRecord(5, 6, 2);
        warm.warmup = true;
        warm.sentS = -1;
        rs.push_back(warm);
        RequestRecord dropped = okRecord(100, 500, 3);
        dropped.failure = Failure::Dropped;
        dropped.error = "the stream ended before data: [DONE]";
        dropped.sentS = 0.5;
        dropped.clientDelayMs = 3;
        rs.push_back(dropped);
        std::string why;
        const auto slos = parseSlos("ttft<=104ms", &why);
        const LoadSummary s = summarize(rs, *slos, {50, 99});
        QCOMPARE(s.completed, size_t(10));
        QCOMPARE(s.failed, size_t(1));
        QCOMPARE(s.warmupExcluded, size_t(1));
        QCOMPARE(s.failuresByKind.at("dropped"), size_t(1));
        QCOMPARE(s.totalOutputTokens, int64_t(100));
        QCOMPARE(s.totalInputTokens, int64_t(100));
        QCOMPARE(s.goodRequests, size_t(5));
        QCOMPARE(s.lateRequests, size_t(1));
        QCOMPARE(s.metrics.at("itl").count, size_t(90));
        QCOMPARE(s.metrics.at("ttft").median, 104.5);
        QVERIFY(qFuzzyCompare(s.durationS, 0.9 + 1.009)); // first send to the last end
        QVERIFY(qFuzzyCompare(s.requestThroughput, 10 / 1.909));
        QVERIFY(qFuzzyCompare(*s.requestGoodput, 5 / 1.909));
        QVERIFY(qFuzzyCompare(s.metrics.at("tpot").median, 900.0 / 9));

        LoadSpec spec;
        spec.model = "m";
        spec.concurrency = 8;
        const Json j = summaryJson(s, spec, *slos, "20261203-120000");
        for (const char* key : {"date",
                                "backend",
                                "model_id",
                                "num_prompts",
                                "request_rate",
                                "burstiness",
                                "max_concurrency",
                                "duration",
                                "completed",
                                "total_input_tokens",
                                "total_output_tokens",
                                "request_throughput",
                                "request_goodput",
                                "output_throughput",
                                "total_token_throughput",
                                "mean_ttft_ms",
                                "median_ttft_ms",
                                "std_ttft_ms",
                                "p99_ttft_ms",
                                "mean_tpot_ms",
                                "median_tpot_ms",
                                "p99_tpot_ms",
                                "mean_itl_ms",
                                "median_itl_ms",
                                "p99_itl_ms",
                                "mean_e2el_ms",
                                "p99_e2el_ms"})
            QVERIFY2(j.contains(key), key);
        QVERIFY(j["request_rate"] == Json("inf"));
        QVERIFY(j["failures"]["dropped"]["count"] == Json(1));
    }

    void theTextReadsLikeVllmsOwn() {
        // Every label of vLLM's own result table (a real one, from its docs) is in ours.
        const QByteArray real =
            rackscope::test::fixtureBytes("vllm-bench-serve_console_sharegpt-10prompts_docs-example.txt");
        QVERIFY(!real.isEmpty());
        const LoadSummary s = summarize({okRecord(70, 1000, 100)}, {}, {99});
        const QString ours = QString::fromStdString(summaryText(s, "Serving Benchmark Result"));
        for (const QByteArray& line : real.split('\n')) {
            const QString label = QString::fromUtf8(line).section(QLatin1Char(':'), 0, 0).trimmed();
            if (label.isEmpty() || label.startsWith(QLatin1Char('=')) || label.startsWith(QLatin1Char('-'))) {
                if (label.startsWith(QLatin1Char('-')))
                    QVERIFY2(
                        ours.contains(QString(label).remove(QRegularExpression(QStringLiteral("^-+|-+$")))),
                        qPrintable(label));
                continue;
            }
            QVERIFY2(ours.contains(label + QLatin1Char(':')), qPrintable(label));
        }
        QVERIFY(ours.contains("Failed requests:"));
        QVERIFY(ours.contains("Late sends"));
    }

    void recordsAndSpecsRoundTripAndBadOnesAreRefused() {
        RequestRecord r = okRecord(12.3456789, 99.5, 4);
        r.index = 3;
        r.client = "node3";
        r.httpStatus = 200;
        r.connectMs = 0.25;
        r.chunkTokens = {1, 1, 1, 1};
        std::string why;
        const auto back = recordFromJson(toJson(r), &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->ttftMs.value(), 12.346);
        QCOMPARE(back->client, std::string("node3"));
        QCOMPARE(back->chunkTokens.size(), size_t(4));
        QVERIFY(!recordFromJson(Json::array(), &why));
        Json bad = toJson(r);
        bad["status"] = "exploded";
        QVERIFY(!recordFromJson(bad, &why));
        QVERIFY(QString::fromStdString(why).contains("exploded"));
        bad = toJson(r);
        bad["ttft_ms"] = "fast";
        QVERIFY(!recordFromJson(bad, &why));
        bad = toJson(r);
        bad["itl_ms"] = Json::array({-1.0});
        QVERIFY(!recordFromJson(bad, &why));

        LoadSpec spec;
        spec.url = "http://127.0.0.1:8000/v1";
        spec.model = "meta-llama/Llama-3.1-8B-Instruct";
        spec.concurrency = 64;
        spec.requests = 500;
        spec.rate = 20;
        spec.burstiness = 0.5;
        spec.headers = {{"Authorization", "Bearer x"}};
        spec.outputLen = {LengthDist::Kind::Uniform, 10, 20};
        spec.prompts = {Prompt{"p", {}, 3, {}}};
        const auto s2 = loadSpecFromJson(toJson(spec), &why);
        QVERIFY2(s2, why.c_str());
        QVERIFY(toJson(*s2) == toJson(spec));
        // Across the one boundary to Qt's JSON (what the agent client carries) and back: the same
        // values (Qt sorts an object's keys, so they are compared as unordered JSON).
        const auto crossesUnchanged = [](const Json& j) {
            return nlohmann::json::parse(rackscope::fromQtJson(rackscope::toQtJson(j)).dump()) ==
                   nlohmann::json::parse(j.dump());
        };
        QVERIFY(crossesUnchanged(toJson(spec)));
        QVERIFY(crossesUnchanged(toJson(r)));
        QVERIFY(crossesUnchanged(Json::parse(
            R"({"big":9007199254740000,"neg":-3,"f":0.125,"s":"网络 ✓","n":null,"b":true,"a":[1,[2,{"x":[]}]],"o":{}})")));
        QVERIFY(rackscope::fromQtJson(rackscope::toQtJson(Json(int64_t(1) << 52))).is_number_integer());
        for (const char* badSpec :
             {"[]", "{\"model\":\"m\"}", "{\"url\":\"ftp://x\",\"model\":\"m\",\"requests\":1}",
              "{\"url\":\"http://x\",\"model\":\"m\",\"requests\":1,\"concurrency\":\"many\"}",
              "{\"url\":\"http://x\",\"model\":\"m\"}",
              "{\"url\":\"http://x\",\"model\":\"m\",\"requests\":1,\"headers\":[[\"Bad Name\",\"v\"]]}",
              "{\"url\":\"http://"
              "x\",\"model\":\"m\",\"requests\":1,\"input_len\":{\"kind\":\"zipf\",\"a\":1,\"b\":2}}",
              "{\"url\":\"http://x\",\"model\":\"m\",\"requests\":1,\"concurrency\":0}",
              "{\"url\":\"http://x\",\"model\":\"m\",\"requests\":1,\"burstiness\":0}"}) {
            QVERIFY2(!loadSpecFromJson(Json::parse(badSpec), &why), badSpec);
            QVERIFY(!why.empty());
        }
    }

    void randomJsonNeverBreaksTheReaders() {
        std::mt19937 rng(11);
        const std::vector<Json> atoms = {Json(),    Json(1),       Json(-5),       Json(1e300),
                                         Json("x"), Json::array(), Json::object(), Json(true)};
        RequestRecord r = okRecord(1, 2, 3);
        LoadSpec spec;
        spec.url = "http://x";
        spec.model = "m";
        spec.requests = 1;
        const Json goodRecord = toJson(r), goodSpec = toJson(spec);
        std::string why;
        for (int round = 0; round < 3000; ++round) {
            Json rec = goodRecord, sp = goodSpec;
            for (int k = 0; k < 3; ++k) {
                auto it = rec.begin();
                std::advance(it, rng() % rec.size());
                *it = atoms[rng() % atoms.size()];
                auto jt = sp.begin();
                std::advance(jt, rng() % sp.size());
                *jt = atoms[rng() % atoms.size()];
            }
            (void)recordFromJson(rec, &why);
            (void)loadSpecFromJson(sp, &why);
        }
    }
};

QTEST_GUILESS_MAIN(TestLoadStream)
#include "test_load_stream.moc"
