#pragma once
// Reads NCCL topology XML: NCCL_TOPO_DUMP_FILE output and the NCCL_TOPO_FILE
// inputs cloud vendors ship (<system version="1"><cpu><pci>...).
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

ImportResult importNcclTopoXml(const QByteArray& xml, const QString& location);

} // namespace rackscope
