#pragma once
// The CPU time a process has used, from /proc/PID/stat (plain C++: the agent's benchmark has no Qt).
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace rackscope::bench {

// Seconds of CPU, user and system; with `reaped`, those of the children it has waited for as well (an sshd
// and every session it served). -1 when the process cannot be read.
inline double processCpuSeconds(long pid, bool reaped = false) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE* f = std::fopen(path, "r");
    if (!f)
        return -1;
    char buf[4096] = {};
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    const char* p = std::strrchr(buf, ')'); // fields after the command name: utime..cstime are 14..17
    unsigned long utime = 0, stime = 0;
    long cutime = 0, cstime = 0;
    if (!p || std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld", &utime,
                          &stime, &cutime, &cstime) != 4)
        return -1;
    const double ticks = double(utime + stime) + (reaped ? double(cutime + cstime) : 0.0);
    return ticks / double(sysconf(_SC_CLK_TCK));
}

} // namespace rackscope::bench
