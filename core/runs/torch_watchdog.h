#pragma once
// What PyTorch's NCCL watchdog wrote when a collective timed out or failed
// (ProcessGroupNCCL: "[Rank 3] Watchdog caught collective operation timeout:
// WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, ...) ran for 600060 milliseconds",
// "... raised the following async exception: NCCL error: remote process
// exited ...", "Exception ... detected by watchdog at work: 808, last enqueued
// NCCL work: 811, last completed NCCL work: 807"), in every wording from
// PyTorch 1.x to 2.7, behind any launcher prefix; and the peer NCCL names
// when a connection drops ("socketProgress: Connection closed by remote peer
// HOST<port>"). Only what the lines say: a rank that wrote nothing is not
// known to have timed out or not.
#include "analysis/finding.h"

#include <QStringList>
#include <map>
#include <optional>
#include <vector>

namespace rackscope {

struct TorchWorkFailure {
    enum class Kind { Timeout, AsyncError } kind = Kind::Timeout;
    int rank = 0;
    QString processGroup;         // "0(default_pg)", "1"; empty where the line does not say
    std::optional<qint64> seqNum; // the collective's sequence number in its process group
    QString opType;               // "ALLREDUCE", "_REDUCE_SCATTER_BASE"
    std::optional<qint64> numelIn, numelOut, timeoutMs, ranForMs;
    QString error;            // an async exception's NCCL error, as written
    bool remoteError = false; // ncclRemoteError: a peer exited or the network failed
};

struct TorchWatchdogProgress { // "detected by watchdog at work: S, last enqueued ...: E, last completed ...:
                               // C"
    int rank = 0;
    QString processGroup;
    qint64 atWork = 0, lastEnqueued = 0, lastCompleted = 0;
};

struct TorchWatchdog {
    std::vector<TorchWorkFailure> failures;      // one per rank and collective, in the order read
    std::vector<TorchWatchdogProgress> progress; // one per rank and process group
    QStringList remotePeers;                     // hosts NCCL said closed the connection, as written, once
    int lines = 0;                               // the watchdog's lines read
};

TorchWatchdog readTorchWatchdog(const QStringList& lines);

// The verdict: the collective that timed out and its ranks (ranges), a failure from a remote peer with the
// peer NCCL names, and a rank whose last completed collective is behind the others'.
std::vector<Finding> torchWatchdogFindings(const TorchWatchdog& w);

// "0-7", "1,3,5-6"
QString rankRanges(std::vector<int> ranks);

namespace codes {
inline constexpr char kTorchCollectiveTimeout[] = "torch-collective-timeout";
inline constexpr char kTorchRemoteError[] = "torch-nccl-remote-error";
inline constexpr char kTorchRankBehind[] = "torch-rank-behind";
} // namespace codes

} // namespace rackscope
