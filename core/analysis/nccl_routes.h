#pragma once
// Which NIC NCCL gives each GPU, and the paths NCCL takes to a NIC where
// they are not the PCIe one (src/graph/paths.cc and search.cc, with the
// defaults of NCCL 2.28 and later):
//  - P2C: a NIC on the GPU's own CPU, the GPU reaching that CPU over
//    NVLink-C2C (Grace). NCCL_NET_GDR_C2C=1 gives it GPUDirect RDMA.
//  - PXN: a NIC reached through an NVLink peer that is nearer to it
//    (NCCL_PXN_DISABLE=0; NCCL_PXN_C2C=1 lets a peer at P2C relay). NCCL then
//    judges GPUDirect RDMA by the peer's path.
#include "host_analysis.h"

namespace rackscope {

// Sets ncclPath and relayGpu on the pairs NCCL takes another way.
void addNcclRoutes(const HostTopology& host, HostAnalysis& a);

// NCCL's ncclTopoGetLocalNet for channel 0: the NICs at the GPU's best path
// type, then mirrorBits(cudaDev) among them.
std::vector<std::pair<QString, QString>> chooseNcclNics(const HostTopology& host, const HostAnalysis& a);

} // namespace rackscope
