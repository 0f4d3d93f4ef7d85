#include "agent_deploy.h"

#include "shell_quote.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QFile>

namespace rackscope {

QString elfMachine(const QByteArray& elf) {
    if (elf.size() < 20 || !elf.startsWith("\x7f"
                                           "ELF"))
        return {};
    const bool little = elf[5] == 1;
    const auto b0 = quint8(elf[18]), b1 = quint8(elf[19]);
    switch (little ? (b0 | b1 << 8) : (b1 | b0 << 8)) {
    case 62:
        return QStringLiteral("x86_64");
    case 183:
        return QStringLiteral("aarch64");
    case 21:
        return QStringLiteral("ppc64le");
    case 243:
        return QStringLiteral("riscv64");
    default:
        return QStringLiteral("machine %1").arg(little ? (b0 | b1 << 8) : (b1 | b0 << 8));
    }
}

std::optional<AgentBinary> loadAgentBinary(const QString& path, const QString& version, QString* error) {
    QFile f(path);
    if (path.isEmpty() || !f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the agent to deploy was not found (%1); set RACKSCOPE_AGENT")
                     .arg(path.isEmpty() ? QStringLiteral("no path") : path);
        return std::nullopt;
    }
    AgentBinary a;
    a.path = path;
    a.version = version;
    a.content = f.read(256 << 20);
    a.sha256 = QCryptographicHash::hash(a.content, QCryptographicHash::Sha256).toHex();
    a.machine = elfMachine(a.content);
    if (a.machine.isEmpty()) {
        *error = QStringLiteral("%1 is not an ELF executable").arg(path);
        return std::nullopt;
    }
    return a;
}

QString remoteAgentPath(const AgentBinary& agent) {
    return QStringLiteral(".cache/rackscope/agent/%1/%2/rackscope-agent")
        .arg(agent.version, QString::fromLatin1(agent.sha256.left(16)));
}

QString launchCommand(const AgentBinary& agent, const DeployOptions& o) {
    // POSIX sh whatever the login shell is; every path is quoted here and the whole script once more.
    const QString launch = QStringLiteral("then echo \"rackscope-launch $a\"; exec \"$a\" --stdio; fi");
    QString script;
    if (!o.preinstalled.isEmpty()) {
        QStringList paths;
        for (const QString& p : o.preinstalled)
            paths << shellQuote(p);
        script +=
            QStringLiteral("for a in %1; do if [ -f \"$a\" ] && [ \"$(\"$a\" --version 2>/dev/null)\" = "
                           "%2 ]; %3; done; ")
                .arg(paths.join(QLatin1Char(' ')),
                     shellQuote(QStringLiteral("rackscope-agent ") + agent.version), launch);
    }
    script += QStringLiteral("a=%1; if [ -f \"$a\" ]; %2; echo \"rackscope-missing $(uname -m)\"")
                  .arg(shellQuote(remoteAgentPath(agent)), launch);
    return shellCommand({QStringLiteral("sh"), QStringLiteral("-c"), script}).line;
}

Launch readLaunch(SshChannel& channel, const AgentBinary& agent, int timeoutMs) {
    Launch l;
    const QDeadlineTimer deadline(timeoutMs);
    for (int skipped = 0; skipped < 1000; ++skipped) {
        QByteArray line;
        switch (channel.readLine(&line, 64 << 10, int(std::max<qint64>(1, deadline.remainingTime())))) {
        case ByteStream::Read::Line:
            if (line.startsWith("rackscope-launch ")) {
                const QString path = QString::fromUtf8(line.mid(17)).trimmed();
                l.kind = Launch::Kind::Started;
                l.how = path == remoteAgentPath(agent) ? QStringLiteral("cached copy matched")
                                                       : QStringLiteral("preinstalled ") + path;
                return l;
            }
            if (line.startsWith("rackscope-missing")) {
                l.kind = Launch::Kind::Missing;
                l.machine = QString::fromUtf8(line.mid(17)).trimmed();
                return l;
            }
            continue; // a login script's own words
        case ByteStream::Read::Cancelled:
            l.error = {SshStage::Agent, QStringLiteral("cancelled")};
            return l;
        case ByteStream::Read::Timeout:
            l.error = {
                SshStage::Agent,
                QStringLiteral("the server did not start the agent within %1 s").arg(timeoutMs / 1000.0)};
            return l;
        default:
            l.error = {SshStage::Agent, explainAgentStartFailure(channel.exitStatus().value_or(-1),
                                                                 channel.errorOutput(), agent.machine)};
            return l;
        }
    }
    l.error = {SshStage::Agent,
               QStringLiteral("the server's shell printed more than 1000 lines before the agent")};
    return l;
}

std::optional<SshError> uploadAgent(SshConnection& ssh, const AgentBinary& agent, const QString& machine,
                                    const DeployOptions& o) {
    if (machine.isEmpty())
        return SshError{SshStage::Deploy,
                        QStringLiteral("%1 did not say what machine it is (uname -m)").arg(ssh.peer())};
    if (machine != agent.machine)
        return SshError{
            SshStage::Deploy,
            QStringLiteral(
                "%1 is %2, and this rackscope carries an agent for %3: install the rackscope-agent package "
                "for %2 there")
                .arg(ssh.peer(), machine, agent.machine)};
    const QString cached = remoteAgentPath(agent);
    const QString versionDir = cached.section(QLatin1Char('/'), 0, -3);
    const QString dir = cached.section(QLatin1Char('/'), 0, -2);
    const QString tmp = cached + QStringLiteral(".part");
    const QString upload =
        QStringLiteral("umask 077 && rm -rf %1 && mkdir -p %2 && cat > %3 && chmod 700 %3 && mv -f %3 %4")
            .arg(shellQuote(versionDir), shellQuote(dir), shellQuote(tmp), shellQuote(cached));
    ExecResult u;
    if (auto e = ssh.exec(upload, agent.content, o.timeoutMs, SshStage::Deploy, &u))
        return e;
    if (u.exitStatus != 0)
        return SshError{SshStage::Deploy,
                        QStringLiteral("cannot write the agent to ~/%1 on %2 (status %3): %4")
                            .arg(cached, ssh.peer())
                            .arg(u.exitStatus)
                            .arg(QString::fromUtf8(u.err.trimmed().left(300)))};
    return std::nullopt;
}

QString explainAgentStartFailure(int status, const QByteArray& err, const QString& machine) {
    const QString text = QString::fromUtf8(err.trimmed().left(400));
    if (text.contains(QLatin1String("GLIBC_")) || text.contains(QLatin1String("GLIBCXX_")))
        return QStringLiteral("the server's C library is older than the agent needs (%1): install the "
                              "rackscope-agent package built for "
                              "that distribution, or point rackscope at a preinstalled agent")
            .arg(text);
    if (text.contains(QLatin1String("Exec format error")) ||
        text.contains(QLatin1String("cannot execute binary file")))
        return QStringLiteral("the server cannot run a %1 binary (%2)").arg(machine, text);
    if (status == 126 || text.contains(QLatin1String("Permission denied")))
        return QStringLiteral(
                   "the server will not execute the agent from the home directory (mounted noexec?): %1")
            .arg(text);
    if (status == 127)
        return QStringLiteral("the agent is missing on the server: %1").arg(text);
    return QStringLiteral("the agent exited with status %1: %2")
        .arg(status)
        .arg(text.isEmpty() ? QStringLiteral("(no message)") : text);
}

} // namespace rackscope
