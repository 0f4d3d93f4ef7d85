#include "snapshot.h"

#include "rackscope_version.h"

#include <chrono>
#include <ctime>
#include <future>
#include <unistd.h>

namespace rsagent {

const std::vector<std::string>& snapshotSections() {
    static const std::vector<std::string> names = {"topology",  "gpus",     "rdma", "net",      "pcie",
                                                   "gpudirect", "roce_qos", "lldp", "versions", "imex"};
    return names;
}

std::string hostName() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0)
        return {};
    return buf;
}

Json collectSnapshot(const CollectOptions& o, const std::set<std::string>& sections) {
    const auto start = std::chrono::steady_clock::now();
    const std::time_t now = std::time(nullptr);
    char when[32] = {};
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    Json s{{"type", "rackscope-snapshot"}, {"format", 1},          {"agent", RACKSCOPE_VERSION},
           {"host", hostName()},           {"collected_at", when}, {"sysfs_root", o.fs.sysRoot()},
           {"live", o.fs.live()}};
    auto want = [&](const char* name) { return sections.empty() || sections.count(name); };
    // hwloc's walk and lldpcli (a process of its own) run beside the rest, each on its own thread.
    std::future<Json> topology, lldp;
    if (want("topology"))
        topology = std::async(std::launch::async, [&] { return collectTopology(o.fs); });
    if (want("lldp"))
        lldp = std::async(std::launch::async, [&] {
            return o.fs.live() ? collectLldp(o.lldp) : unavailable("not collected: reading a captured tree");
        });
    if (want("gpus"))
        s["gpus"] = o.fs.live() ? collectGpus() : unavailable("not collected: reading a captured tree");
    if (want("rdma"))
        s["rdma"] = collectRdma(o.fs);
    if (want("net"))
        s["net"] = collectNet(o.fs);
    if (want("pcie"))
        s["pcie"] = collectPcie(o.fs);
    if (want("gpudirect"))
        s["gpudirect"] = collectGpuDirect(o.fs);
    if (want("roce_qos"))
        s["roce_qos"] = collectRoceQos(o.fs);
    if (want("versions"))
        s["versions"] = collectVersions(o.fs);
    if (want("imex"))
        s["imex"] = collectImex(o.fs);
    if (topology.valid())
        s["topology"] = topology.get();
    if (lldp.valid())
        s["lldp"] = lldp.get();
    s["duration_ms"] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return s;
}

} // namespace rsagent
