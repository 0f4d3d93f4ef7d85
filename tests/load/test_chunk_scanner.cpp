// The quick chunk scanner against the document reader it stands in for: on
// the chunks and responses servers send, on every kind of JSON value in every
// place it reads, and on thousands of mutations and random documents, it
// either reads exactly what the document reader reads, or declines. It must
// take what servers send: a scan that declined everything would be correct
// and of no use.
#include "load/chunk_scanner.h"
#include "load/openai_stream.h"
#include "test_support.h"

#include <QTest>

#include <random>

using namespace rsload;

namespace {

const Endpoint kEndpoints[] = {Endpoint::ChatCompletions, Endpoint::Completions};

// Chunks and responses in the shapes vLLM, SGLang, TGI, llama.cpp's server and OpenAI send.
const std::vector<std::string>& serverSamples() {
    static const std::vector<std::string> samples = {
        R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})",
        R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" Hello"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":12,"total_tokens":13,"completion_tokens":1}})",
        R"({"choices":[{"index":0,"delta":{"reasoning_content":"hmm","content":null}}]})",
        R"({"choices":[{"index":0,"delta":{"reasoning":"think","content":"ok"}}]})",
        R"({"choices":[{"index":0,"delta":{},"finish_reason":"length","stop_reason":null}]})",
        R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}})",
        R"({"choices":[{"finish_reason":"length","index":0,"text":" tok"}],"id":"cmpl-0","model":"bench","object":"text_completion","usage":{"completion_tokens":1,"prompt_tokens":8,"total_tokens":9}})",
        R"({"choices":[{"finish_reason":null,"index":0,"logprobs":null,"text":" tok"}],"created":0,"id":"cmpl-1","model":"bench","object":"text_completion"})",
        R"({"id":"cmpl-2","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"\u4f60\u597d\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t","logprobs":{"tokens":["a"],"token_logprobs":[-0.25],"top_logprobs":[{"a":-0.25}],"text_offset":[0]},"finish_reason":"stop"}]})",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\xE4\xBD\xA0\xE5\xA5\xBD\xF0\x9F\x98\x80\"}}]}",
        R"({"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole answer","tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":7}})",
        R"({"choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"}}]})",
        R"({"token":{"id":1,"text":" tok","logprob":-0.1,"special":false},"generated_text":null,"details":null})",
        R"({"choices":[{"text":"x","index":0,"finish_reason":null}],"created":1.5e9,"timings":{"predicted_ms":-0.0,"n":0}})",
        " \t\r\n{ \"choices\" : [ { \"delta\" : { \"content\" : \"spaced\" } , \"text\" : \"t\" } ] } \n",
        R"({"usage":{"prompt_tokens":0,"completion_tokens":999999999999999999}})",
        R"({"created":1.5e300,"x":[-0.0,0.25,1E-5,12345678901234567890123]})",
        R"({})",
    };
    return samples;
}

// The two readers agree, or the scan declined. Counts what the scan took.
void expectSameOrDeclined(const std::string& text, size_t* taken, size_t* declinedValid = nullptr) {
    for (const Endpoint e : kEndpoints) {
        const StreamChunk reference = readChunkDocument(text, e);
        const std::optional<StreamChunk> quick = scanChunk(text, e);
        if (!quick) {
            if (declinedValid && !reference.invalid)
                ++*declinedValid;
            continue;
        }
        ++*taken;
        if (!(*quick == reference)) {
            QFAIL(qPrintable(
                QStringLiteral("the scan and the document differ on %1:\n scan text '%2' finish '%3' "
                               "choices %4 prompt %5 completion %6\n document text '%7' finish '%8' "
                               "choices %9 prompt %10 completion %11 invalid %12")
                    .arg(QString::fromStdString(text), QString::fromStdString(quick->text),
                         QString::fromStdString(quick->finishReason.value_or("-")))
                    .arg(quick->hasChoices)
                    .arg(quick->promptTokens.value_or(-1))
                    .arg(quick->completionTokens.value_or(-1))
                    .arg(QString::fromStdString(reference.text),
                         QString::fromStdString(reference.finishReason.value_or("-")))
                    .arg(reference.hasChoices)
                    .arg(reference.promptTokens.value_or(-1))
                    .arg(reference.completionTokens.value_or(-1))
                    .arg(reference.invalid)));
        }
    }
}

