#pragma once
// The path type between two devices of one host: what the source states,
// else NVLink where GPUs have it, else a walk up the PCIe tree.
#include "model/host_topology.h"

namespace rackscope {

struct DevicePath {
    std::optional<PathType> type; // empty when the source gives no way to know
    std::optional<int> nvlinks;   // with PathType::NV
    QString origin;               // "stated by nvidia-smi", "NVLink", "PCIe tree"
};

DevicePath pathBetween(const HostTopology& host, const Device& a, const Device& b);

// The PCIe-tree part alone (no NVLink), for GPU-NIC pairs and GPUs without NVLink.
std::optional<PathType> treePath(const HostTopology& host, const Device& a, const Device& b);

} // namespace rackscope
