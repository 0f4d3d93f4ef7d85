// The IMEX daemon's view of its peers: `nvidia-imex-ctl -N`, a fixed command, whose text the console
// reads; and whether the channel device jobs import memory through exists.
#include "collectors.h"
#include "run_fixed.h"

#include <unistd.h>

namespace rsagent {

Json collectImex(const HostFs& fs) {
    if (!fs.live())
        return unavailable("not collected: reading a captured tree");
    const Json channels = ::access("/dev/nvidia-caps-imex-channels", F_OK) == 0;
    const std::string ctl = findProgram("nvidia-imex-ctl");
    if (ctl.empty()) {
        Json out = unavailable("nvidia-imex-ctl is not installed: no IMEX on this host");
        out["installed"] = false;
        out["channel_device"] = channels;
        return out;
    }
    const FixedRun r = runFixed({ctl, "-N"}, 5000, 1 << 20);
    if (r.exitCode != 0) {
        const std::string said = trim(r.out.substr(0, r.out.find('\n')));
        Json out = unavailable(ctl + " -N " +
                               (r.failure.empty() ? "exited " + std::to_string(r.exitCode) : r.failure) +
                               (said.empty() ? "" : ": " + said));
        out["installed"] = true;
        out["channel_device"] = channels;
        return out;
    }
    return Json{{"available", true},
                {"installed", true},
                {"source", ctl + " -N"},
                {"text", r.out},
                {"channel_device", channels}};
}

} // namespace rsagent
