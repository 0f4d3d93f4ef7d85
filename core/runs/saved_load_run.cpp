#include "saved_load_run.h"

#include <QFileInfo>
#include <map>

namespace rackscope {
namespace {

constexpr char kMagic[] = "rackscope-load-results 1\n";
constexpr int kMaxFiles = 4096; // a sweep of many steps, three files each

// "step-02/requests.jsonl": a path inside the folder, never out of it.
bool isInsideFolder(const QString& rel) {
    return !rel.isEmpty() && !rel.startsWith(QLatin1Char('/')) && !rel.contains(QLatin1String("..")) &&
           !rel.contains(QLatin1Char(' ')) && !rel.contains(QLatin1Char('\n'));
}

QString runLabel(const QString& location, const LoadResults& run) {
    QString label = QFileInfo(location).fileName();
    if (run.sweepValue)
        label += QStringLiteral(" (%1 %2)").arg(QString::fromStdString(run.sweep)).arg(*run.sweepValue);
    return label;
}

} // namespace

QByteArray packLoadResults(const LoadResultsFiles& files) {
    QByteArray out(kMagic);
    for (const auto& [rel, bytes] : files)
        out += "file " + rel.toUtf8() + ' ' + QByteArray::number(bytes.size()) + '\n' + bytes + '\n';
    return out;
}

bool looksLikePackedLoadResults(const QByteArray& bytes) {
    return bytes.startsWith(kMagic);
}

std::optional<LoadResultsFiles> unpackLoadResults(const QByteArray& bytes, QString* error) {
    if (!looksLikePackedLoadResults(bytes)) {
        *error = QStringLiteral("not a packed load run (no \"rackscope-load-results 1\" line)");
        return std::nullopt;
    }
    LoadResultsFiles files;
    qsizetype at = qsizetype(qstrlen(kMagic));
    while (at < bytes.size()) {
        const qsizetype end = bytes.indexOf('\n', at);
        const QList<QByteArray> header = bytes.mid(at, end < 0 ? -1 : end - at).split(' ');
        bool sized = false;
        const qsizetype size = header.size() == 3 ? header[2].toLongLong(&sized) : 0;
        const QString rel = header.size() == 3 ? QString::fromUtf8(header[1]) : QString();
        if (end < 0 || header[0] != "file" || !sized || size < 0 || !isInsideFolder(rel) ||
            size > bytes.size() - end - 2 || bytes[end + 1 + size] != '\n' ||
            int(files.size()) >= kMaxFiles) {
            *error = QStringLiteral("packed load run damaged at byte %1").arg(at);
            return std::nullopt;
        }
        files[rel] = bytes.mid(end + 1, size);
        at = end + 2 + size;
    }
    return files;
}

std::optional<SavedLoadRun> savedLoadRun(const QByteArray& packed, const QString& location, QString* error) {
    const auto files = unpackLoadResults(packed, error);
    if (!files)
        return std::nullopt;
    auto steps = openLoadResults(*files, location, error);
    if (!steps)
        return std::nullopt;
    SavedLoadRun saved{location, std::move(*steps), {}};
    for (const LoadResults& step : saved.steps)
        for (Finding& f : loadRunFindings(runLabel(location, step), step))
            saved.findings.push_back(std::move(f));
    return saved;
}

std::vector<Finding> loadRunFindings(const QString& label, const LoadResults& run) {
    std::vector<Finding> out;
    std::map<std::pair<std::string, std::string>, int> why; // (kind, detail) -> requests
    int failed = 0, measured = 0;
    for (const rsload::RequestRecord& r : run.records) {
        if (r.warmup)
            continue;
        ++measured;
        if (r.ok())
            continue;
        ++failed;
        ++why[{rsload::failureName(r.failure), r.error.substr(0, 160)}];
    }
    if (failed > 0) {
        const auto commonest = std::max_element(
            why.begin(), why.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        const QString reason = QStringLiteral("%1: %2 (%3 requests)")
                                   .arg(QString::fromStdString(commonest->first.first),
                                        QString::fromStdString(commonest->first.second))
                                   .arg(commonest->second);
        const bool all = failed == measured;
        out.push_back(makeFinding(
            all ? Severity::Error : Severity::Warning,
            QLatin1String(all ? codes::kLoadRunFailed : codes::kLoadRequestsFailed), {label},
            all ? FindingText{QT_TRANSLATE_NOOP(
                                  "rackscope",
                                  "Inference load run %1: every one of its %2 requests failed; the "
                                  "commonest reason: %3."),
                              {label, QString::number(measured), reason}}
                : FindingText{QT_TRANSLATE_NOOP("rackscope",
                                                "Inference load run %1: %2 of its %3 requests failed; the "
                                                "commonest reason: %4."),
                              {label, QString::number(failed), QString::number(measured), reason}}));
    }
    if (!run.problems.isEmpty()) // what could be read is kept, and this says what could not
        out.push_back(
            makeFinding(Severity::Warning, QLatin1String(codes::kLoadRunCutShort), {label},
                        {QT_TRANSLATE_NOOP("rackscope", "Inference load run %1 was not read whole: %2."),
                         {label, run.problems.join(QStringLiteral("; "))}}));
    return out;
}

} // namespace rackscope
