#pragma once
// What NCCL_DEBUG=INFO says about the network a run used: the NICs NCCL
// found on each host ("NET/IB : Using [0]mlx5_0:1/IB ..."), the NIC and
// transport of every connection ("Channel 00/0 : 0[0] -> 8[0] [send] via
// NET/IB/0/GDRDMA"), GPUDirect RDMA decisions and their reasons, and
// fallbacks to TCP sockets. Laid over each host's topology, a rank that
// did not get GPUDirect where the hardware allows it is named.
#include "analysis/finding.h"
#include "import/nccl_log_line.h"
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

// One rank's connections, from its own log lines.
struct NcclRankNetwork {
    QString host;
    int rank = 0;
    std::optional<int> cudaDevice; // the [N] in NCCL's line prefix
    QString busId;            // its GPU's PCI address from its init line, "0019:06:00"; empty when unsaid
    QStringList nics;         // NIC names its NET connections used, in order seen
    QSet<QString> transports; // "IB", "Socket", a plugin's name ("IBext_v8")
    int netConnections = 0, gdrConnections = 0;
    // Its channels by transport as NCCL named it, the NIC's number left out: "P2P/CUMEM", "P2P/direct
    // pointer/read", "SHM/direct/direct", "NET/IB/GDRDMA", "NET/Socket".
    std::map<QString, int> channels;
};

struct NcclTransport {
    std::map<QString, std::vector<NcclNetDevice>> devices; // per host
    std::map<QString, QString> network;                    // per host: "IB", "Socket"...
    std::map<QString, QStringList> gdrNotes; // per host: NCCL's own GPUDirect decisions, as written
    std::vector<NcclRankNetwork> ranks;      // by host, then rank
    std::vector<GpuFabricState> mnnvl;       // per host and GPU, once: the MNNVL lines
    int channelLines = 0;
};

// NCCL_DEBUG=INFO lines of any generation: with or without the channel's "/N", peers by CUDA device
// ("0[0]") or by the old bus id ("14[e1000]"), a launcher's prefix before NCCL's own ("[1,0]<stdout>:"),
// several processes' lines interleaved. Lines that are not NCCL's are passed over.
NcclTransport readNcclTransport(const QStringList& infoLines);

// The ranks whose init lines said where their GPU is, as nccl-tests' rank lines say it: what
// ncclTransportFindings places on a topology.
std::vector<NcclTestsRank> ranksFromInitLines(const NcclTransport& transport);

// Findings: sockets instead of RDMA, ranks without GPUDirect RDMA and, where
// `topologies` has the rank's host (keyed by the host name the run printed)
// and `ranks` its GPU's PCI address, whether the topology allowed it (and if
// it did, the likely cause the host shows: no peer memory, ACS redirection),
// and whether NCCL chose the NIC rackscope predicts.
std::vector<Finding> ncclTransportFindings(const NcclTransport& transport,
                                           const std::vector<NcclTestsRank>& ranks,
                                           const std::map<QString, HostTopology>& topologies = {});

namespace codes {
inline constexpr char kNcclSocketFallback[] = "nccl-socket-fallback"; // error: TCP sockets between nodes
inline constexpr char kNcclNoGdr[] =
    "nccl-no-gdrdma"; // warning: no GPUDirect RDMA, the path allows none or is unknown
inline constexpr char kNcclGdrNotUsed[] =
    "nccl-gdr-not-used"; // warning: the path allows it, NCCL did not use it
inline constexpr char kNcclNicDiffers[] = "nccl-nic-differs"; // info: another NIC than rackscope predicts
} // namespace codes

} // namespace rackscope
