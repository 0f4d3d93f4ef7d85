#pragma once
// Reads a rackscope-agent snapshot: the hwloc XML it carries, enriched with
// what only the agent sees (PCIe link capability, ACS, RDMA ports, NVML
// names, the peer-memory module).
#include "import_result.h"

#include <QJsonObject>

namespace rackscope {

bool looksLikeAgentSnapshot(const QByteArray& content);
ImportResult importAgentSnapshot(const QJsonObject& snapshot, const QString& location);
ImportResult importAgentSnapshot(const QByteArray& json, const QString& location);

} // namespace rackscope
