#pragma once
// The "rdma_bw" method's one program: perftest's ib_write_bw, with arguments the agent builds from typed,
// range-checked parameters (docs/protocol.md). A request names values, never a program, a path or a flag:
// the device must be one of this host's RDMA devices, the peer a host name or an address.
#include "collect/json.h"
#include "fs/host_fs.h"

#include <optional>
#include <string>
#include <vector>

namespace rsagent {

inline constexpr char kRdmaBwProgram[] = "ib_write_bw";

struct RdmaBwRun {
    std::vector<std::string> args; // after the program
    int timeoutMs = 0;             // the test's duration and the wait for its peer
};

// The run the parameters ask for, or nothing and why (a bad-params message).
std::optional<RdmaBwRun> rdmaBwRun(const Json& params, const HostFs& fs, std::string* why);

} // namespace rsagent
