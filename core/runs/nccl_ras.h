#pragma once
// What NCCL's RAS service said of a running job (`ncclras`, NCCL 2.24 and later), read from its output as
// saved or pasted: the text of 2.26/2.27 (the communicator groups' table, then the Errors and Warnings: DEAD
// and INCOMPLETE job processes, a communicator's MISMATCH of collective counts or status, TIMEOUT), the JSON
// of 2.28 and 2.29 (each communicator's ranks with their status and collective counts, its missing ranks),
// the JSON that 2.28.9 writes without a comma after "nvml_dev" (read with the commas put back, and said so),
// and the monitor's PEER_DEAD events. Only what the output says: a rank it does not list is not known to be
// well.
#include "analysis/finding.h"

#include <QByteArray>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

namespace rackscope {

struct NcclRasRank {
    std::optional<int> rank; // unknown where the output names only the process
    QString host;
    std::optional<qint64> pid;
    std::optional<int> gpu; // the CUDA device index, as NCCL counts them in the process
    QString status;         // "RUNNING", "UNKNOWN", "unresponsive", "dead", ...; empty where unsaid
    std::map<QString, qint64> collectiveCounts; // JSON: per operation ("AllReduce": 101)
    std::optional<int> nvmlGpu; // the NVML index (nvidia-smi's, PCI order), where the JSON gives it
};

// One error or warning as the output gives it.
struct NcclRasProblem {
    QString kind;                   // DEAD, INCOMPLETE, MISMATCH, TIMEOUT, NOCOMM, PEER_DEAD, ...
    QString communicator;           // "#0-0 (fa93daea854b060b)", "0xae94423cfbb2ef4a"; empty for the job's
    QStringList lines;              // its explanation, as written (JSON: made in the same words)
    std::vector<NcclRasRank> ranks; // the ranks and processes it names
    bool warning = false;
    QString lag; // a MISMATCH of counts between two groups: the named ranks' "1 AllReduce behind the other 3"
};

struct NcclRasReport {
    QString ncclVersion;
    QString format;   // "text", "json", "monitor"
    QString repaired; // why the JSON had to be mended to be read; empty when it was valid
    struct Group {
        int group = 0, comms = 0, ranksPerComm = 0;
        QString status, errors;
    };
    std::vector<Group> groups; // text: the table of communicator groups
    std::vector<NcclRasProblem> problems;
};

// True for text that is ncclras output of any kind (chosen by content, like the other readers).
bool looksLikeNcclRas(const QByteArray& content);
// nullopt with *error when it is not.
std::optional<NcclRasReport> readNcclRas(const QByteArray& content, QString* error);

// Per problem a finding: dead, unresponsive and missing ranks (error), collective counts or status that
// differ (warning, naming the outlier ranks and where they run), timeouts gathering the data (info).
std::vector<Finding> ncclRasFindings(const NcclRasReport& report);

namespace codes {
inline constexpr char kRasRankMissing[] = "nccl-ras-rank-missing";
inline constexpr char kRasMismatch[] = "nccl-ras-mismatch";
inline constexpr char kRasTimeout[] = "nccl-ras-timeout";
} // namespace codes

} // namespace rackscope
