#include "run_findings.h"

#include "nccl_transport.h"

#include <algorithm>

namespace rackscope {

std::vector<Finding> resultFindings(const QString& label, const NcclTestsRun& run) {
    // "Out of bounds values" is nccl-tests' total of #wrong (the footer may be missing from a cut log).
    const qint64 wrong = std::max(run.outOfBounds.value_or(0), run.wrongTotal());
    if (wrong <= 0)
        return {};
    return {
        makeFinding(Severity::Error, QLatin1String(codes::kRunWrongResults), {label},
                    {QT_TRANSLATE_NOOP("rackscope", "nccl-tests counted %1 wrong results in \"%2\": data "
                                                    "arrived corrupted (a faulty GPU, NVLink, NIC or cable)"),
                     {QString::number(wrong), label}})};
}

std::vector<Finding> runFindings(const QString& label, const std::optional<RunEnding>& ending,
                                 const NcclTestsRun& run, const std::vector<CounterChange>& counterChanges,
                                 const std::map<QString, HostTopology>& topologies) {
    std::vector<Finding> out;
    if (ending && !ending->exitStatus)
        out.push_back(makeFinding(
            Severity::Warning, QLatin1String(codes::kRunCutShort), {label},
            {QT_TRANSLATE_NOOP("rackscope", "The record of \"%1\" ends before the run did: what follows "
                                            "is only what arrived before it was cut"),
             {label}}));
    else if (ending && (*ending->exitStatus != 0 || !ending->error.isEmpty()))
        out.push_back(makeFinding(
            Severity::Error, QLatin1String(codes::kRunFailed), {label},
            {QT_TRANSLATE_NOOP("rackscope", "\"%1\" failed: %2"),
             {label, ending->error.isEmpty() ? QStringLiteral("exit status %1").arg(*ending->exitStatus)
                                             : ending->error}}));
    for (Finding& f : resultFindings(label, run))
        out.push_back(std::move(f));
    for (Finding& f : counterFindings(counterChanges))
        out.push_back(std::move(f));
    for (Finding& f : ncclTransportFindings(readNcclTransport(run.ncclInfo), run.ranks, topologies))
        out.push_back(std::move(f));
    return out;
}

std::vector<Finding> recordFindings(const RunRecord& record,
                                    const std::map<QString, HostTopology>& topologies) {
    std::vector<CounterChange> changes;
    for (const auto& [host, after] : record.countersAfter)
        for (const auto& [beforeHost, before] : record.countersBefore)
            if (beforeHost == host)
                for (CounterChange& c : counterChanges(host, before, after))
                    changes.push_back(std::move(c));
    const QString label = record.meta.label.isEmpty() ? record.path : record.meta.label;
    return runFindings(label, RunEnding{record.exitStatus, record.error}, record.run, changes, topologies);
}

} // namespace rackscope
