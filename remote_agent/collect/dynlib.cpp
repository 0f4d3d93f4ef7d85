#include "dynlib.h"

#include <dlfcn.h>
#include <link.h>

namespace rsagent {

DynLib::DynLib(const char* soname) {
    handle_ = ::dlopen(
        soname, RTLD_LAZY | RTLD_LOCAL); // lazy: libnccl and libcuda are large, and few symbols are used
    if (!handle_) {
        const char* e = ::dlerror();
        error_ = e ? e : "dlopen failed";
    }
}

DynLib::~DynLib() {
    if (handle_)
        ::dlclose(handle_);
}

void* DynLib::raw(const char* symbol) const {
    return handle_ ? ::dlsym(handle_, symbol) : nullptr;
}

std::string DynLib::path() const {
    link_map* map = nullptr;
    if (!handle_ || ::dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name)
        return {};
    return map->l_name;
}

} // namespace rsagent
