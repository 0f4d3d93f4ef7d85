#pragma once
// JSON for NCCL runs beyond one nccl-tests output: the straggler hunt, the counters that moved during
// a run, and saved runs (listed, shown, compared).
#include "runs/counter_watch.h"
#include "runs/run_compare.h"
#include "runs/run_record.h"
#include "runs/straggler_hunt.h"

#include <QJsonObject>

namespace rackscope {

QJsonObject huntToJson(HuntSchedule schedule, const std::vector<GroupRun>& runs,
                       const StragglerVerdict& verdict);
// The counters that moved (errors, congestion), and why some could not be read.
QJsonObject counterChangesToJson(const std::vector<CounterChange>& changes, const QStringList& errors);

// How a saved run ended: "finished", "exit status N", its error, or that the record stops short.
QString recordEnding(const RunRecord& r);
// One line of a results folder's list.
QJsonObject recordSummaryToJson(const QString& path, const RunRecord& r);
// A saved run whole: its rows (as nccl-tests output is reported) and how it was run.
QJsonObject recordToJson(const QString& path, const RunRecord& r);
QJsonObject comparisonToJson(const QString& a, const QString& b, const std::vector<SizeComparison>& rows);

} // namespace rackscope
