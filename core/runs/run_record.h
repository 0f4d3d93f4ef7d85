#pragma once
// Every run saved as it happens, in a results folder: one JSON object per
// line (the run's command, environment and hosts first, then each output
// line and parsed row as they arrive, counter samples, and the end), each
// line flushed, so a crash or a dropped connection loses nothing already
// received. Reopened, a record replays its output through the same parser.
#include "nccl_tests_output.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>

namespace rackscope {

constexpr char kRunRecordFormat[] = "rackscope-run 1";

struct RunMeta {
    QString kind = QStringLiteral("nccl-tests"); // what ran
    QString label;                               // "all_reduce on node[01-04]"
    QString command;                             // the exact command line shown before it ran
    QStringList argv, hosts;
    QString launchHost; // empty: this machine
    std::vector<std::pair<QString, QString>> environment;
    QDateTime started;
};

class RunRecorder {
public:
    // Creates DIR/<started>-<label>.rsrun (DIR is made if needed) and writes the meta line.
    QString open(const QString& directory, const RunMeta& meta); // the error, or empty
    void line(const QString& text);
    void row(const NcclTestsRow& row);
    void counters(const QString& host, const QString& when,
                  const QJsonObject& sample); // when: "before", "after"
    void finish(int exitStatus, const QString& error);
    QString path() const { return file_.fileName(); }
    bool isOpen() const { return file_.isOpen(); }

private:
    void write(QJsonObject entry);
    QFile file_;
    qint64 startedMs_ = 0;
};

struct RunRecord {
    QString path;
    RunMeta meta;
    QStringList output;                                                         // the raw lines, as received
    NcclTestsRun run;                                                           // `output` parsed again
    std::vector<std::pair<QString, QJsonObject>> countersBefore, countersAfter; // per host
    std::optional<int> exitStatus; // empty: the record ends before the run did
    QString error;
    QStringList problems; // lines of the record that could not be read
};

// A record cut anywhere still gives everything before the cut.
RunRecord loadRunRecord(const QString& path, QString* error);
// The same from bytes in hand (a session holds them); `path` says where they came from.
RunRecord parseRunRecord(const QByteArray& bytes, const QString& path, QString* error);
// Whether the first line is a record's header.
bool looksLikeRunRecord(const QByteArray& content);

// Records in `directory`, newest first.
QStringList listRunRecords(const QString& directory);

// The default results folder: $XDG_DATA_HOME/rackscope/runs.
QString defaultResultsDirectory();

// One line per size: size,count,type,redop,root, then time/algbw/busbw/wrong out-of-place and in-place.
QByteArray runRowsToCsv(const NcclTestsRun& run);

} // namespace rackscope
