#pragma once
// This machine through its own agent: `rackscope-agent --stdio` as a child
// process, spoken to with AgentClient.
#include "import/import_result.h"

#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <atomic>
#include <optional>

namespace rackscope {

// RACKSCOPE_AGENT, then beside the running program or in its ../lib/rackscope,
// then the build tree's.
QString findLocalAgent();

struct AgentCollect {
    std::optional<QJsonObject> snapshot;
    QString error;
};
// How an agent process that ended before its answer ended: its exit status or the signal that
// killed it, and the last line it wrote to stderr.
QString describeAgentEnd(QProcess& agent);

// Blocks its thread (any thread) until the answer, the timeout, or `cancel`.
AgentCollect collectWithLocalAgent(const QString& agentPath, const QStringList& agentArgs = {},
                                   int timeoutMs = 60000, const std::atomic<bool>* cancel = nullptr);

} // namespace rackscope
