#pragma once
// Asks NCCL's RAS service (NCCL 2.24 and later: every process of a job serves localhost:28028) for the
// job's state the way NCCL's own client, ncclras, does: the client handshake, the time NCCL may spend
// gathering the answer from the job's other processes, JSON where the version speaks it (2.28 and later)
// and text where it does not, then STATUS or VERBOSE STATUS read to the end of the connection. The stream
// comes from the caller: a port forwarded through SSH, or a socket on this machine.
#include "runs/nccl_ras.h"
#include "transport/byte_stream.h"

namespace rackscope {

inline constexpr quint16 kNcclRasPort = 28028;
inline constexpr qsizetype kMaxRasOutput = 64 << 20;

struct NcclRasQuery {
    bool verbose = false;  // VERBOSE STATUS: every rank, not only the outliers
    bool json = true;      // asked for where NCCL speaks it; text otherwise
    int timeoutMs = 30000; // the whole query, the connection included
};

struct NcclRasAnswer {
    QString error;          // no report, and why; empty when there is one
    QByteArray output;      // what NCCL sent, as it sent it
    int serverProtocol = 0; // RAS client protocol of the NCCL that answered (0: unknown)
    QStringList notes;      // what the answer's reader should know (text in place of JSON, and why)
    std::optional<NcclRasReport> report;
};

// `where` names the service in messages ("node3:28028").
NcclRasAnswer queryNcclRas(const StreamOpener& open, const QString& where, const NcclRasQuery& query);

} // namespace rackscope
