#include "collectors.h"

#include <cstdlib>
#include <hwloc.h>
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#endif

namespace rsagent {
namespace {

// hwloc's PCI plugin loads libpciaccess and unloads it with the plugin; the pci.ids names that
// libpciaccess caches are never freed, and once it is gone LeakSanitizer cannot say whose they
// were. Sanitizer builds keep it loaded, so that tests/lsan.supp names it.
void keepPciaccessLoadedForLeakReports() {
#if defined(__SANITIZE_ADDRESS__)
    static void* const kept = ::dlopen("libpciaccess.so.0", RTLD_NOW | RTLD_NODELETE);
    (void)kept;
#endif
}

// hwloc loads every plugin it finds before discovery. Those that draw X displays (gl) or start a GPU runtime
// (opencl, cuda, nvml, rsmi, levelzero: seconds on a GPU server, and the agent asks NVML itself) add nothing
// to the snapshot; libxml2's exporter writes the same XML as hwloc's own. A user's own settings stay.
void skipPluginsTheSnapshotDoesNotUse() {
    ::setenv("HWLOC_PLUGINS_BLACKLIST",
             "hwloc_gl,hwloc_opencl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero,hwloc_xml_libxml", 0);
    ::setenv("HWLOC_LIBXML_EXPORT", "0", 0);
}

} // namespace

Json collectTopology(const HostFs& fs) {
    if (!fs.live())
        return unavailable("not collected: reading a captured sysfs tree, not this machine");
    keepPciaccessLoadedForLeakReports();
    skipPluginsTheSnapshotDoesNotUse();
    hwloc_topology_t topo = nullptr;
    if (hwloc_topology_init(&topo) != 0)
        return unavailable("hwloc_topology_init failed");
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    Json out;
    if (hwloc_topology_load(topo) != 0) {
        out = unavailable("hwloc could not read this machine's topology");
    } else {
        char* xml = nullptr;
        int len = 0;
        if (hwloc_topology_export_xmlbuffer(topo, &xml, &len, 0) != 0 || !xml) {
            out = unavailable("hwloc could not export XML");
        } else {
            const unsigned v = hwloc_get_api_version();
            out = Json{{"available", true},
                       {"hwloc_api_version", std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) +
                                                 "." + std::to_string(v & 0xff)},
                       {"hwloc_xml", std::string(xml, size_t(len > 0 ? len - 1 : 0))}};
            hwloc_free_xmlbuffer(topo, xml);
        }
    }
    hwloc_topology_destroy(topo);
    return out;
}

} // namespace rsagent
