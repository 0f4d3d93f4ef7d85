#pragma once
// Where the ranks that NCCL's RAS names as missing, dead, unresponsive or behind are running: each placed
// on a server shown (by the address RAS gives it: an interface's address in the server's agent snapshot,
// the SSH config's HostName, or its name), on its GPU, under its leaves and on its rails, with what to
// look at next. Only what the sources say: a rank on an address no server shown has stays unplaced, and
// the verdict says so.
#include "runs/nccl_ras.h"
#include "workspace/workspace.h"

#include <functional>

namespace rackscope {

struct RasRankPlace {
    NcclRasRank rank;     // as RAS gave it
    QString problem;      // DEAD, INCOMPLETE, MISMATCH, ERROR, PEER_DEAD, ...
    QString communicator; // empty for the job's
    QString state;        // "dead", "missing", "1 AllReduce behind the other 3", ...
    bool severe = false;  // gone or cut off, rather than behind
    QString server;       // the server shown it runs on; empty when none is known
    QString serverBy;     // how that was found: "eth0 has 10.0.0.3"
    QString gpu;          // "GPU4" in that server; empty when unknown
    QString gpuBy;        // "NVML index 4", "CUDA device 4 (PCI order assumed)"
    QStringList leaves;   // the leaves its server's ports reach
    QStringList rails;    // the rails those ports are on
};

// Ranks in one state on one server (or one unplaced address).
struct RasGroupVerdict {
    QString text;   // "ranks 56-63 on node17 (GPU0-GPU7): 1 AllReduce behind the other 248"
    QString server; // empty when unplaced
    QStringList gpus;
    bool severe = false;
    QStringList next; // what to look at next
};

struct RasVerdict {
    std::vector<RasRankPlace> ranks;
    std::vector<RasGroupVerdict> groups; // severe first
    QStringList unplaced;                // RAS addresses no server shown has
    bool healthy() const { return ranks.empty(); }
};

// The groups placed on a server, as marks the picture draws on its GPUs (or the server).
std::vector<JobMark> jobMarks(const RasVerdict& verdict);

// `sshAddress`: the address an SSH host is reached at (its HostName), or empty.
using SshAddressOf = std::function<QString(const QString& sshHost)>;
RasVerdict placeNcclRas(const NcclRasReport& report, const Workspace& ws,
                        const SshAddressOf& sshAddress = {});

} // namespace rackscope
