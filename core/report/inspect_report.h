#pragma once
// The `inspect` report, shared by rackscope-cli and the GUI: one JSON
// document or readable text for a list of hosts and the inputs that failed.
#include "analysis/fabric_analysis.h"
#include "analysis/host_analysis.h"
#include "import/import_result.h"
#include "runs/run_findings.h"
#include "runs/saved_load_run.h"

#include <QJsonObject>
#include <QString>

namespace rackscope {

// One entry of the report's "hosts": a server inspected, or one that could not be ({"name", "error":
// {"stage", "message"}}).
struct ServerEntry {
    const InspectedHost* host = nullptr;
    const UnreachableServer* unreachable = nullptr;
};

QJsonObject hostToJson(const InspectedHost& h);
// With a fabric, its source and its findings as "fabric"; with saved runs, each one's summary and findings
// as "runs".
QJsonObject inspectToJson(const std::vector<ServerEntry>& servers, const std::vector<FailedInput>& failed,
                          const Fabric* fabric = nullptr, const FabricAnalysis* fabricAnalysis = nullptr,
                          const std::vector<JudgedRun>& runs = {},
                          const std::vector<SavedLoadRun>& loadRuns = {});
QJsonObject inspectToJson(const std::vector<InspectedHost>& hosts, const std::vector<FailedInput>& failed);
QString inspectToText(const std::vector<InspectedHost>& hosts, const FabricAnalysis* fabricAnalysis = nullptr,
                      const std::vector<JudgedRun>& runs = {},
                      const std::vector<SavedLoadRun>& loadRuns = {});

} // namespace rackscope
