#pragma once
// This machine through its own agent: `rackscope-agent --stdio` as a child
// process, spoken to with AgentClient.
#include "import/import_result.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace rackscope {

// RACKSCOPE_AGENT, then beside the running program or in its ../lib/rackscope,
// then the build tree's.
QString findLocalAgent();

struct AgentCollect {
    std::optional<QJsonObject> snapshot;
    QString error;
};
AgentCollect collectWithLocalAgent(const QString& agentPath, const QStringList& agentArgs = {}, int timeoutMs = 60000);

} // namespace rackscope
