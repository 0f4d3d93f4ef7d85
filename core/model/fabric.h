#pragma once
// The fabric above the servers as a source described it: switches and
// channel adapters with their ports, and the links between ports.
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace rackscope {

enum class FabricNodeKind { Switch, ChannelAdapter, Router, Host }; // Host: a server known by name only (topology.conf)

struct FabricNode {
    FabricNodeKind kind = FabricNodeKind::Switch;
    QString id;                  // ibnetdiscover's "S-<guid>" / "H-<guid>"
    QString guid;                // 0x-prefixed node GUID
    int ports = 0;
    QString description;         // node description, e.g. "a08-p1-dgx-04-c01 mlx5_5"
    QString host, device;        // a CA's host name and RDMA device, when its description splits that way
    std::optional<int> lid;
    std::optional<unsigned> vendorId, deviceId;
    int line = 0;                // where the source declared it
};

struct FabricLink {
    QString a, b;                // node ids
    int aPort = 0, bPort = 0;
    QString width;               // "4x"
    QString speed;               // "NDR"
    int line = 0;
};

struct FabricDiagnostic {
    int line = 0;
    QString text;                // the line as written (trimmed, at most 200 characters)
    QString message;
};

// A Slurm topology/block group (e.g. one NVLink domain).
struct FabricBlock {
    QString name;
    QString description;
    QStringList hosts;
    int line = 0;
};

struct Fabric {
    QString source;
    std::vector<FabricBlock> blocks;
    std::vector<int> blockSizes;
    std::vector<FabricNode> nodes;
    std::vector<FabricLink> links;            // each link once
    std::vector<FabricDiagnostic> diagnostics; // lines that could not be read, and inconsistencies

    const FabricNode* node(const QString& id) const;
};

} // namespace rackscope
