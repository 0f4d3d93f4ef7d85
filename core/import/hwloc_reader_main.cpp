// rackscope-hwloc-reader: reads hwloc XML for rackscope in a process of its own (hwloc_reader.h).
// Its stdin and stdout are one socket to rackscope; stderr is rackscope's.
#include "import/hwloc_reader.h"

#include <csignal>
#include <unistd.h>

int main() {
    // A crash is the answer rackscope reports ("crashed on this input"), not a sanitizer's report.
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL})
        std::signal(sig, SIG_DFL);
    // Replies go out on a descriptor of their own; anything the library prints goes to stderr.
    const int replies = ::dup(STDOUT_FILENO);
    if (replies < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return 1;
    return rackscope::serveHwlocReader(STDIN_FILENO, replies);
}
