#pragma once
// The output of NVIDIA's nccl-tests (all_reduce_perf and the rest) in every
// layout the fixtures hold: the header line, "Using devices" ranks (with or
// without Group), the result table with or without a root column, `#wrong`
// or the pre-2.13 `error` column, N/A cells, NCCL INFO lines interleaved,
// and the `Out of bounds` / `Avg bus bandwidth` footer. Read line by line
// as a run streams, or whole. Lines that are none of these are reported
// with their number, never dropped.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace rackscope {

struct NcclTestsRank {
    int rank = 0;
    std::optional<int> group;
    qint64 pid = 0;
    QString host;
    int device = 0;
    QString pci; // "0000:04:00", or the old "[0x0f]" bus number as written ("0x0f")
    QString gpu; // "NVIDIA H100 80GB HBM3"
};

struct NcclTestsPass {
    double timeUs = 0, algbw = 0, busbw = 0; // GB/s as nccl-tests prints them
    std::optional<qint64> wrong;    // #wrong; empty when N/A or when the output has the old error column
    std::optional<double> maxError; // the pre-2.13 error column
};

struct NcclTestsRow {
    qint64 size = 0, count = 0;
    QString type, redop; // redop empty where the operation has none (alltoall, sendrecv in old outputs)
    std::optional<int> root;
    NcclTestsPass outOfPlace, inPlace;
    int line = 0;
};

struct NcclTestsRun {
    std::map<QString, QString>
        header;          // "nThread" -> "1", "minBytes" -> "8", "step" -> "2(factor)", "agg iters" -> "1"...
    QString ncclVersion; // "2.27.5+cuda12.8" from an "NCCL version" line
    std::vector<NcclTestsRank> ranks;
    bool errorColumn = false; // pre-2.13 layout
    bool rootColumn = false;
    std::vector<NcclTestsRow> rows;
    std::optional<qint64> outOfBounds;
    std::optional<double> avgBusbw;
    QStringList ncclInfo; // NCCL INFO/WARN lines as printed, for the transport analysis
    struct Diagnostic {
        int line;
        QString text, message;
    };
    std::vector<Diagnostic> diagnostics;
    qint64 wrongTotal() const;
};

class NcclTestsParser {
public:
    std::function<void(const NcclTestsRow&)> onRow; // called as each row arrives
    void feed(const QByteArray& bytes);             // any split: partial lines wait for the rest
    void finish();                                  // the last line, if it had no newline
    const NcclTestsRun& run() const { return run_; }
    NcclTestsRun take() { return std::move(run_); } // the run, without a copy of its rows

private:
    void lines(const char* data, qsizetype size, qsizetype* consumed);
    void line(const QString& text);
    NcclTestsRun run_;
    QByteArray pending_;
    int lineNo_ = 0;
    bool columnsSeen_ = false;
    QString tableSource_; // the launcher prefix of the first result row
};

NcclTestsRun parseNcclTestsOutput(const QByteArray& text);

} // namespace rackscope
