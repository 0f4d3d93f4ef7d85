#pragma once
// An nccl-tests run as JSON: header, ranks, rows (out-of-place and in-place),
// the footer's average bus bandwidth and the wrong-value total.
#include "runs/nccl_tests_output.h"

#include <QJsonObject>

namespace rackscope {

QJsonObject ncclTestsToJson(const NcclTestsRun& run, const QString& source);

} // namespace rackscope
