#pragma once
// An inference load run's results folder as a workspace input: its files
// packed into one source (so a session holds them byte for byte), read back,
// and judged: a run whose every request failed says why, in its requests' own
// words; a run with failures counts them; a run cut short (no summary, a
// record half written) says what could not be read.
#include "analysis/finding.h"
#include "load_results.h"

namespace rackscope {

// One source of bytes for a results folder's files, and back.
QByteArray packLoadResults(const LoadResultsFiles& files);
bool looksLikePackedLoadResults(const QByteArray& bytes);
std::optional<LoadResultsFiles> unpackLoadResults(const QByteArray& bytes, QString* error);

struct SavedLoadRun {
    QString location;               // the folder as opened
    std::vector<LoadResults> steps; // the run, or a sweep's steps in order
    std::vector<Finding> findings;
};

// The folder's runs from its packed files, judged.
std::optional<SavedLoadRun> savedLoadRun(const QByteArray& packed, const QString& location, QString* error);

std::vector<Finding> loadRunFindings(const QString& label, const LoadResults& run);

namespace codes {
inline constexpr char kLoadRunFailed[] = "load-run-failed";
inline constexpr char kLoadRequestsFailed[] = "load-requests-failed";
inline constexpr char kLoadRunCutShort[] = "load-run-cut-short";
} // namespace codes

} // namespace rackscope
