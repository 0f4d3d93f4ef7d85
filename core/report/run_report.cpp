#include "run_report.h"

#include "finding_json.h"
#include "model/json_values.h"
#include "nccl_tests_report.h"

#include <QJsonArray>

namespace rackscope {

QJsonObject huntToJson(HuntSchedule schedule, const std::vector<GroupRun>& runs,
                       const StragglerVerdict& verdict) {
    QJsonArray runList, hosts, slowHosts, slowPairs;
    for (const GroupRun& r : runs)
        runList.append(QJsonObject{{"round", r.round + 1},
                                   {"hosts", QJsonArray::fromStringList(r.hosts)},
                                   {"busbw", orNull(r.busbw)},
                                   {"error", orNull(r.error)},
                                   {"record", r.record},
                                   {"findings", findingsToJson(r.findings)}});
    for (const auto& [host, bw] : verdict.hosts)
        hosts.append(QJsonObject{{"host", host}, {"busbw", bw}});
    for (const Flagged& f : verdict.slowHosts)
        slowHosts.append(QJsonObject{{"host", f.subject}, {"busbw", f.value}, {"reason", f.reason}});
    for (const Flagged& f : verdict.slowPairs)
        slowPairs.append(QJsonObject{{"pair", f.subject}, {"busbw", f.value}, {"reason", f.reason}});
    return {{"schedule", schedule == HuntSchedule::Pairs ? "pairs" : "bisect"},
            {"runs", runList},
            {"median_busbw", verdict.median},
            {"mad", verdict.mad},
            {"hosts", hosts},
            {"slow_hosts", slowHosts},
            {"slow_pairs", slowPairs},
            {"findings", findingsToJson(stragglerFindings(verdict))}};
}

QJsonObject counterChangesToJson(const std::vector<CounterChange>& changes, const QStringList& errors) {
    QJsonArray list;
    for (const CounterChange& c : changes)
        if (c.kind != CounterKind::Other && c.delta.value_or(1) != 0)
            list.append(QJsonObject{{"host", c.host},
                                    {"counter", c.counter},
                                    {"delta", orNull(c.delta)},
                                    {"note", c.note},
                                    {"kind", counterKindName(c.kind)}});
    return {{"changes", list}, {"errors", QJsonArray::fromStringList(errors)}};
}

QString recordEnding(const RunRecord& r) {
    if (!r.exitStatus)
        return QStringLiteral("record ends before the run did");
    if (!r.error.isEmpty())
        return r.error;
    return *r.exitStatus == 0 ? QStringLiteral("finished")
                              : QStringLiteral("exit status %1").arg(*r.exitStatus);
}

QJsonObject recordSummaryToJson(const QString& path, const RunRecord& r) {
    return {{"path", path},
            {"label", r.meta.label},
            {"started", r.meta.started.toString(Qt::ISODate)},
            {"rows", int(r.run.rows.size())},
            {"peak_busbw", orNull(peakBusbw(r.run))},
            {"ending", recordEnding(r)}};
}

QJsonObject recordToJson(const QString& path, const RunRecord& r) {
    QJsonObject doc = ncclTestsToJson(r.run, path);
    doc.insert("command", r.meta.command);
    doc.insert("hosts", QJsonArray::fromStringList(r.meta.hosts));
    doc.insert("started", r.meta.started.toString(Qt::ISODateWithMs));
    doc.insert("exit_status", orNull(r.exitStatus));
    doc.insert("ending", recordEnding(r));
    return doc;
}

QJsonObject comparisonToJson(const QString& a, const QString& b, const std::vector<SizeComparison>& rows) {
    QJsonArray list;
    for (const SizeComparison& c : rows)
        list.append(QJsonObject{{"size", c.size},
                                {"busbw_a", orNull(c.busbwA)},
                                {"busbw_b", orNull(c.busbwB)},
                                {"ratio", orNull(c.ratio)}});
    return {{"a", a}, {"b", b}, {"sizes", list}};
}

} // namespace rackscope
