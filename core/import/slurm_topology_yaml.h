#pragma once
// Slurm's topology.yaml (25.05 and later): a list of named topologies, each a tree (switches with their
// children and nodes), a block (blocks of nodes, block_sizes), flat, or a kind rackscope reads but does
// not derive (ring, torus3d, anything newer). The default tree and the default block become the fabric.
#include "slurm_fabric_builder.h"

#include <QByteArray>

namespace rackscope {

struct SlurmTopologyEntry {
    QString name;
    QString kind; // "tree", "block", "flat", "ring", "torus3d", or the key as written
    bool clusterDefault = false;
    int line = 0;
    bool used = false; // taken into the fabric
};

struct SlurmTopologyYamlImport {
    std::optional<Fabric> fabric;
    std::vector<SlurmTopologyEntry> topologies;
    QString error;
};

bool looksLikeSlurmTopologyYaml(const QByteArray& text);
SlurmTopologyYamlImport importSlurmTopologyYaml(const QByteArray& text, const QString& location);

} // namespace rackscope
