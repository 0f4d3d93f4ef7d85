#pragma once
// Counter deltas as the kernel's counters behave: 64-bit, 32-bit that wrap,
// and the legacy InfiniBand PortCounters that saturate at their width.
#include "fs/host_fs.h"
#include "json.h"

#include <cstdint>
#include <map>
#include <string>

namespace rsagent {

struct CounterKind {
    int bits = 64;
    bool saturating = false;
};

// The width and behaviour of an IB port counter by its kernel name (IBA
// PortCounters; the kernel's counters/ directory), 64-bit wrapping otherwise.
CounterKind ibCounterKind(const std::string& name);

struct CounterDelta {
    std::optional<uint64_t> delta; // empty when it cannot be known (a reset, or stuck at saturation)
    std::string note;              // "", "wrapped", "saturated", "reset"
};
CounterDelta counterDelta(uint64_t previous, uint64_t current, CounterKind kind);

// One reading of every counter: "ib/mlx5_0/1/port_xmit_data", "net/eth0/rx_bytes",
// "ethtool/eth0/rx_queue_0_packets" (live only), ...
using CounterReading = std::map<std::string, uint64_t>;
CounterReading readCounters(const HostFs& fs);
// Deltas and per-second rates between two readings taken intervalMs apart.
Json counterDeltas(const CounterReading& previous, const CounterReading& current, double intervalMs);

} // namespace rsagent
