#pragma once
#include "analysis/finding.h"

#include <QJsonArray>
#include <QJsonObject>
#include <vector>

namespace rackscope {

// The finding shape every report shares: {"severity","code","subjects","message"}.
inline QJsonObject findingToJson(const Finding& f) {
    return {{"severity", severityName(f.severity)},
            {"code", f.code},
            {"subjects", QJsonArray::fromStringList(f.subjects)},
            {"message", f.message}};
}

inline QJsonArray findingsToJson(const std::vector<Finding>& findings) {
    QJsonArray out;
    for (const Finding& f : findings)
        out.append(findingToJson(f));
    return out;
}

} // namespace rackscope
