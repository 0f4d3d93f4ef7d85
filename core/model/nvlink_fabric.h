#pragma once
// Multi-node NVLink (GB200/GB300 NVL72, GH200 NVL32): each GPU's registration with the NVLink fabric as
// NVML, `nvidia-smi -q` or NCCL stated it, each GPU's NVLinks, and the IMEX daemons' view of their peers.
// A domain is a (ClusterUUID, CliqueId) pair: a CliqueId alone is reused from rack to rack.
#include "fabric.h"

#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

namespace rackscope {

// One GPU's fabric registration. An empty string or an unset optional: the source did not say.
struct GpuFabricState {
    QString host;  // empty where the source names none (a paste from one server)
    QString gpu;   // "GPU0" where the source numbers the GPUs
    QString busId; // "0008:06:00" where stated
    QString uuid, model;
    QString state;       // NVML's words: "Completed", "In Progress", "Not Started", "Not Supported", or "N/A"
    QString status;      // "Success", "Insufficient Resources", ...
    QString clusterUuid; // as written, lower case
    std::optional<quint64> cliqueId;
    QString health;               // the summary: "Healthy", "Unhealthy", "Limited Capacity"
    QStringList healthConditions; // what the health block or mask says is wrong: "bandwidth degraded", ...
    QStringList healthDetails;    // the health block's other lines as written: "Bandwidth: Full"
    std::optional<quint32> healthMask;
    QString source; // "file:line", "NVML on host", "NCCL log file:line"

    // Registered with a domain: a ClusterUUID that is not all zeros and a CliqueId other than 0.
    bool inDomain() const;
    QString device() const; // "GPU2", else the bus id, else the UUID; empty where the source names none
    QString label() const;  // "node4 GPU2", "a GPU of node4", or "the GPU of file:line"
};

struct NvlinkLinkState {
    QString host, gpu; // "GPU0"
    QString gpuUuid;
    int link = 0;
    std::optional<double> gbPerSecond; // per direction, as the source states it
    QString state;                     // "active", "inactive", "sleep"; empty: silent
    QString remote;                    // the far end's kind: "GPU", "NVSwitch", "CPU"; empty: silent
    std::map<QString, quint64> errors; // "replay", "recovery", "crc-flit", "crc-data": counts since boot
    QString source;
};

struct ImexNode {
    int index = 0;
    QString address; // as the daemon lists it
    QString status;  // "READY", ...
    QString version; // empty where the daemon's output has no Version column
};

// One IMEX daemon's answer to `nvidia-imex-ctl -N`, or why there is none.
struct ImexView {
    QString host;  // whose daemon; empty where the source does not say
    QString taken; // the time it printed
    std::vector<ImexNode> nodes;
    std::vector<QStringList> connectivity; // [from][to]: "C", "N", "I", "R", "D", "A", "!V!", "!M!"
    QString domainState;                   // "UP", "DOWN", ...
    std::optional<bool> channelDevice;     // /dev/nvidia-caps-imex-channels exists
    QString unavailable;                   // why the daemon's view is missing, as a sentence
    QString source;
};

struct NvlinkFabric {
    std::vector<GpuFabricState> gpus;
    std::vector<NvlinkLinkState> links;
    std::vector<ImexView> imex;
    QStringList sources;

    bool empty() const { return gpus.empty() && links.empty() && imex.empty(); }
    void append(NvlinkFabric other);
};

struct NvlinkDomain {
    QString clusterUuid;
    quint64 cliqueId = 0;
    QStringList hosts;             // natural order
    std::vector<std::size_t> gpus; // indexes into NvlinkFabric::gpus
    QString name() const;          // "dc6e40c4/2": the ClusterUUID's first group and the CliqueId
};

// The domains the GPUs registered with, by ClusterUUID then CliqueId.
std::vector<NvlinkDomain> nvlinkDomains(const NvlinkFabric& fabric);
// The domain each host's GPUs are in; a host whose GPUs are in several is in none (it is split).
std::map<QString, QString> hostDomains(const NvlinkFabric& fabric);

// A block per domain for Slurm's topology/block ("nvl1", ...), of the servers whose GPUs are all in it.
std::vector<FabricBlock> nvlinkDomainBlocks(const NvlinkFabric& fabric);

// NVML's nvmlGpuFabricState_t in its own words ("Completed" for 3); empty for a value NVML does not define.
QString fabricStateName(int state);
// The named conditions set in an NVML fabric health mask (nvmlGpuFabricInfo_v3 healthMask).
QStringList fabricHealthConditions(quint32 mask);
bool isZeroUuid(const QString& uuid);

} // namespace rackscope
