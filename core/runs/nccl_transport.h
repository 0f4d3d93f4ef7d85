#pragma once
// What NCCL_DEBUG=INFO says about the network a run used: the NICs NCCL
// found on each host ("NET/IB : Using [0]mlx5_0:1/IB ..."), the NIC and
// transport of every connection ("Channel 00/0 : 0[0] -> 8[0] [send] via
// NET/IB/0/GDRDMA"), GPUDirect RDMA decisions and their reasons, and
// fallbacks to TCP sockets. Laid over each host's topology, a rank that
// did not get GPUDirect where the hardware allows it is named.
#include "analysis/finding.h"
#include "model/host_topology.h"
#include "nccl_tests_output.h"

#include <QSet>
#include <map>
#include <vector>

namespace rackscope {

struct NcclNetDevice {
    int index = 0;
    QString name; // "mlx5_0", or an interface "eth0" for NET/Socket
    QString link; // "IB", "RoCE", or the socket address
};

// One rank's network connections, from its own log lines.
struct NcclRankNetwork {
    QString host;
    int rank = 0;
    std::optional<int> cudaDevice; // the [N] in NCCL's line prefix
    QStringList nics;              // NIC names its NET connections used, in order seen
    QSet<QString> transports;      // "IB", "Socket", a plugin's name ("IBext_v8")
    int netConnections = 0, gdrConnections = 0;
};

struct NcclTransport {
    std::map<QString, std::vector<NcclNetDevice>> devices; // per host
    std::map<QString, QString> network;                    // per host: "IB", "Socket"...
    std::map<QString, QStringList> gdrNotes; // per host: NCCL's own GPUDirect decisions, as written
    std::vector<NcclRankNetwork> ranks;      // by host, then rank
    int channelLines = 0;
};

NcclTransport readNcclTransport(const QStringList& infoLines);

// Findings: sockets instead of RDMA, ranks without GPUDirect RDMA and, where
// `topologies` has the rank's host (keyed by the host name the run printed)
// and `ranks` its GPU's PCI address, whether the topology allowed it.
std::vector<Finding> ncclTransportFindings(const NcclTransport& transport,
                                           const std::vector<NcclTestsRank>& ranks,
                                           const std::map<QString, HostTopology>& topologies = {});

namespace codes {
inline constexpr char kNcclSocketFallback[] = "nccl-net-socket";
inline constexpr char kNcclNoGdr[] = "nccl-no-gdrdma";
inline constexpr char kNcclGdrExpected[] = "nccl-gdrdma-expected";
inline constexpr char kNcclNicNotNearest[] = "nccl-nic-not-nearest";
} // namespace codes

} // namespace rackscope
