#pragma once
// Reads `ibnetdiscover` output of every generation in the fixtures. Lines
// that cannot be read are reported with their number, never dropped.
#include "model/fabric.h"

#include <QByteArray>

namespace rackscope {

struct FabricImport {
    std::optional<Fabric> fabric;
    QString error; // only when nothing fabric-like was found at all
};

bool looksLikeIbnetdiscover(const QByteArray& text);
FabricImport importIbnetdiscover(const QByteArray& text, const QString& location);

} // namespace rackscope