// JSON scalars of every kind, and those the readers treat apart (counts too large or signed, escapes, the
// error kind).
const std::vector<std::string>& scalars() {
    static const std::vector<std::string> v = {"null",
                                               "true",
                                               "false",
                                               "0",
                                               "-0",
                                               "7",
                                               "-3",
                                               "1.5",
                                               "2e3",
                                               "18446744073709551616",
                                               "123456789012345678",
                                               "1234567890123456789",
                                               R"("")",
                                               R"("length")",
                                               R"("error")",
                                               R"("a\nb")",
                                               R"("\u00e9\ud83d\ude00")",
                                               "\"\xE4\xBD\xA0\"",
                                               R"("text_completion")"};
    return v;
}

// A random JSON value, leaning on the keys and kinds the readers look at.
std::string randomValue(std::mt19937& rng, int depth) {
    static const std::vector<std::string> keys = {"choices",
                                                  "usage",
                                                  "object",
                                                  "delta",
                                                  "message",
                                                  "text",
                                                  "content",
                                                  "reasoning",
                                                  "reasoning_content",
                                                  "finish_reason",
                                                  "prompt_tokens",
                                                  "completion_tokens",
                                                  "index",
                                                  "error",
                                                  "id",
                                                  "x",
                                                  "",
                                                  "te\\u0078t",
                                                  "\xE4\xBD\xA0"};
    const auto space = [&] { return std::string(rng() % 4 == 0 ? " " : ""); };
    const auto pick = depth > 4 ? rng() % 3 : rng() % 6;
    if (pick < 3)
        return scalars()[rng() % scalars().size()];
    const int n = int(rng() % 4);
    std::string out = pick == 3 ? "[" : "{";
    for (int i = 0; i < n; ++i) {
        if (i)
            out += "," + space();
        if (pick != 3)
            out += "\"" + keys[rng() % keys.size()] + "\"" + space() + ":" + space();
        out += randomValue(rng, depth + 1);
    }
    return out + (pick == 3 ? "]" : "}");
}

// A random chunk in the servers' own shape: the members the readers look at, in any order and number,
// each holding any kind of value.
std::string randomChunk(std::mt19937& rng) {
    static const std::vector<std::string> values = [] {
        std::vector<std::string> v = scalars();
        v.insert(v.end(), {"[]", "{}", R"(["x"])", R"({"content":"x"})"});
        return v;
    }();
    const auto pickValue = [&] { return values[rng() % values.size()]; };
    // An object of some of `keys` (a key may come twice), each value made by `make`.
    const auto object = [&](const std::vector<std::string>& keys, const auto& make) {
        std::string out = "{";
        for (int n = int(rng() % (keys.size() + 1)); n > 0; --n) {
            if (out.size() > 1)
                out += ",";
            const std::string& key = keys[rng() % keys.size()];
            out += "\"" + key + "\":" + (rng() % 5 ? make(key) : pickValue());
        }
        return out + "}";
    };
    const auto texts = [&](const std::string&) {
        return object({"role", "content", "reasoning", "reasoning_content", "tool_calls"},
                      [&](const std::string&) { return pickValue(); });
    };
    const auto choice = [&](const std::string&) {
        return object({"index", "delta", "message", "text", "finish_reason", "logprobs"},
                      [&](const std::string& key) {
                          return key == "delta" || key == "message" ? texts(key) : pickValue();
                      });
    };
    return object({"id", "object", "choices", "usage", "created"}, [&](const std::string& key) {
        if (key == "choices") {
            std::string out = "[";
            for (int n = int(rng() % 3); n > 0; --n)
                out += (out.size() > 1 ? "," : "") + choice(key);
            return out + "]";
        }
        if (key == "usage")
            return object({"prompt_tokens", "completion_tokens", "total_tokens"},
                          [&](const std::string&) { return pickValue(); });
        return pickValue();
    });
}

