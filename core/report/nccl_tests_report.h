#pragma once
// An nccl-tests run as JSON: header, ranks, rows (out-of-place and in-place),
// the footer's average bus bandwidth, the wrong-value total and the transport.
#include "runs/nccl_transport.h"

#include <QJsonObject>

namespace rackscope {

// With `topologies` (by host name as the run printed it), the transport
// findings say whether each host's hardware allowed GPUDirect RDMA.
QJsonObject ncclTestsToJson(const NcclTestsRun& run, const QString& source,
                            const std::map<QString, HostTopology>& topologies = {});
// The same document as indented text, its rows one compact object a line, each written as it is made:
// a sweep of a million rows never becomes one QJsonArray (whose cost grows faster than its size).
QByteArray ncclTestsJsonText(const NcclTestsRun& run, const QString& source,
                             const std::map<QString, HostTopology>& topologies = {});

// The network NCCL_DEBUG=INFO reported: per host NICs and network, per rank
// the NICs and transports used and how many connections had GPUDirect RDMA.
QJsonObject ncclTransportToJson(const NcclTransport& transport, const std::vector<Finding>& findings);

} // namespace rackscope
