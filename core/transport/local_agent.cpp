#include "local_agent.h"

#include "agent_client.h"

#include "logging.h"
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QProcess>
#include <cstring>

namespace rackscope {

QString findLocalAgent() {
    const QString env = qEnvironmentVariable("RACKSCOPE_AGENT");
    if (!env.isEmpty())
        return env;
    // Installed: beside the program, or the copy the console package carries in lib/rackscope.
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& candidate : {dir + QStringLiteral("/rackscope-agent"),
                                     dir + QStringLiteral("/../lib/rackscope/rackscope-agent")})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
#ifdef RACKSCOPE_BUILD_AGENT
    if (QFileInfo(QStringLiteral(RACKSCOPE_BUILD_AGENT)).isExecutable())
        return QStringLiteral(RACKSCOPE_BUILD_AGENT);
#endif
    return {};
}

QString describeAgentEnd(QProcess& agent) {
    qCDebug(lcTransport) << "local agent ended:" << agent.exitStatus() << agent.exitCode();
    // Qt gives the signal's number as the exit code of a process that a signal ended.
    const QString how = agent.exitStatus() == QProcess::CrashExit
                            ? QStringLiteral("was killed by signal %1 (%2)")
                                  .arg(agent.exitCode())
                                  .arg(QString::fromLocal8Bit(::strsignal(agent.exitCode())))
                            : QStringLiteral("exited with status %1").arg(agent.exitCode());
    const QStringList said =
        QString::fromUtf8(agent.readAllStandardError()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return QStringLiteral("the agent %1 before answering%2")
        .arg(how, said.isEmpty() ? QString()
                                 : QStringLiteral("; it last said: ") + said.last().trimmed().left(300));
}

AgentCollect collectWithLocalAgent(const QString& agentPath, const QStringList& agentArgs, int timeoutMs,
                                   const std::atomic<bool>* cancel) {
    if (agentPath.isEmpty())
        return {std::nullopt, QStringLiteral("rackscope-agent not found (set RACKSCOPE_AGENT)")};
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(agentPath, QStringList{QStringLiteral("--stdio")} + agentArgs);
    if (!process.waitForStarted(10000))
        return {std::nullopt, QStringLiteral("cannot start %1: %2").arg(agentPath, process.errorString())};

    AgentClient client(&process);
    AgentCollect out;
    bool done = false;
    const auto finish = [&](const QString& error) {
        if (out.error.isEmpty() && !out.snapshot)
            out.error = error;
        done = true;
    };
    qint64 id = -1;
    // The client's signals come from inside waitForReadyRead, on this thread: no event loop is needed, so
    // this runs on any thread, the GUI's worker threads included.
    QObject::connect(&client, &AgentClient::ready,
                     [&] { id = client.request(QString::fromLatin1(rsagent::protocol::method::kCollect)); });
    QObject::connect(&client, &AgentClient::result, [&](qint64 rid, const QJsonValue& r) {
        if (rid != id)
            return;
        out.snapshot = r.toObject();
        done = true;
    });
    QObject::connect(&client, &AgentClient::failed, [&](qint64, const QString& code, const QString& message) {
        finish(QStringLiteral("agent error %1: %2").arg(code, message));
    });
    QObject::connect(&client, &AgentClient::protocolError, [&](const QString& message) { finish(message); });
    const QDeadlineTimer deadline(timeoutMs);
    while (!done) {
        if (cancel && *cancel)
            finish(QStringLiteral("cancelled"));
        else if (deadline.hasExpired())
            finish(QStringLiteral("the agent did not answer within %1 s").arg(timeoutMs / 1000));
        else if (!process.waitForReadyRead(int(std::min<qint64>(deadline.remainingTime(), 100))) &&
                 process.state() == QProcess::NotRunning) {
            if (process.bytesAvailable() > 0)
                emit process.readyRead(); // what it wrote before it ended
            if (!done)
                finish(describeAgentEnd(process));
        }
    }
    process.closeWriteChannel(); // EOF: the agent exits cleanly
    if (!process.waitForFinished(5000))
        process.kill();
    return out;
}

} // namespace rackscope
