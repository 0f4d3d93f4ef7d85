#pragma once
// NCCL RAS reports and their verdicts as JSON, for the CLI's --json (nccl-ras, nccl-log).
#include "job/ras_verdict.h"

#include <QJsonObject>

namespace rackscope {

QJsonObject rasReportJson(const NcclRasReport& report);
QJsonObject rasVerdictJson(const RasVerdict& verdict);

} // namespace rackscope
