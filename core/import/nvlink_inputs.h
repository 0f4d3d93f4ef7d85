#pragma once
// What a person has about a rack's NVLink fabric, in any mix and chosen by content: `nvidia-smi -q`
// (whole or grepped), `nvidia-smi nvlink --status`, `nvidia-imex-ctl -N`, NCCL_DEBUG=INFO logs with MNNVL
// lines, as run on one server or through pdsh/clush ("node7: ..." names the server of each line); and
// rackscope-agent snapshots.
#include "nvlink_text_readers.h"

#include <QByteArray>

namespace rackscope {

struct NvlinkInput {
    NvlinkFabric fabric;
    QStringList kinds; // what was recognised
    QStringList notes; // what could not be used, and why
    QString error;     // nothing was read, and why
};

// NCCL logs of a long job run to hundreds of MB; the NVLink outputs themselves are a few kB.
constexpr qint64 kMaxNvlinkInputBytes = 256 << 20;

// `host` names the server of lines that name none (a file taken on one server).
NvlinkInput readNvlinkText(const QByteArray& content, const QString& location, const QString& host = {});
NvlinkInput loadNvlinkFile(const QString& path, const QString& host = {});

} // namespace rackscope
