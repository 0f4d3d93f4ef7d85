#pragma once
// The checks people do by hand on a fabric: rails, oversubscription per
// leaf, links below their expected or their peers' speed, ports down, MTU
// that differs along a path, hosts reaching different numbers of leaves.
#include "analysis/finding.h"
#include "model/fabric.h"

#include <map>
#include <optional>
#include <vector>

namespace rackscope {

// Data rate of a link: InfiniBand lanes x per-lane rate ("4x" "NDR" -> 400),
// or an Ethernet speed ("100G"). Unknown names give nothing.
std::optional<double> linkGbps(const QString& width, const QString& speed);

struct HostPort {
    QString node;   // the CA / NIC node
    QString device; // "mlx5_0"; empty where the source names only the host (topology.conf)
    QString port;
    QString switchId, switchPort;
    const FabricLink* link = nullptr;
};

struct FabricHost {
    QString name;
    std::vector<HostPort> ports; // ports cabled to a switch, in device order
    QStringList leaves;          // distinct switches those ports reach, sorted
};

// Rail k: the leaves where most servers cable the device named k.
struct Rail {
    QString device;
    QStringList leaves;
    int hostPorts = 0;
};

struct LeafLoad {
    QString leaf;
    int downlinks = 0, uplinks = 0;
    std::optional<double> downGbps, upGbps; // only when every link's rate is known
    std::optional<double> ratio() const;    // downlink : uplink bandwidth
};

struct FabricAnalysis {
    std::map<QString, int> tiers;  // switch id -> tier (a source's word over the inference)
    std::vector<FabricHost> hosts; // by name, naturally sorted
    std::vector<Rail> rails;       // empty unless servers have two or more ports on the fabric
    std::vector<LeafLoad> leaves;
    std::vector<Finding> findings; // each targets the links and nodes it concerns
    const FabricHost* host(const QString& name) const;
};

FabricAnalysis analyseFabric(const Fabric& fabric);

} // namespace rackscope
