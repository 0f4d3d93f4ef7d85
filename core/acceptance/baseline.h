#pragma once
// A rack's facts as they were on a day it was accepted (`check --save-baseline FILE`), for later checks to
// be compared with (`check --baseline FILE`): a fact that differs from its baseline is reported on its check.
#include "rack_facts.h"

#include <QByteArray>
#include <QDateTime>
#include <optional>

namespace rackscope {

struct Baseline {
    QString location;
    QDateTime savedAt;
    std::map<QString, std::map<QString, QString>> facts; // host -> fact key -> Fact::text()
    // What the active checks measured: host -> "rdma.mlx5_0" (Gb/s), "nccl.all_reduce" (GB/s) -> figure.
    std::map<QString, std::map<QString, double>> measured;
};

QByteArray baselineToJson(const std::vector<HostFacts>& hosts,
                          const std::map<QString, std::map<QString, double>>& measured,
                          const QDateTime& savedAt);
// The baseline, or nothing and why.
std::optional<Baseline> readBaseline(const QByteArray& json, const QString& location, QString* error);

} // namespace rackscope
