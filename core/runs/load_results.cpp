#include "load_results.h"

#include "import/input_file.h"
#include "protocol/json_nesting.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTextStream>
#include <algorithm>

namespace rackscope {
namespace {

bool writeWhole(const QString& path, const rsload::Json& j) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const std::string text = j.dump(2) + "\n";
    return f.write(text.data(), qint64(text.size())) == qint64(text.size());
}

// A JSON object from a results folder's file; `path` names it in the error.
std::optional<rsload::Json> parseJsonObject(const QByteArray& bytes, const QString& path, QString* error) {
    if (!rsagent::protocol::jsonNestingWithin(std::string_view(bytes.constData(), size_t(bytes.size())))) {
        *error = QStringLiteral("%1 is nested deeper than %2 levels")
                     .arg(path)
                     .arg(rsagent::protocol::kMaxJsonDepth);
        return std::nullopt;
    }
    rsload::Json j = rsload::Json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        *error = QStringLiteral("%1 is not a JSON object").arg(path);
        return std::nullopt;
    }
    return j;
}

constexpr qint64 kMaxResultsFileBytes = 256 << 20;

// One run's files (spec.json, requests.jsonl, summary.json where written) under `prefix` in `files`.
bool readRunFiles(const QString& directory, const QString& prefix, LoadResultsFiles& files, QString* error) {
    for (const char* name :
         {"spec.json", "summary.json", "requests.jsonl", "server_metrics.jsonl", "gpu_metrics.jsonl"}) {
        const QString rel = prefix + QLatin1String(name);
        const QString path = directory + QLatin1Char('/') + rel;
        if (!QFileInfo::exists(path))
            continue; // a run cut short wrote no summary; parseRun says what else is missing
        if (!QFileInfo(path).isFile()) { // a FIFO would block
            *error = QStringLiteral("%1 is not a regular file").arg(path);
            return false;
        }
        QByteArray bytes;
        if (const QString why = readBoundedFile(path, kMaxResultsFileBytes, &bytes); !why.isEmpty()) {
            *error = QStringLiteral("cannot read %1: %2").arg(path, why);
            return false;
        }
        files[rel] = std::move(bytes);
    }
    return true;
}

// Each line of a JSONL file the run appended to, given to `take`; what cannot be read goes to `problems`,
// named by `what` and its line number. A last line with no end was being written when the run stopped.
template <class Take>
void readJsonLines(const QByteArray& bytes, const QString& what, QStringList& problems, Take take) {
    const QList<QByteArray> lines = bytes.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray& line = lines[i];
        const int lineNo = i + 1;
        if (line.trimmed().isEmpty())
            continue;
        if (i == lines.size() - 1) {
            problems << QStringLiteral("%1line %2 is cut short (the run ended while writing it)")
                            .arg(what)
                            .arg(lineNo);
            break;
        }
        const bool shallow =
            rsagent::protocol::jsonNestingWithin(std::string_view(line.constData(), size_t(line.size())));
        const rsload::Json j = shallow ? rsload::Json::parse(line.begin(), line.end(), nullptr, false)
                                       : rsload::Json(rsload::Json::value_t::discarded);
        std::string why = shallow ? "not JSON" : "nested too deeply";
        if (j.is_discarded() || !take(j, &why))
            problems
                << QStringLiteral("%1line %2: %3").arg(what).arg(lineNo).arg(QString::fromStdString(why));
    }
}

