#pragma once
// Binary form of a HostTopology, for handing one across a pipe from an
// isolated importer process (QDataStream; not a file format).
#include "host_topology.h"

#include <QDataStream>

namespace rackscope {

QDataStream& operator<<(QDataStream& s, const HostTopology& h);
QDataStream& operator>>(QDataStream& s, HostTopology& h);

} // namespace rackscope
