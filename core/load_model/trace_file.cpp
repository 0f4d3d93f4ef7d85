#include "trace_file.h"

#include "prompts.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

namespace rsload {
namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r\"");
    const size_t b = s.find_last_not_of(" \t\r\"");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::optional<double> number(const std::string& text) {
    const std::string t = trimmed(text);
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// "2023-11-16 18:15:46.6805900" (Azure's), also with a T and a trailing Z, as seconds since 1970.
std::optional<double> dateTime(const std::string& text) {
    const std::string t = trimmed(text);
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double s = 0;
    char sep = 0;
    int used = 0;
    if (std::sscanf(t.c_str(), "%4d-%2d-%2d%c%2d:%2d:%lf%n", &y, &mo, &d, &sep, &h, &mi, &s, &used) != 7 ||
        (sep != ' ' && sep != 'T') || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s < 0 ||
        s >= 61)
        return std::nullopt;
    const std::string rest = t.substr(size_t(used));
    if (!rest.empty() && rest != "Z" && rest != "+00:00")
        return std::nullopt;
    return double(daysFromCivil(y, mo, d)) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
}

struct Columns {
    int time = -1, input = -1, output = -1;
    double timeScale = 1; // to seconds
    bool dates = false;   // the time is a date and time
};

bool isOneOf(const std::string& name, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

// Which column holds what, by its name; the time's unit from the name (timestamp: Mooncake's ms where
// it is a number, Azure's date where it is one, BurstGPT's seconds under "Timestamp" with request tokens).
Columns columnsOf(const std::vector<std::string>& names, bool burstGpt) {
    Columns c;
    for (int i = 0; i < int(names.size()); ++i) {
        const std::string n = lower(trimmed(names[size_t(i)]));
        if (isOneOf(n, {"timestamp", "arrival_time", "time", "arrival_timestamp", "timestamp_ms", "time_ms",
                        "arrival_time_ms", "timestamp_s", "time_s", "arrival_time_s"})) {
            c.time = i;
            c.timeScale = n.size() > 3 && n.compare(n.size() - 3, 3, "_ms") == 0 ? 0.001
                          : n == "timestamp" && !burstGpt                        ? 0.001
                                                                                 : 1.0;
        } else if (isOneOf(n, {"input_length", "input_tokens", "prompt_tokens", "context_tokens",
                               "contexttokens", "request tokens", "input_len", "num_prefill_tokens"})) {
            c.input = i;
        } else if (isOneOf(n, {"output_length", "output_tokens", "completion_tokens", "generated_tokens",
                               "generatedtokens", "response tokens", "output_len", "max_tokens",
                               "num_decode_tokens"})) {
            c.output = i;
        }
    }
    return c;
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char ch : line) {
        if (ch == '"')
            quoted = !quoted;
        else if (ch == ',' && !quoted)
            out.emplace_back();
        else
            out.back() += ch;
    }
    return out;
}

// Each line of `text` with its number, without its end.
template <class Each> void eachLine(const std::string& text, Each each) {
    size_t pos = 0;
    for (size_t lineNo = 1; pos < text.size(); ++lineNo) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        pos = end + 1;
        if (!each(line, lineNo))
            return;
    }
}

bool lengthOk(double v) {
    return v >= 0 && v <= 10'000'000 && v == std::floor(v);
}

} // namespace

