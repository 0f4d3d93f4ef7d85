// rackscope-agent: the small collector that runs on each server. Plain C++,
// no Qt; optional libraries are opened only when present.
#include "collect/snapshot.h"
#include "protocol/server.h"
#include "rackscope_version.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

const char kUsage[] =
    "usage: rackscope-agent --version\n"
    "       rackscope-agent collect [--pretty] [OPTIONS]   print one snapshot and exit\n"
    "       rackscope-agent --stdio [OPTIONS]              serve the protocol on stdin/stdout\n"
    "options:\n"
    "  --sysfs-root DIR    read a captured /sys tree instead of the live one\n"
    "  --proc-root DIR     read a captured /proc tree instead of the live one\n"
    "  --lldpd-socket SOCK lldpd's control socket, for lldpcli -u\n";

int usage() {
    std::fputs(kUsage, stderr);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN); // a vanished client is an EPIPE to handle, not a death
    std::string mode, sysRoot = "/sys", procRoot = "/proc";
    bool pretty = false;
    rsagent::LldpOptions lldp;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc)
                return false;
            out = argv[++i];
            return true;
        };
        if (a == "--version" || a == "-v") {
            std::printf("rackscope-agent %s\n", RACKSCOPE_VERSION);
            return 0;
        } else if (a == "collect" || a == "--stdio") {
            if (!mode.empty())
                return usage();
            mode = a;
        } else if (a == "--pretty") {
            pretty = true;
        } else if (a == "--sysfs-root") {
            if (!value(sysRoot))
                return usage();
        } else if (a == "--proc-root") {
            if (!value(procRoot))
                return usage();
        } else if (a == "--lldpd-socket") {
            if (!value(lldp.socket))
                return usage();
        } else if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else {
            std::fprintf(stderr, "rackscope-agent: unknown argument '%s'\n", a.c_str());
            return usage();
        }
    }
    rsagent::CollectOptions options{rsagent::HostFs(sysRoot, procRoot), lldp};
    if (mode == "collect") {
        const std::string out = rsagent::collectSnapshot(options).dump(
            pretty ? 2 : -1, ' ', false, nlohmann::detail::error_handler_t::replace);
        std::printf("%s\n", out.c_str());
        return 0;
    }
    if (mode == "--stdio")
        return rsagent::Server(STDIN_FILENO, STDOUT_FILENO, std::move(options)).run();
    return usage();
}
