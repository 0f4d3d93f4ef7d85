#pragma once
// One function per source. Each returns facts as the source gave them, or
// {"available":false,"reason":...}; none throws on what it reads.
#include "fs/host_fs.h"
#include "json.h"

namespace rsagent {

Json collectTopology(const HostFs& fs);  // hwloc XML of the live machine
Json collectRdma(const HostFs& fs);      // /sys/class/infiniband, plus libibverbs for the active MTU
Json collectNet(const HostFs& fs);       // /sys/class/net, ethtool, addresses, routes
Json collectPcie(const HostFs& fs);      // link speed/width of GPUs, NICs and the bridges above them, ACS
Json collectGpuDirect(const HostFs& fs); // peer-memory module, IOMMU, DMA-BUF prerequisites
Json collectRoceQos(const HostFs& fs);   // ECN per priority, trust and PFC where exposed
Json collectGpus();                      // NVML, with each GPU's NVLink fabric registration
Json collectImex(const HostFs& fs);      // `nvidia-imex-ctl -N` and the IMEX channel device
Json collectVersions(const HostFs& fs);  // kernel, OS, driver, CUDA, NCCL, rdma-core, OFED

struct LldpOptions {
    std::string lldpcli = "lldpcli"; // searched in PATH and /usr/sbin
    std::string socket;              // lldpd control socket, default lldpd's own
};
Json collectLldp(const LldpOptions& options);
// Parses `lldpcli -f json0 show neighbors` output.
Json parseLldpNeighbors(const std::string& json0);

} // namespace rsagent
