#pragma once
// Opens a topology file of any supported kind, chosen by its content.
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

enum class DetectedFormat {
    HwlocXml,
    NcclTopoXml,
    NcclGraphXml,
    NvidiaSmiTopo,
    AgentSnapshot,
    OtherXml,
    Binary,
    Empty,
    Unknown
};
DetectedFormat detectFormat(const QByteArray& content);

// Inputs larger than this are refused before parsing: the largest real
// topologies and snapshots are a few MB.
constexpr qint64 kMaxTopologyBytes = 32 * 1024 * 1024;

ImportResult importTopology(const QByteArray& content, const QString& location);
ImportResult loadTopologyFile(const QString& path);

} // namespace rackscope
