#pragma once
// Readers for the NVLink fabric as people paste it: `nvidia-smi -q` (whole, or its Fabric section through
// grep), `nvidia-smi nvlink -s` / `--status`, and `nvidia-imex-ctl -N`. Each takes one server's lines and
// adds what it recognises; a line it does not know is another reader's or nobody's.
#include "model/nvlink_fabric.h"

#include <vector>

namespace rackscope {

struct SourceLine {
    int number = 0; // in the file, from 1
    QString text;   // without a launcher's prefix
};

struct NvlinkTextRead {
    NvlinkFabric fabric;
    QStringList kinds; // what was recognised: "nvidia-smi -q", "nvidia-smi nvlink -s", "nvidia-imex-ctl -N"
    QStringList notes; // what a reader could not use, and why (with the line)
};

// The Fabric section of each GPU: State, Status, CliqueId, ClusterUUID and the Health block, with the
// GPU's bus id, name and UUID where the whole output is given.
void readNvidiaSmiFabric(const std::vector<SourceLine>& lines, const QString& host, const QString& location,
                         NvlinkTextRead* out);
// "GPU 0: NVIDIA GB200 (UUID: GPU-...)" then "Link 0: 53.125 GB/s" or "Link 3: <inactive>", any indent.
void readNvlinkStatus(const std::vector<SourceLine>& lines, const QString& host, const QString& location,
                      NvlinkTextRead* out);
// Nodes with their status (and version, in newer daemons), the connectivity matrix and the domain state.
void readImexCtl(const std::vector<SourceLine>& lines, const QString& host, const QString& location,
                 NvlinkTextRead* out);

// "00000008:06:00.0" (nvidia-smi) and "0008:06:00" (NCCL) alike as "0008:06:00"; empty for anything else.
QString gpuBusId(const QString& text);

} // namespace rackscope
