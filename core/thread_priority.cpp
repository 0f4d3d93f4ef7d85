#include "thread_priority.h"

#include <atomic>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rackscope {

namespace {
std::atomic<bool> windowFirst{false};
}

void keepTheWindowFirst() {
    windowFirst = true;
}

void runBesideTheWindow() {
    if (windowFirst)
        ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 19);
}

} // namespace rackscope
