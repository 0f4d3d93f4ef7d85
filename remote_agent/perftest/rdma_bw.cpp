#include "rdma_bw.h"

#include "protocol/int_param.h"

#include <cctype>
#include <cstring>
#include <set>

namespace rsagent {
namespace {

bool nameOf(const std::string& s, size_t max, const char* extra) {
    if (s.empty() || s.size() > max || s[0] == '-' || s[0] == '.')
        return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr(extra, c))
            return false;
    return true;
}

} // namespace

std::optional<RdmaBwRun> rdmaBwRun(const Json& params, const HostFs& fs, std::string* why) {
    static const std::set<std::string> known{"role",     "device", "ib_port",    "gid_index",
                                             "tcp_port", "peer",   "duration_s", "bytes",
                                             "qps",      "gpu",    "wait_s"};
    for (const auto& [key, value] : params.items())
        if (!known.count(key)) {
            *why = "unknown parameter \"" + key.substr(0, 64) + "\"";
            return std::nullopt;
        }
    auto integer = [&](const char* name, int64_t lo, int64_t hi, std::optional<int64_t> fallback,
                       std::optional<int64_t>* out) {
        return readIntParam(params, name, lo, hi, fallback, out, why);
    };
    auto text = [&](const char* name, std::string* out) {
        if (!params.contains(name) || !params[name].is_string()) {
            *why = std::string("\"") + name + "\" must be a string";
            return false;
        }
        *out = params[name].get<std::string>();
        return true;
    };

    std::string role, device;
    if (!text("role", &role) || !text("device", &device))
        return std::nullopt;
    if (role != "server" && role != "client") {
        *why = "\"role\" is \"server\" or \"client\"";
        return std::nullopt;
    }
    // Only a device this host has: the name then cannot be anything but a directory's.
    if (!nameOf(device, 64, "_-.") || !fs.sysExists("class/infiniband/" + device)) {
        *why = "\"device\" names no RDMA device of this host (/sys/class/infiniband)";
        return std::nullopt;
    }
    std::optional<int64_t> ibPort, gid, tcpPort, duration, bytes, qps, gpu, wait;
    if (!integer("ib_port", 1, 255, 1, &ibPort) || !integer("gid_index", 0, 255, std::nullopt, &gid) ||
        !integer("tcp_port", 1024, 65535, std::nullopt, &tcpPort) ||
        !integer("duration_s", 1, 600, 5, &duration) || !integer("bytes", 2, 8 << 20, 65536, &bytes) ||
        !integer("qps", 1, 64, 1, &qps) || !integer("gpu", 0, 63, std::nullopt, &gpu) ||
        !integer("wait_s", 1, 600, 30, &wait))
        return std::nullopt;
    if (!tcpPort) {
        *why = "\"tcp_port\" is needed: both sides meet on it";
        return std::nullopt;
    }
    std::string peer;
    if (role == "client") {
        if (!text("peer", &peer))
            return std::nullopt;
        if (!nameOf(peer, 253, ".-:_")) {
            *why = "\"peer\" must be a host name or an address";
            return std::nullopt;
        }
    } else if (params.contains("peer")) {
        *why = "a server takes no \"peer\": the client connects to it";
        return std::nullopt;
    }

    RdmaBwRun run;
    run.args = {"-d", device,
                "-i", std::to_string(*ibPort),
                "-p", std::to_string(*tcpPort),
                "-D", std::to_string(*duration),
                "-s", std::to_string(*bytes),
                "-q", std::to_string(*qps),
                "-F", "--report_gbits"};
    if (gid) {
        run.args.push_back("-x");
        run.args.push_back(std::to_string(*gid));
    }
    if (gpu)
        run.args.push_back("--use_cuda=" + std::to_string(*gpu));
    if (!peer.empty())
        run.args.push_back(peer);
    // A server waits for its client first; either side then needs the duration and its set-up.
    run.timeoutMs = int((*duration + (role == "server" ? *wait : 0) + 30) * 1000);
    return run;
}

} // namespace rsagent