// A byte the scan must stop at in a string, as written and as read.
struct Special {
    std::string written, read;
    bool escape; // declined in a key (it could spell a key that is read)
};

} // namespace

class TestChunkScanner : public QObject {
    Q_OBJECT
private slots:
    void serversChunksAreReadAsTheDocumentReadsThem() {
        for (const std::string& s : serverSamples()) {
            size_t taken = 0;
            expectSameOrDeclined(s, &taken);
            QVERIFY2(taken == 2, s.c_str()); // each, for both endpoints, is taken: none is declined
        }
        const auto chunk = scanChunk(serverSamples()[8], Endpoint::Completions);
        QVERIFY(chunk);
        QCOMPARE(chunk->text, std::string("\xE4\xBD\xA0\xE5\xA5\xBD\xF0\x9F\x98\x80 \"q\" \\ / \b\f\n\r\t"));
        QCOMPARE(chunk->finishReason.value_or(""), std::string("stop"));
    }

    void whatTheScanLeavesToTheDocumentReader() {
        const std::vector<std::string> declined = {
            R"({"error":{"message":"out of memory","type":"InternalServerError","code":500}})",
            R"({"object":"error","message":"context too long","code":400})",
            R"({"object":"err\u006fr","message":"escaped kind"})",
            R"({"choices":[],"choices":[{"text":"last wins"}]})",
            R"({"te\u0078t":1})",
            R"({"usage":{"prompt_tokens":-1}})",
            R"({"usage":{"prompt_tokens":1.0}})",
            R"({"usage":{"prompt_tokens":1234567890123456789}})",
            "\xEF\xBB\xBF{}",
            "[1,2]",
            "{not json",
            R"({"a":1,})",
            R"({"a":01})",
            R"({"a":"\ud800"})",
            R"({"a":"\udc00"})",
            R"({"a":"\x"})",
            "{\"a\":\"\xC0\xAF\"}",
            "{\"a\":\"\t\"}",
            R"({"a":1} {})",
            R"({"a":1e999})",
            R"({"a":-1.5E+400})",
            std::string(70, '[') + std::string(70, ']'),
            "{\"a\":" + std::string(64, '[') + std::string(64, ']') + "}",
        };
        for (const std::string& s : declined)
            for (const Endpoint e : kEndpoints)
                QVERIFY2(!scanChunk(s, e), s.c_str());
        // and the document reader still says what each is
        QCOMPARE(interpretChunk(declined[0], Endpoint::ChatCompletions).error.value_or(""),
                 std::string("out of memory (InternalServerError, 500)"));
        QCOMPARE(interpretChunk(declined[3], Endpoint::Completions).text, std::string("last wins"));
        QVERIFY(interpretChunk(declined[10], Endpoint::Completions).invalid);
        // nesting of exactly the limit is read
        const std::string deepest = "{\"a\":" + std::string(63, '[') + std::string(63, ']') + "}";
        size_t taken = 0;
        expectSameOrDeclined(deepest, &taken);
        QCOMPARE(taken, size_t(2));
    }

