#include "counters.h"

#include "ethtool_stats.h"

#include <cmath>

namespace rsagent {

CounterKind ibCounterKind(const std::string& name) {
    static const std::map<std::string, CounterKind> legacy = {
        {"symbol_error", {16, true}},
        {"link_error_recovery", {8, true}},
        {"link_downed", {8, true}},
        {"port_rcv_errors", {16, true}},
        {"port_rcv_remote_physical_errors", {16, true}},
        {"port_rcv_switch_relay_errors", {16, true}},
        {"port_xmit_discards", {16, true}},
        {"port_xmit_constraint_errors", {8, true}},
        {"port_rcv_constraint_errors", {8, true}},
        {"local_link_integrity_errors", {4, true}},
        {"excessive_buffer_overrun_errors", {4, true}},
        {"VL15_dropped", {16, true}},
        {"port_xmit_wait", {32, true}},
    };
    const auto it = legacy.find(name);
    return it == legacy.end() ? CounterKind{} : it->second;
}

CounterDelta counterDelta(uint64_t previous, uint64_t current, CounterKind kind) {
    const uint64_t max = kind.bits >= 64 ? UINT64_MAX : (uint64_t(1) << kind.bits) - 1;
    if (kind.saturating) {
        if (current < previous)
            return {std::nullopt, "reset"};
        if (previous == max)
            return {std::nullopt, "saturated"}; // stuck: what happened is unknown
        return {current - previous, current == max ? "saturated" : ""};
    }
    if (current >= previous)
        return {current - previous, ""};
    if (kind.bits < 64 && previous <= max)
        return {current + (max - previous) + 1, "wrapped"};
    return {std::nullopt, "reset"};
}

CounterReading readCounters(const HostFs& fs) {
    CounterReading r;
    for (const std::string& dev : fs.sysList("class/infiniband"))
        for (const std::string& port : fs.sysList("class/infiniband/" + dev + "/ports"))
            for (const char* dir : {"counters", "hw_counters"}) {
                const std::string base = "class/infiniband/" + dev + "/ports/" + port + "/" + dir;
                for (const std::string& name : fs.sysList(base))
                    if (auto v = fs.sysU64(base + "/" + name))
                        r["ib/" + dev + "/" + port + "/" + name] = *v;
            }
    for (const std::string& ifname : fs.sysList("class/net")) {
        const std::string base = "class/net/" + ifname + "/statistics";
        for (const std::string& name : fs.sysList(base))
            if (auto v = fs.sysU64(base + "/" + name))
                r["net/" + ifname + "/" + name] = *v;
        if (fs.live()) // the driver's own statistics exist only on the running machine
            for (const auto& [name, v] : ethtoolStats(ifname))
                r["ethtool/" + ifname + "/" + name] = v;
    }
    return r;
}

Json counterDeltas(const CounterReading& previous, const CounterReading& current, double intervalMs) {
    Json out = Json::object();
    for (const auto& [key, value] : current) {
        const auto prev = previous.find(key);
        if (prev == previous.end())
            continue;
        CounterKind kind;
        if (key.rfind("ib/", 0) == 0) {
            kind = ibCounterKind(key.substr(key.rfind('/') + 1));
        } else if (value < prev->second && prev->second <= UINT32_MAX && prev->second > (uint64_t(1) << 31)) {
            // Drivers that keep 32-bit net statistics wrap at 2^32; a drop from
            // low values is a reset (driver reload), not a wrap.
            kind = {32, false};
        }
        const CounterDelta d = counterDelta(prev->second, value, kind);
        Json entry{{"value", value}, {"delta", orNull(d.delta)}};
        if (d.delta && intervalMs > 0)
            entry["rate_per_s"] = double(*d.delta) * 1000.0 / intervalMs;
        if (!d.note.empty())
            entry["note"] = d.note;
        out[key] = std::move(entry);
    }
    return out;
}

} // namespace rsagent
