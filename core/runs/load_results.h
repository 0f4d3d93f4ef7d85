#pragma once
// A load run's results folder, written as the run goes: spec.json (what was
// asked, API keys left out), requests.jsonl (each request's record, flushed as
// it arrives, so a crash or a dropped agent loses nothing received),
// server_metrics.jsonl (each scrape of the server's /metrics, where asked),
// gpu_metrics.jsonl (each reading of the workers' GPUs, where asked), and
// summary.json at each step's end (vLLM's --save-result field names). A sweep
// keeps one such folder per step (step-01, step-02, ...) under its own.
#include "load_model/gpu_samples.h"
#include "load_model/load_summary.h"
#include "load_model/server_metrics.h"

#include <QFile>
#include <QString>
#include <QStringList>
#include <map>

namespace rackscope {

QString defaultLoadResultsDirectory();

// The headers as saved: a value that authenticates (Authorization, or a name with key, token,
// secret or auth in it) is replaced by "(redacted)".
std::vector<std::pair<std::string, std::string>>
redactedHeaders(const std::vector<std::pair<std::string, std::string>>& headers);

class LoadResultsWriter {
public:
    // Makes `directory` and writes spec.json; the error, or empty.
    QString open(const QString& directory, const rsload::LoadSpec& spec,
                 const rsload::Json& extra = rsload::Json::object());
    void record(const rsload::RequestRecord& r);
    void serverSample(const rsload::ServerSample& s);
    void gpuSample(const rsload::GpuSample& s);
    void summary(const rsload::Json& summary);
    QString directory() const { return directory_; }
    bool isOpen() const { return records_.isOpen(); }

private:
    QString directory_;
    QFile records_;
    void appendLine(QFile& file, const char* name, const rsload::Json& line);
    QFile serverMetrics_, gpuMetrics_; // each made at its first line
};

struct LoadResults {
    QString directory;
    rsload::Json spec;    // as saved
    rsload::Json summary; // null when the run ended before writing one
    std::vector<rsload::RequestRecord> records;
    std::vector<rsload::ServerSample> serverSamples; // the server's /metrics, where scraped
    std::vector<rsload::GpuSample> gpuSamples;       // the workers' GPUs, where sampled
    QStringList problems;                            // lines that could not be read, with their number
    std::optional<double> sweepValue;                // a sweep's step: the concurrency or rate it ran at
    std::string sweep;                               // "concurrency" or "rate" for a sweep's step
};

// A folder cut anywhere gives every whole record before the cut.
std::optional<LoadResults> readLoadResults(const QString& directory, QString* error);

// A results folder's files by their path inside it ("spec.json", "step-02/requests.jsonl"): what a session
// keeps of it, byte for byte.
using LoadResultsFiles = std::map<QString, QByteArray>;
std::optional<LoadResultsFiles> readLoadResultsFiles(const QString& directory, QString* error);

// The workers whose GPUs a saved run sampled (spec.json's "workers"), in order; empty when none.
std::vector<std::string> savedWorkers(const rsload::Json& spec);

// The summary again from the records: what a run cut short never wrote, and what a reader can check.
rsload::Json resummarize(const LoadResults& r, const std::vector<rsload::Slo>& slos,
                         const std::vector<double>& percentiles);

// A results folder to look at again: a run's folder gives that run, a sweep's folder its steps in
// order. A run cut short before its summary gets one computed from its records, said in problems.
std::optional<std::vector<LoadResults>> openLoadResults(const QString& directory, QString* error);
// The same from its files already in hand; `directory` names them.
std::optional<std::vector<LoadResults>> openLoadResults(const LoadResultsFiles& files,
                                                        const QString& directory, QString* error);

// The main figures of each run side by side, one row per run: for a table, or as text.
struct LoadComparison {
    QStringList header;
    std::vector<QStringList> rows;
};
LoadComparison loadComparison(const std::vector<LoadResults>& runs);
QString compareLoadResults(const std::vector<LoadResults>& runs);

// Every request as CSV.
QString loadRecordsCsv(const std::vector<rsload::RequestRecord>& records);

} // namespace rackscope