// One run from its files under `prefix`.
std::optional<LoadResults> parseRun(const LoadResultsFiles& files, const QString& directory,
                                    const QString& prefix, QString* error) {
    LoadResults r;
    r.directory = prefix.isEmpty() ? directory : directory + QLatin1Char('/') + prefix.chopped(1);
    auto file = [&](const char* name) {
        const auto it = files.find(prefix + QLatin1String(name));
        return it == files.end() ? std::optional<QByteArray>() : std::optional<QByteArray>(it->second);
    };
    auto path = [&](const char* name) { return r.directory + QLatin1Char('/') + QLatin1String(name); };
    const auto specBytes = file("spec.json");
    if (!specBytes) {
        *error = QStringLiteral("cannot read %1: it is not there").arg(path("spec.json"));
        return std::nullopt;
    }
    auto spec = parseJsonObject(*specBytes, path("spec.json"), error);
    if (!spec)
        return std::nullopt;
    r.spec = *spec;
    const auto requests = file("requests.jsonl");
    if (!requests) {
        *error = QStringLiteral("cannot read %1: it is not there").arg(path("requests.jsonl"));
        return std::nullopt;
    }
    if (const auto summaryBytes = file("summary.json")) {
        QString why;
        if (auto s = parseJsonObject(*summaryBytes, path("summary.json"), &why))
            r.summary = *s;
        else
            r.problems << why;
    }
    readJsonLines(*requests, QString(), r.problems, [&](const rsload::Json& j, std::string* why) {
        std::optional<rsload::RequestRecord> rec = rsload::recordFromJson(j, why);
        if (rec)
            r.records.push_back(std::move(*rec));
        return rec.has_value();
    });
    if (const auto metrics = file("server_metrics.jsonl"))
        readJsonLines(*metrics, QStringLiteral("server_metrics.jsonl "), r.problems,
                      [&](const rsload::Json& j, std::string* why) {
                          std::optional<rsload::ServerSample> sample = rsload::serverSampleFromJson(j, why);
                          if (sample)
                              r.serverSamples.push_back(std::move(*sample));
                          return sample.has_value();
                      });
    if (const auto gpus = file("gpu_metrics.jsonl"))
        readJsonLines(*gpus, QStringLiteral("gpu_metrics.jsonl "), r.problems,
                      [&](const rsload::Json& j, std::string* why) {
                          std::optional<rsload::GpuSample> sample = rsload::gpuSampleFromJson(j, why);
                          if (sample)
                              r.gpuSamples.push_back(std::move(*sample));
                          return sample.has_value();
                      });
    return r;
}

// The runs in `files`: the folder's own, or a sweep's step-NN folders in order.
QStringList runPrefixes(const LoadResultsFiles& files) {
    if (files.count(QStringLiteral("spec.json")))
        return {QString()};
    QStringList prefixes;
    for (const auto& [rel, bytes] : files)
        if (rel.startsWith(QLatin1String("step-")) && rel.endsWith(QLatin1String("/spec.json")))
            prefixes << rel.chopped(int(qstrlen("spec.json")));
    std::sort(prefixes.begin(), prefixes.end());
    return prefixes;
}

QString figure(const rsload::Json& summary, const char* key, int decimals = 2) {
    auto it = summary.find(key);
    if (it == summary.end() || !it->is_number())
        return QStringLiteral("-");
    return QString::number(it->get<double>(), 'f', decimals);
}

QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    return QLatin1Char('"') + QString(s).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

template <class T> QString opt(const std::optional<T>& v) {
    return v ? QString::number(*v) : QString();
}

} // namespace

QString defaultLoadResultsDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/rackscope/load");
}

std::vector<std::pair<std::string, std::string>>
redactedHeaders(const std::vector<std::pair<std::string, std::string>>& headers) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, value] : headers) {
        const QString n = QString::fromStdString(name).toLower();
        // Whatever carries a credential: keys, tokens, sessions, cookies, passwords, signatures.
        static const char* const kCredentialWords[] = {"auth",       "key",      "token",    "secret",
                                                       "cookie",     "session",  "password", "passwd",
                                                       "credential", "signature"};
        const bool secret = std::any_of(std::begin(kCredentialWords), std::end(kCredentialWords),
                                        [&](const char* w) { return n.contains(QLatin1String(w)); });
        out.emplace_back(name, secret ? std::string("(redacted)") : value);
    }
    return out;
}

QString LoadResultsWriter::open(const QString& directory, const rsload::LoadSpec& spec,
                                const rsload::Json& extra) {
    directory_ = directory;
    if (!QDir().mkpath(directory))
        return QStringLiteral("cannot make %1").arg(directory);
    rsload::LoadSpec saved = spec;
    saved.headers = redactedHeaders(spec.headers);
    rsload::Json j = rsload::toJson(saved);
    j.erase("prompts"); // a dataset's text is the user's file, not the result's; its count is kept
    j["prompt_count"] = spec.prompts.size();
    j.erase("trace"); // the trace is the user's file too; its length is kept
    j["trace_count"] = spec.trace.size();
    for (const auto& [key, value] : extra.items())
        j[key] = value;
    if (!writeWhole(directory + QStringLiteral("/spec.json"), j))
        return QStringLiteral("cannot write %1/spec.json").arg(directory);
    records_.setFileName(directory + QStringLiteral("/requests.jsonl"));
    if (!records_.open(QIODevice::WriteOnly | QIODevice::Append))
        return QStringLiteral("cannot write %1: %2").arg(records_.fileName(), records_.errorString());
    return {};
}

