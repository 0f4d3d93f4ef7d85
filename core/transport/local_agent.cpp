#include "local_agent.h"

#include "agent_client.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QProcess>
#include <QTimer>

namespace rackscope {

QString findLocalAgent() {
    const QString env = qEnvironmentVariable("RACKSCOPE_AGENT");
    if (!env.isEmpty()) return env;
    // Installed: beside the program, or the copy the console package carries in lib/rackscope.
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& candidate : {dir + QStringLiteral("/rackscope-agent"), dir + QStringLiteral("/../lib/rackscope/rackscope-agent")})
        if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
#ifdef RACKSCOPE_BUILD_AGENT
    if (QFileInfo(QStringLiteral(RACKSCOPE_BUILD_AGENT)).isExecutable()) return QStringLiteral(RACKSCOPE_BUILD_AGENT);
#endif
    return {};
}

AgentCollect collectWithLocalAgent(const QString& agentPath, const QStringList& agentArgs, int timeoutMs) {
    if (agentPath.isEmpty()) return {std::nullopt, QStringLiteral("rackscope-agent not found (set RACKSCOPE_AGENT)")};
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(agentPath, QStringList{QStringLiteral("--stdio")} + agentArgs);
    if (!process.waitForStarted(10000))
        return {std::nullopt, QStringLiteral("cannot start %1: %2").arg(agentPath, process.errorString())};

    AgentClient client(&process);
    AgentCollect out;
    QEventLoop loop;
    qint64 id = -1;
    QObject::connect(&client, &AgentClient::ready, &loop, [&] { id = client.request(QStringLiteral("collect")); });
    QObject::connect(&client, &AgentClient::result, &loop, [&](qint64 rid, const QJsonValue& r) {
        if (rid != id) return;
        out.snapshot = r.toObject();
        loop.quit();
    });
    QObject::connect(&client, &AgentClient::failed, &loop, [&](qint64, const QString& code, const QString& message) {
        out.error = QStringLiteral("agent error %1: %2").arg(code, message);
        loop.quit();
    });
    QObject::connect(&client, &AgentClient::protocolError, &loop, [&](const QString& message) {
        out.error = message;
        loop.quit();
    });
    QObject::connect(&process, &QProcess::finished, &loop, [&] {
        if (!out.snapshot && out.error.isEmpty())
            out.error = QStringLiteral("the agent exited (status %1) before answering: %2")
                            .arg(process.exitCode())
                            .arg(QString::fromUtf8(process.readAllStandardError().trimmed().left(300)));
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, [&] {
        out.error = QStringLiteral("the agent did not answer within %1 s").arg(timeoutMs / 1000);
        loop.quit();
    });
    loop.exec();
    process.closeWriteChannel(); // EOF: the agent exits cleanly
    if (!process.waitForFinished(5000)) process.kill();
    return out;
}

} // namespace rackscope
