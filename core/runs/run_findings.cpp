#include "run_findings.h"

#include "nccl_transport.h"

namespace rackscope {

std::vector<Finding> runFindings(const RunEnding& ending, const NcclTestsRun& run,
                                 const std::vector<CounterChange>& counterChanges,
                                 const std::map<QString, HostTopology>& topologies) {
    std::vector<Finding> out;
    const bool failed = ending.exitStatus && (*ending.exitStatus != 0 || !ending.error.isEmpty());
    if (ending.cancelled) {
        // stopped by the person who started it: its end says nothing of the machines
    } else if (!ending.exitStatus) {
        out.push_back(makeFinding(
            Severity::Warning, QLatin1String(codes::kRunCutShort), {ending.label},
            {QT_TRANSLATE_NOOP("rackscope", "The record of \"%1\" ends before the run did: what follows "
                                            "is only what arrived before it was cut"),
             {ending.label}}));
    } else if (failed) {
        out.push_back(makeFinding(
            Severity::Error, QLatin1String(codes::kRunFailed), {ending.label},
            {QT_TRANSLATE_NOOP("rackscope", "\"%1\" failed: %2"),
             {ending.label, ending.error.isEmpty() ? QStringLiteral("exit status %1").arg(*ending.exitStatus)
                                                   : ending.error}}));
    }
    if (const qint64 wrong = run.wrongTotal(); wrong > 0)
        out.push_back(makeFinding(
            Severity::Error, QLatin1String(codes::kRunWrongResults), {ending.label},
            {QT_TRANSLATE_NOOP("rackscope", "nccl-tests counted %1 wrong results in \"%2\": data arrived "
                                            "corrupted (a faulty GPU, NVLink, NIC or cable)"),
             {QString::number(wrong), ending.label}}));
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
    return runFindings({label, record.exitStatus, record.error}, record.run, changes, topologies);
}

} // namespace rackscope
