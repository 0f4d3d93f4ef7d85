#pragma once
// The `inspect` report, shared by rackscope-cli and the GUI: one JSON
// document or readable text for a list of hosts and the inputs that failed.
#include "analysis/host_analysis.h"

#include <QJsonObject>
#include <QString>

namespace rackscope {

struct InspectedHost {
    HostTopology host;
    HostAnalysis analysis;
};

struct FailedInput {
    QString input; // file path or host name
    QString message;
};

QJsonObject hostToJson(const InspectedHost& h);
QJsonObject inspectToJson(const std::vector<InspectedHost>& hosts, const std::vector<FailedInput>& failed);
QString inspectToText(const std::vector<InspectedHost>& hosts);

} // namespace rackscope
