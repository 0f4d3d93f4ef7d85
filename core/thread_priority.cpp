#include "thread_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rackscope {

void runBesideTheWindow() {
    ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 5);
}

} // namespace rackscope
