#pragma once
// One line of NCCL_DEBUG=INFO output: NCCL's own prefix ("host:pid:tid [cudaDev] NCCL INFO ") after
// whatever a launcher put before it, and the fabric registration NCCL prints for each GPU on a
// multi-node NVLink system ("MNNVL busId 0x806000 fabric UUID ... cliqueId 0xd26 state 3 healthMask 0x1aa").
#include "model/nvlink_fabric.h"

#include <QString>
#include <optional>

namespace rackscope {

struct NcclLogLine {
    QString host;
    int cudaDevice = 0;
    QString message; // after "NCCL INFO " or "NCCL WARN ", trimmed
};

std::optional<NcclLogLine> readNcclLogLine(const QString& line);

// The GPU's registration from an MNNVL line; nothing for any other message. NCCL prints the ClusterUUID
// as two native-endian 64-bit words ("%lx.%lx"); it is given back in nvidia-smi's form, so both sources
// name one domain alike. NCCL_MNNVL_UUID and NCCL_MNNVL_CLIQUE_ID override what NVML said.
std::optional<GpuFabricState> readMnnvlMessage(const NcclLogLine& line);

// NCCL's int64 bus id as it prints it ("1906000") as a PCI address ("0019:06:00"); empty when it is none.
QString ncclBusIdToPci(const QString& busId);

} // namespace rackscope
