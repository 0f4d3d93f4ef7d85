#pragma once
// The fabric as one server's agent saw it: each NIC port's LLDP neighbour
// (switch system name, switch port, advertised frame size) and every RDMA
// device with its node GUID, so an ibnetdiscover fabric merged with it learns
// which host a CA is in and which ports are down.
#include "model/fabric.h"

#include <QJsonObject>

namespace rackscope {

// The IP MTU a switch port takes, from the largest frame LLDP says it accepts:
// minus Ethernet's 14-byte header and 4-byte FCS.
constexpr int kEthernetFrameOverhead = 18;

Fabric fabricFromSnapshot(const QJsonObject& snapshot, const QString& location);

} // namespace rackscope