TraceRead readTraceFile(const std::string& text) {
    TraceRead r;
    std::vector<TraceArrival> raw;
    const auto skip = [&](size_t lineNo, const std::string& why) {
        if (r.skipped++ == 0)
            r.firstProblem = "line " + std::to_string(lineNo) + ": " + why;
    };
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        r.error = "the trace is empty";
        return r;
    }
    if (text[first] == '{') { // JSON Lines
        bool mooncake = false, any = false;
        eachLine(text, [&](const std::string& line, size_t lineNo) {
            if (line.find_first_not_of(" \t") == std::string::npos)
                return true;
            if (raw.size() >= kMaxTraceRequests)
                return false;
            const Json j = Json::parse(line, nullptr, false);
            if (j.is_discarded() || !j.is_object())
                return skip(lineNo, "not a JSON object"), true;
            std::vector<std::string> names;
            for (const auto& [key, value] : j.items())
                names.push_back(key);
            const Columns c = columnsOf(names, false);
            if (c.time < 0 || c.input < 0)
                return skip(lineNo, "no arrival time or input length"), true;
            const Json& t = j[names[size_t(c.time)]];
            const Json& in = j[names[size_t(c.input)]];
            const Json out = c.output >= 0 ? j[names[size_t(c.output)]] : Json();
            if (!t.is_number() || !in.is_number() || (!out.is_null() && !out.is_number()) ||
                !lengthOk(in.get<double>()) || (out.is_number() && !lengthOk(out.get<double>())))
                return skip(lineNo,
                            "the time and lengths must be numbers, the lengths whole and not negative"),
                       true;
            TraceArrival a;
            a.atS = t.get<double>() * c.timeScale;
            a.inputLen = in.get<int64_t>();
            a.outputLen = out.is_number() ? out.get<int64_t>() : 0;
            if (j.contains("hash_ids")) {
                mooncake = true;
                if (!j["hash_ids"].is_array())
                    return skip(lineNo, "hash_ids is not a list"), true;
                for (const Json& h : j["hash_ids"]) {
                    if (!h.is_number_integer())
                        return skip(lineNo, "hash_ids holds something that is not a whole number"), true;
                    a.hashIds.push_back(h.get<int64_t>());
                }
            }
            any = true;
            raw.push_back(std::move(a));
            return true;
        });
        r.layout = mooncake ? "Mooncake" : "JSON Lines";
        if (!any && r.error.empty())
            r.error = "no line of the trace could be read" +
                      (r.firstProblem.empty() ? "" : " (" + r.firstProblem + ")");
    } else { // CSV with a header
        Columns c;
        bool header = true;
        eachLine(text, [&](const std::string& line, size_t lineNo) {
            if (line.find_first_not_of(" \t,") == std::string::npos)
                return true;
            const std::vector<std::string> cells = splitCsv(line);
            if (header) {
                header = false;
                std::vector<std::string> names;
                for (const std::string& cell : cells)
                    names.push_back(lower(trimmed(cell)));
                const bool burstGpt = std::find(names.begin(), names.end(), "request tokens") != names.end();
                c = columnsOf(cells, burstGpt);
                r.layout = std::find(names.begin(), names.end(), "contexttokens") != names.end()
                               ? "Azure LLM inference"
                           : burstGpt ? "BurstGPT"
                                      : "CSV";
                if (c.time < 0 || c.input < 0) {
                    r.error = "the first line is not a header naming an arrival time and an input length "
                              "(e.g. TIMESTAMP,ContextTokens,GeneratedTokens or "
                              "timestamp,input_length,output_length)";
                    return false;
                }
                return true;
            }
            if (raw.size() >= kMaxTraceRequests)
                return false;
            const auto cell = [&](int i) {
                return i >= 0 && size_t(i) < cells.size() ? cells[size_t(i)] : std::string();
            };
            std::optional<double> t = number(cell(c.time));
            if (!t) {
                t = dateTime(cell(c.time));
                c.dates = c.dates || t.has_value();
            }
            const auto in = number(cell(c.input));
            const auto out = c.output >= 0 ? number(cell(c.output)) : std::optional<double>(0);
            if (!t || !in || !out || !lengthOk(*in) || !lengthOk(*out))
                return skip(lineNo, "'" + line.substr(0, 80) + "' is not a time and two whole lengths"), true;
            raw.push_back(TraceArrival{*t * (c.dates ? 1.0 : c.timeScale), int64_t(*in), int64_t(*out), {}});
            return true;
        });
        if (r.error.empty() && raw.empty())
            r.error = "the trace has a header and no request" +
                      (r.firstProblem.empty() ? "" : " (" + r.firstProblem + ")");
    }
    if (!r.error.empty())
        return r;
    // Seconds from the first arrival, in order (a trace merged from several sources may not be).
    std::stable_sort(raw.begin(), raw.end(),
                     [](const TraceArrival& a, const TraceArrival& b) { return a.atS < b.atS; });
    const double t0 = raw.front().atS;
    for (TraceArrival& a : raw)
        a.atS -= t0;
    r.arrivals = std::move(raw);
    return r;
}

std::string tracePrompt(const TraceArrival& a, std::mt19937_64& rng) {
    std::string out;
    int64_t words = 0;
    for (int64_t id : a.hashIds) {
        if (words >= a.inputLen)
            break;
        std::mt19937_64 block(uint64_t(id) * 0x9E3779B97F4A7C15ull + 1); // the same id, the same words
        const int64_t n = std::min(kTraceBlockTokens, a.inputLen - words);
        out += (out.empty() ? "" : " ") + syntheticPrompt(n, block);
        words += n;
    }
    if (words < a.inputLen)
        out += (out.empty() ? "" : " ") + syntheticPrompt(a.inputLen - words, rng);
    return out;
}

} // namespace rsload
