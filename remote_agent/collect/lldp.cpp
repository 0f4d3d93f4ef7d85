#include "collectors.h"
#include "protocol/json_nesting.h"
#include "run_fixed.h"

#include <sys/stat.h>

namespace rsagent {
namespace {

// lldpcli only asks lldpd, through its control socket. Where none is there, nobody is there to ask, and
// starting lldpcli to find that out (a process, its libraries, a failed connect) costs a server on one core
// a sixth of the whole collection. The distributions' lldpcli looks where their lldpd listens by default;
// one from elsewhere (built from source, another prefix) may look elsewhere, and is asked.
std::string missingSocket(const std::string& program, const std::string& socket) {
    static const std::vector<std::string> defaults = {"/run/lldpd.socket", "/var/run/lldpd.socket"};
    const bool fromDistribution = program.rfind("/usr/sbin/", 0) == 0 || program.rfind("/usr/bin/", 0) == 0 ||
                                  program.rfind("/sbin/", 0) == 0 || program.rfind("/bin/", 0) == 0;
    if (socket.empty() && !fromDistribution)
        return {};
    const std::vector<std::string> places = socket.empty() ? defaults : std::vector<std::string>{socket};
    for (const std::string& place : places) {
        struct stat st {};
        if (::stat(place.c_str(), &st) == 0 && S_ISSOCK(st.st_mode))
            return {};
    }
    return places.front();
}

// json0 wraps every value as [{"value": ...}] or [{"type":..,"value":..}].
Json firstValue(const Json& node, const char* key) {
    if (!node.is_object() || !node.contains(key))
        return nullptr;
    const Json& list = node[key];
    if (!list.is_array() || list.empty() || !list[0].is_object())
        return nullptr;
    const Json& v = list[0].contains("value") ? list[0]["value"] : Json(nullptr);
    return v.is_string() || v.is_number() ? v : Json(nullptr);
}

const Json& firstObject(const Json& node, const char* key) {
    static const Json empty = Json::object();
    if (!node.is_object() || !node.contains(key) || !node[key].is_array() || node[key].empty())
        return empty;
    return node[key][0].is_object() ? node[key][0] : empty;
}

} // namespace

Json parseLldpNeighbors(const std::string& json0) {
    if (!protocol::jsonNestingWithin(json0))
        return unavailable("lldpcli output is nested too deeply");
    const Json doc = Json::parse(json0, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return unavailable("lldpcli output is not JSON");
    Json out = Json::array();
    const Json& lldp = firstObject(doc, "lldp");
    if (lldp.contains("interface") && lldp["interface"].is_array())
        for (const Json& itf : lldp["interface"]) {
            if (!itf.is_object())
                continue;
            const Json& chassis = firstObject(itf, "chassis");
            const Json& port = firstObject(itf, "port");
            const Json& chassisId = firstObject(chassis, "id");
            const Json& portId = firstObject(port, "id");
            Json vlans = Json::array();
            if (itf.contains("vlan") && itf["vlan"].is_array())
                for (const Json& v : itf["vlan"])
                    if (v.is_object() && v.contains("vlan-id"))
                        vlans.push_back(v["vlan-id"]);
            out.push_back(Json{
                {"interface", itf.contains("name") && itf["name"].is_string() ? itf["name"] : Json(nullptr)},
                {"via", itf.contains("via") ? itf["via"] : Json(nullptr)},
                {"system_name", firstValue(chassis, "name")},
                {"chassis_id", chassisId.contains("value") ? chassisId["value"] : Json(nullptr)},
                {"chassis_id_type", chassisId.contains("type") ? chassisId["type"] : Json(nullptr)},
                {"management_ip", firstValue(chassis, "mgmt-ip")},
                {"port_id", portId.contains("value") ? portId["value"] : Json(nullptr)},
                {"port_descr", firstValue(port, "descr")},
                {"mfs", firstValue(port, "mfs")},
                {"vlans", vlans}});
        }
    return Json{{"available", true}, {"neighbors", out}};
}

Json collectLldp(const LldpOptions& options) {
    const std::string program = findProgram(options.lldpcli);
    if (program.empty())
        return unavailable("lldpcli not found (Debian package lldpd)");
    if (const std::string missing = missingSocket(program, options.socket); !missing.empty())
        return unavailable("lldpd is not running: no control socket at " + missing);
    std::vector<std::string> argv = {program};
    if (!options.socket.empty())
        argv.insert(argv.end(), {"-u", options.socket});
    argv.insert(argv.end(), {"-f", "json0", "show", "neighbors"});
    const FixedRun r = runFixed(argv, 5000, 8 << 20);
    if (!r.failure.empty())
        return unavailable("lldpcli " + r.failure);
    if (r.exitCode != 0)
        return unavailable("lldpcli exited with status " + std::to_string(r.exitCode) +
                           " (is lldpd running?)");
    Json parsed = parseLldpNeighbors(r.out);
    if (parsed.value("available", false))
        parsed["source"] = "lldpcli -f json0 show neighbors";
    return parsed;
}

} // namespace rsagent
