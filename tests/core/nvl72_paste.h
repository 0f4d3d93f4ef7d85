#pragma once
// Two NVL72 racks as `pdsh -w tray[01-36] nvidia-smi -q | grep -A7 Fabric` prints them, from the real GB200
// capture's Fabric block (its health made Healthy): trays 01-18 in clique 2, 19-36 in clique 3.
#include "test_support.h"

#include <optional>
#include <utility>

namespace rackscope::test {

// `outOfDomain`: the {tray, GPU} given CliqueId 0 and an all-zero ClusterUUID.
inline QByteArray nvl72Paste(std::optional<std::pair<int, int>> outOfDomain = std::nullopt) {
    const QString block =
        QString::fromUtf8(
            incomingBytes(QStringLiteral("nvidia-smi-q-grep-C3-cliqueid_gb200-fabric-unhealthy.txt")))
            .replace(QStringLiteral("Unhealthy"), QStringLiteral("Healthy"));
    QString out;
    for (int t = 1; t <= 36; ++t)
        for (int g = 0; g < 4; ++g) {
            QString b =
                t > 18 ? QString(block).replace(QStringLiteral(": 2\n"), QStringLiteral(": 3\n")) : block;
            if (outOfDomain == std::pair(t, g))
                b.replace(QStringLiteral(": 2\n"), QStringLiteral(": 0\n"))
                    .replace(QStringLiteral("dc6e40c4-d722-4357-9ba6-5291dd461278"),
                             QStringLiteral("00000000-0000-0000-0000-000000000000"));
            for (const QString& line : b.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                out += QStringLiteral("tray%1: %2\n").arg(t, 2, 10, QLatin1Char('0')).arg(line);
        }
    return out.toUtf8();
}

} // namespace rackscope::test