    void specialBytesAreFoundWhereverTheyFall() {
        // The scan passes over plain bytes eight at a time: each byte it must stop at, at every place in
        // a string's text and in a key.
        const std::vector<Special> specials = {
            {"\\\"", "\"", true},
            {"\\\\", "\\", true},
            {"\\n", "\n", true},
            {"\\u00e9", "\xC3\xA9", true},
            {"\xC3\xA9", "\xC3\xA9", false},
            {"\xE4\xBD\xA0", "\xE4\xBD\xA0", false},
            {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", false},
            {"\x7f", "\x7f", false},
        };
        const std::vector<std::string> refused = {
            std::string(1, '\x01'), "\x1f", "\xff", "\xC3", "\"", "\\x"};
        for (size_t at = 0; at <= 17; ++at) {
            const std::string before(at, 'a'), after(9, 'b');
            for (const Special& special : specials) {
                const std::string text = before + special.written + after;
                const std::string doc = "{\"choices\":[{\"index\":0,\"text\":\"" + text + "\"}]}";
                const auto chunk = scanChunk(doc, Endpoint::Completions);
                QVERIFY2(chunk, doc.c_str());
                QCOMPARE(chunk->text, before + special.read + after);
                size_t taken = 0;
                expectSameOrDeclined("{\"" + text + "\":1,\"choices\":[{\"text\":\"t\"}]}", &taken);
                QCOMPARE(taken, special.escape ? size_t(0) : size_t(2));
            }
            for (const std::string& bad : refused)
                for (const Endpoint e : kEndpoints) {
                    const std::string doc = "{\"choices\":[{\"text\":\"" + before + bad + after + "\"}]}";
                    QVERIFY2(!scanChunk(doc, e), doc.c_str());
                    QVERIFY2(!scanChunk("{\"" + before + bad + after + "\":1}", e), doc.c_str());
                }
        }
    }

    void mutatedChunksAreReadTheSameOrDeclined() {
        std::mt19937 rng(29);
        const std::string alphabet =
            "{}[]\":,\\ u0123456789abcdefnrtul-+.eE\xE4\xBD\xA0\xED\xA0\x80\x01\x1f\x7f";
        size_t taken = 0, declinedValid = 0, mutations = 0;
        for (const std::string& sample : serverSamples()) {
            for (int round = 0; round < 1500; ++round) {
                std::string m = sample;
                for (int k = 1 + int(rng() % 3); k > 0 && !m.empty(); --k) {
                    const size_t at = rng() % m.size();
                    switch (rng() % 5) {
                    case 0:
                        m[at] = alphabet[rng() % alphabet.size()];
                        break;
                    case 1:
                        m.insert(at, 1, alphabet[rng() % alphabet.size()]);
                        break;
                    case 2:
                        m.erase(at, 1 + rng() % 4);
                        break;
                    case 3:
                        m.insert(at, m.substr(rng() % m.size(), 1 + rng() % 12));
                        break;
                    default:
                        m.resize(at);
                    }
                }
                ++mutations;
                expectSameOrDeclined(m, &taken, &declinedValid);
            }
        }
        qInfo("%zu mutations: the scan took %zu readings; declined %zu the document read", mutations, taken,
              declinedValid);
        QVERIFY(taken > mutations / 10); // many mutations stay JSON (a changed digit, a letter in a string)
    }

    void randomDocumentsAreReadTheSameOrDeclined() {
        std::mt19937 rng(31);
        size_t taken = 0, declinedValid = 0;
        const int documents = 20000;
        for (int i = 0; i < documents; ++i) {
            std::string doc = randomValue(rng, 0);
            if (rng() % 2) // a top-level object, as servers send
                doc = "{\"choices\":[" + doc + "]," + "\"usage\":" + randomValue(rng, 1) + "}";
            expectSameOrDeclined(doc, &taken, &declinedValid);
        }
        qInfo("%d documents: the scan took %zu readings; declined %zu the document read", documents, taken,
              declinedValid);
        QVERIFY(taken > size_t(documents) / 4);
    }

    void randomChunksInTheServersShapeAreReadTheSameOrDeclined() {
        std::mt19937 rng(37);
        size_t taken = 0, declinedValid = 0;
        const int chunks = 20000;
        for (int i = 0; i < chunks; ++i)
            expectSameOrDeclined(randomChunk(rng), &taken, &declinedValid);
        qInfo("%d chunks: the scan took %zu readings; declined %zu the document read", chunks, taken,
              declinedValid);
        QVERIFY(taken > size_t(chunks) / 2);
    }
};

QTEST_GUILESS_MAIN(TestChunkScanner)
#include "test_chunk_scanner.moc"
