#pragma once
// Reads `nvidia-smi topo -m` text of any driver generation: tab- or
// space-separated, with or without "NUMA Affinity" / "GPU NUMA ID", with or
// without a NIC legend, the old "SOC" label and stray ANSI escapes.
#include "import_result.h"

#include <QByteArray>

namespace rackscope {

bool looksLikeTopoMatrix(const QByteArray& text);
ImportResult importTopoMatrix(const QByteArray& text, const QString& location);

} // namespace rackscope
