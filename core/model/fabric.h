#pragma once
// The fabric above the servers as a source described it: switches and
// channel adapters with their ports, and the links between ports.
#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace rackscope {

enum class FabricNodeKind {
    Switch,
    ChannelAdapter,
    Router,
    Host
}; // Host: a server known by name only (topology.conf)

struct FabricNode {
    FabricNodeKind kind = FabricNodeKind::Switch;
    QString id;   // ibnetdiscover's "S-<guid>" / "H-<guid>"
    QString guid; // 0x-prefixed node GUID
    int ports = 0;
    QString description;  // node description, e.g. "a08-p1-dgx-04-c01 mlx5_5"
    QString host, device; // a CA's host name and RDMA device, when its description splits that way
    std::optional<int> lid;
    std::optional<unsigned> vendorId, deviceId;
    std::optional<int> tier; // 1 leaf, 2 spine, 3 core: only when the source states it
    QStringList downPorts;   // "1 (DOWN)": ports a source saw that are not active
    int line = 0;            // where the source declared it
};

struct FabricLink {
    QString a, b;         // node ids
    QString aPort, bPort; // "17" on InfiniBand, "swp17s0" from LLDP; empty when the source names no port
    QString width;        // "4x"
    QString speed;        // "NDR", or "100G" for Ethernet
    QString state;        // "up"/"down" where the source says; empty when it does not
    std::optional<int> aMtu, bMtu; // largest payload each end takes, where the source says (IB MTU, IP MTU)
    QString expectedWidth, expectedSpeed; // from a design (rackscope fabric file) merged in
    int line = 0;
};

inline FabricLink linkBetween(const QString& a, const QString& aPort, const QString& b, const QString& bPort,
                              int line = 0) {
    FabricLink l;
    l.a = a;
    l.aPort = aPort;
    l.b = b;
    l.bPort = bPort;
    l.line = line;
    return l;
}

struct FabricDiagnostic {
    int line = 0;
    QString text; // the line as written (trimmed, at most 200 characters)
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
    QString source;                       // where it came from; sources joined by ", " after a merge
    bool design = false;                  // a rack design written by hand, not discovered
    QString expectedWidth, expectedSpeed; // a design's default for every link (rackscope fabric file)
    QStringList conflicts;                // where merged sources disagree
    std::vector<FabricBlock> blocks;
    std::vector<int> blockSizes;
    std::vector<FabricNode> nodes;
    std::vector<FabricLink> links;             // each link once
    std::vector<FabricDiagnostic> diagnostics; // lines that could not be read, and inconsistencies

    const FabricNode* node(const QString& id) const; // a linear search: FabricNodeIndex for loops over links
};

// The nodes of a fabric by id, for loops over many links (a 250,000-switch fabric). Valid while the
// fabric's nodes are not changed.
class FabricNodeIndex {
public:
    explicit FabricNodeIndex(const Fabric& fabric);
    const FabricNode* operator()(const QString& id) const { return byId_.value(id, nullptr); }

private:
    QHash<QString, const FabricNode*> byId_;
};

// A switch's own name where its description carries one, as Mellanox/NVIDIA
// switches write it ("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1" -> "A09-P1-IBLEAF-04-04"),
// else the description, else the id.
QString switchName(const FabricNode& node);
QString tierName(int tier); // "leaf", "spine", "core", "tier-4"... (tier 1 is the leaves)

} // namespace rackscope