void LoadResultsWriter::record(const rsload::RequestRecord& r) {
    if (!records_.isOpen())
        return;
    const std::string line = rsload::toJson(r).dump() + "\n";
    records_.write(line.data(), qint64(line.size()));
    records_.flush();
}

void LoadResultsWriter::appendLine(QFile& file, const char* name, const rsload::Json& line) {
    if (!records_.isOpen())
        return;
    if (!file.isOpen()) {
        file.setFileName(directory_ + QLatin1Char('/') + QLatin1String(name));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
            return;
    }
    const std::string text = line.dump() + "\n";
    file.write(text.data(), qint64(text.size()));
    file.flush();
}

void LoadResultsWriter::serverSample(const rsload::ServerSample& s) {
    appendLine(serverMetrics_, "server_metrics.jsonl", rsload::toJson(s));
}

void LoadResultsWriter::gpuSample(const rsload::GpuSample& s) {
    appendLine(gpuMetrics_, "gpu_metrics.jsonl", rsload::toJson(s));
}

void LoadResultsWriter::summary(const rsload::Json& summary) {
    records_.close();
    serverMetrics_.close();
    gpuMetrics_.close();
    writeWhole(directory_ + QStringLiteral("/summary.json"), summary);
}

std::optional<LoadResults> readLoadResults(const QString& directory, QString* error) {
    LoadResultsFiles files;
    if (!readRunFiles(directory, QString(), files, error))
        return std::nullopt;
    return parseRun(files, directory, QString(), error);
}

std::optional<LoadResultsFiles> readLoadResultsFiles(const QString& directory, QString* error) {
    QStringList prefixes{QString()};
    if (!QFile::exists(directory + QStringLiteral("/spec.json"))) { // a sweep: its steps
        prefixes = QDir(directory).entryList({QStringLiteral("step-*")}, QDir::Dirs, QDir::Name);
        for (QString& p : prefixes)
            p += QLatin1Char('/');
        if (prefixes.isEmpty()) {
            *error =
                QStringLiteral("cannot read %1: it holds no load run (neither spec.json nor step-NN folders)")
                    .arg(directory);
            return std::nullopt;
        }
    }
    LoadResultsFiles files;
    for (const QString& prefix : prefixes)
        if (!readRunFiles(directory, prefix, files, error))
            return std::nullopt;
    return files;
}

std::vector<std::string> savedWorkers(const rsload::Json& spec) {
    std::vector<std::string> out;
    if (spec.is_object() && spec.contains("workers") && spec["workers"].is_array())
        for (const rsload::Json& w : spec["workers"])
            if (w.is_string())
                out.push_back(w.get<std::string>());
    return out;
}

rsload::Json resummarize(const LoadResults& r, const std::vector<rsload::Slo>& slos,
                         const std::vector<double>& percentiles) {
    std::string why;
    rsload::Json spec = r.spec;
    spec.erase("prompt_count");
    rsload::LoadSpec s = rsload::loadSpecFromJson(spec, &why).value_or(rsload::LoadSpec{});
    rsload::Json out = rsload::summaryJson(rsload::summarize(r.records, slos, percentiles), s, slos,
                                           r.summary.is_object() ? r.summary.value("date", "") : "");
    if (!s.metricsUrl.empty())
        out["server_metrics"] = rsload::toJson(rsload::summarizeServerMetrics(r.serverSamples, s.metricsUrl));
    if (const std::vector<std::string> workers = savedWorkers(r.spec); !workers.empty())
        out["gpus"] = rsload::toJson(rsload::summarizeGpuUse(r.gpuSamples, workers));
    return out;
}

std::optional<std::vector<LoadResults>> openLoadResults(const LoadResultsFiles& files,
                                                        const QString& directory, QString* error) {
    const QStringList prefixes = runPrefixes(files);
    if (prefixes.isEmpty()) {
        *error =
            QStringLiteral("%1 holds no load run (neither spec.json nor step-NN folders)").arg(directory);
        return std::nullopt;
    }
    std::vector<LoadResults> out;
    for (const QString& prefix : prefixes) {
        std::optional<LoadResults> r = parseRun(files, directory, prefix, error);
        if (!r)
            return std::nullopt;
        if (r->summary.is_null()) {
            r->summary = resummarize(*r, {}, {50, 90, 95, 99});
            r->problems << QStringLiteral("no summary (the run ended early): computed from its %1 records")
                               .arg(r->records.size());
        }
        if (const auto s = r->spec.find("sweep"); s != r->spec.end() && s->is_string()) {
            r->sweep = s->get<std::string>();
            const char* key = r->sweep == "rate" ? "rate" : "concurrency";
            if (r->spec.value(key, rsload::Json()).is_number())
                r->sweepValue = r->spec[key].get<double>();
        }
        out.push_back(std::move(*r));
    }
    return out;
}

