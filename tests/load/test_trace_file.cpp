// Trace files in the layouts they are published in, read by content; what cannot be read is skipped
// and named, or refused with the reason; and a Mooncake trace's shared blocks become shared prompt text.
#include "load_model/load_spec.h"
#include "load_model/trace_file.h"

#include <QRandomGenerator>
#include <QTest>

using namespace rsload;

class TestTraceFile : public QObject {
    Q_OBJECT

private slots:
    // AzurePublicDataset's AzureLLMInferenceTrace_{code,conv}.csv: dates to the 100 ns, CRLF line ends.
    void azureLayout() {
        const TraceRead r = readTraceFile("TIMESTAMP,ContextTokens,GeneratedTokens\r\n"
                                          "2023-11-16 18:15:46.6805900,374,44\r\n"
                                          "2023-11-16 18:15:50.9951690,396,109\r\n"
                                          "2023-11-16 18:16:00.0000000,879,7\r\n");
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.layout, std::string("Azure LLM inference"));
        QCOMPARE(r.arrivals.size(), size_t(3));
        QCOMPARE(r.arrivals[0].atS, 0.0);
        QVERIFY(std::abs(r.arrivals[1].atS - 4.314579) < 1e-6);
        QVERIFY(std::abs(r.arrivals[2].atS - 13.31941) < 1e-6);
        QCOMPARE(r.arrivals[1].inputLen, int64_t(396));
        QCOMPARE(r.arrivals[1].outputLen, int64_t(109));
        // across midnight and a month's end
        const TraceRead m =
            readTraceFile("TIMESTAMP,ContextTokens,GeneratedTokens\n2024-02-29 23:59:59.5,1,1\n"
                          "2024-03-01T00:00:00.5Z,1,1\n");
        QCOMPARE(m.arrivals.back().atS, 1.0);
    }

    // Mooncake's FAST'25 traces: ms since the first request, shared blocks by hash id.
    void mooncakeLayout() {
        const TraceRead r = readTraceFile(
            R"({"timestamp": 0, "input_length": 655, "output_length": 52, "hash_ids": [46, 47]})"
            "\n"
            R"({"timestamp": 10535, "input_length": 672, "output_length": 26, "hash_ids": [46, 47]})"
            "\n"
            R"({"timestamp": 27482, "input_length": 655, "output_length": 52, "hash_ids": [46, 47]})"
            "\n");
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.layout, std::string("Mooncake"));
        QCOMPARE(r.arrivals.size(), size_t(3));
        QCOMPARE(r.arrivals[1].atS, 10.535);
        QCOMPARE(r.arrivals[2].atS, 27.482);
        QCOMPARE(r.arrivals[2].hashIds, (std::vector<int64_t>{46, 47}));
    }

    void otherLayouts() {
        // BurstGPT: seconds under "Timestamp", with the model and totals beside
        const TraceRead b =
            readTraceFile("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
                          "5,ChatGPT,472,18,490,Conversation log\n"
                          "45,GPT-4,1087,192,1279,Conversation log\n");
        QCOMPARE(b.layout, std::string("BurstGPT"));
        QCOMPARE(b.arrivals[1].atS, 40.0);
        QCOMPARE(b.arrivals[1].outputLen, int64_t(192));
        // a CSV whose names say the unit, columns in any order, out of order in time: sorted
        const TraceRead c =
            readTraceFile("output_tokens,arrival_time_ms,input_tokens\n3,2500,10\n4,1000,20\n");
        QCOMPARE(c.layout, std::string("CSV"));
        QCOMPARE(c.arrivals[0].inputLen, int64_t(20));
        QCOMPARE(c.arrivals[1].atS, 1.5);
        // JSON Lines with seconds, no output length (the run's own applies)
        const TraceRead j =
            readTraceFile("{\"arrival_time\": 0.25, \"prompt_tokens\": 9}\n{\"arrival_time\": 1.0, "
                          "\"prompt_tokens\": 7}\n");
        QCOMPARE(j.layout, std::string("JSON Lines"));
        QCOMPARE(j.arrivals[1].atS, 0.75);
        QCOMPARE(j.arrivals[1].outputLen, int64_t(0));
    }

    void badTraces() {
        for (const char* text : {"", "  \n", "TIMESTAMP,ContextTokens,GeneratedTokens\n", "when,what\n1,2\n",
                                 "{\"x\": 1}\n", "not a trace at all\n1,2,3\n"}) {
            const TraceRead r = readTraceFile(text);
            QVERIFY2(!r.error.empty() && r.arrivals.empty(), text);
        }
        // a bad line is skipped and named; the rest is kept
        const TraceRead r =
            readTraceFile("timestamp_s,input_length,output_length\n0,10,2\n1,-5,2\n2,x,3\n3,10.5,1\n"
                          "4,10,2\n5,10"); // cut mid-line: no output length
        QCOMPARE(r.arrivals.size(), size_t(2));
        QCOMPARE(r.skipped, size_t(4));
        QVERIFY2(r.firstProblem.rfind("line 3: ", 0) == 0, r.firstProblem.c_str());
        const TraceRead m = readTraceFile("{\"timestamp\": 0, \"input_length\": 5, \"hash_ids\": \"46\"}\n"
                                          "{\"timestamp\": 1, \"input_length\": 5}\n{\"timestamp\": 2, ");
        QCOMPARE(m.arrivals.size(), size_t(1));
        QCOMPARE(m.skipped, size_t(2));
    }

    void randomInput() {
        QRandomGenerator rng(7);
        for (int i = 0; i < 300; ++i) {
            std::string text(size_t(rng.bounded(2000)), '\0');
            for (char& c : text)
                c = char(rng.bounded(256));
            if (i % 3 == 0)
                text = "timestamp,input_length,output_length\n" + text;
            if (i % 3 == 1)
                text = "{\"timestamp\": " + text;
            const TraceRead r = readTraceFile(text); // no crash, and what was kept is in order
            for (size_t k = 1; k < r.arrivals.size(); ++k)
                QVERIFY(r.arrivals[k].atS >= r.arrivals[k - 1].atS);
        }
    }

    // Requests that name the same blocks share those words; each prompt has its length in words.
    void sharedBlocksShareTheirText() {
        std::mt19937_64 rng(1);
        const TraceArrival a{0, 1100, 1, {46, 47, 48}}, b{0, 700, 1, {46, 99}}, c{0, 300, 1, {}};
        const auto words = [](const std::string& s) { return std::count(s.begin(), s.end(), ' ') + 1; };
        const std::string pa = tracePrompt(a, rng), pb = tracePrompt(b, rng), pc = tracePrompt(c, rng);
        QCOMPARE(words(pa), 1100);
        QCOMPARE(words(pb), 700);
        QCOMPARE(words(pc), 300);
        size_t same = 0;
        while (same < pa.size() && same < pb.size() && pa[same] == pb[same])
            ++same;
        const std::string common = pa.substr(0, same);
        QVERIFY2(std::count(common.begin(), common.end(), ' ') >= kTraceBlockTokens - 1,
                 qPrintable(QString::number(same)));                                        // block 46 whole
        QVERIFY(std::count(common.begin(), common.end(), ' ') < 2 * kTraceBlockTokens - 1); // not 47 and 99
    }

    void theSpecCarriesTheTrace() {
        LoadSpec s;
        s.url = "http://x:1/v1";
        s.model = "m";
        s.concurrency = 0;
        s.trace = {{0, 5, 2, {1, 2}}, {0.5, 6, 3, {}}};
        s.traceSpeed = 2;
        QVERIFY(validate(s).empty()); // no rate, no count: the trace is both
        std::string why;
        const auto back = loadSpecFromJson(toJson(s), &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->trace.size(), size_t(2));
        QCOMPARE(back->trace[0].hashIds, (std::vector<int64_t>{1, 2}));
        QCOMPARE(back->trace[1].atS, 0.5);
        QCOMPARE(back->traceSpeed, 2.0);
        s.trace[1].atS = -1; // out of order
        QVERIFY(!validate(s).empty());
    }
};

QTEST_GUILESS_MAIN(TestTraceFile)
#include "test_trace_file.moc"
