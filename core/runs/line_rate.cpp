#include "line_rate.h"

namespace rackscope {

LineRate expectedBusbw(const std::vector<HostTopology>& hosts) {
    if (hosts.empty())
        return {std::nullopt, QStringLiteral("no hosts inspected")};
    std::optional<double> lowest;
    QString how;
    for (const HostTopology& h : hosts) {
        double mbps = 0;
        int nics = 0;
        for (const Device& n : h.nics) {
            if (n.rdma != true)
                continue;
            if (!n.speedMbps)
                return {std::nullopt, QStringLiteral("%1 does not say the speed of %2")
                                          .arg(h.name, n.name.isEmpty() ? n.id : n.name)};
            mbps += *n.speedMbps;
            ++nics;
        }
        if (nics == 0)
            return {std::nullopt, QStringLiteral("%1 has no RDMA NIC").arg(h.name)};
        const double gbs = mbps / 1000.0 / 8.0;
        if (!lowest || gbs < *lowest) {
            lowest = gbs;
            how = QStringLiteral("%1: %2 RDMA NICs, %3 Gb/s in all").arg(h.name).arg(nics).arg(mbps / 1000.0);
        }
    }
    return {lowest, how + QStringLiteral(" = %1 GB/s").arg(*lowest, 0, 'f', 1)};
}

} // namespace rackscope