std::optional<std::vector<LoadResults>> openLoadResults(const QString& directory, QString* error) {
    const auto files = readLoadResultsFiles(directory, error);
    return files ? openLoadResults(*files, directory, error) : std::nullopt;
}

LoadComparison loadComparison(const std::vector<LoadResults>& runs) {
    LoadComparison c;
    c.header = {QStringLiteral("run"),      QStringLiteral("model"),     QStringLiteral("conc"),
                QStringLiteral("rate"),     QStringLiteral("ok"),        QStringLiteral("failed"),
                QStringLiteral("req/s"),    QStringLiteral("out tok/s"), QStringLiteral("TTFT p50"),
                QStringLiteral("TTFT p99"), QStringLiteral("TPOT p50"),  QStringLiteral("TPOT p99"),
                QStringLiteral("ITL p99"),  QStringLiteral("late")};
    for (const LoadResults& r : runs) {
        const rsload::Json& s = r.summary;
        const QDir dir(r.directory);
        const bool step = dir.dirName().startsWith(QLatin1String("step-"));
        c.rows.push_back({step ? QDir(dir.absolutePath() + QStringLiteral("/..")).dirName() +
                                     QLatin1Char('/') + dir.dirName()
                               : dir.dirName(),
                          QString::fromStdString(s.value("model_id", "")),
                          s.value("max_concurrency", rsload::Json()).is_number()
                              ? QString::number(s["max_concurrency"].get<int>())
                              : QStringLiteral("-"),
                          s.value("request_rate", rsload::Json()).is_number() ? figure(s, "request_rate", 1)
                                                                              : QStringLiteral("inf"),
                          figure(s, "completed", 0), figure(s, "failed", 0), figure(s, "request_throughput"),
                          figure(s, "output_throughput", 1), figure(s, "median_ttft_ms"),
                          figure(s, "p99_ttft_ms"), figure(s, "median_tpot_ms"), figure(s, "p99_tpot_ms"),
                          figure(s, "p99_itl_ms"), figure(s, "late_requests", 0)});
    }
    return c;
}

QString compareLoadResults(const std::vector<LoadResults>& runs) {
    const LoadComparison c = loadComparison(runs);
    const int widths[] = {28, 18, 5, 6, 6, 6, 8, 10, 9, 9, 9, 9, 8, 5};
    QString out;
    QTextStream t(&out);
    auto line = [&](const QStringList& row) {
        for (int i = 0; i < row.size(); ++i)
            t << row[i].leftJustified(widths[i]) << ' ';
        t << '\n';
    };
    line(c.header);
    for (const QStringList& row : c.rows)
        line(row);
    return out;
}

QString loadRecordsCsv(const std::vector<rsload::RequestRecord>& records) {
    QString out = QStringLiteral("index,client,warmup,scheduled_s,sent_s,queue_ms,client_delay_ms,status,"
                                 "error,http_status,ttft_ms,tpot_ms,e2el_ms,"
                                 "chunks,input_tokens,input_tokens_source,output_tokens,output_tokens_source,"
                                 "max_tokens,connect_ms,finish_reason\n");
    for (const rsload::RequestRecord& r : records) {
        const QStringList f = {QString::number(r.index),
                               QString::fromStdString(r.client),
                               r.warmup ? QStringLiteral("1") : QStringLiteral("0"),
                               QString::number(r.scheduledS, 'f', 6),
                               QString::number(r.sentS, 'f', 6),
                               QString::number(r.queueMs, 'f', 3),
                               QString::number(r.clientDelayMs, 'f', 3),
                               QString::fromLatin1(rsload::failureName(r.failure)),
                               QString::fromStdString(r.error),
                               opt(r.httpStatus),
                               opt(r.ttftMs),
                               opt(r.tpotMs()),
                               opt(r.e2elMs),
                               QString::number(r.chunks),
                               opt(r.inputTokens),
                               QString::fromStdString(r.inputTokens ? r.inputTokensSource : std::string()),
                               opt(r.outputTokens),
                               QString::fromStdString(r.outputTokens ? r.outputTokensSource : std::string()),
                               QString::number(r.maxTokens),
                               opt(r.connectMs),
                               QString::fromStdString(r.finishReason.value_or(""))};
        QStringList quoted;
        for (const QString& s : f)
            quoted << csvField(s);
        out += quoted.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace rackscope
