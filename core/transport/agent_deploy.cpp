#include "agent_deploy.h"

#include "shell_quote.h"

#include <QCryptographicHash>
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

QString remoteAgentPath(const QString& version) {
    return QStringLiteral(".cache/rackscope/agent/%1/rackscope-agent").arg(version);
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

std::optional<SshError> deployAgent(SshConnection& ssh, const AgentBinary& agent, const DeployOptions& o,
                                    Deployed* out) {
    const QString cached = remoteAgentPath(agent.version);
    // One fixed probe: the machine, the cached copy's digest, and each preinstalled agent's version.
    QString probe = QStringLiteral("uname -m; (sha256sum %1 2>/dev/null || echo none) | cut -d' ' -f1")
                        .arg(shellQuote(cached));
    for (const QString& p : o.preinstalled)
        probe += QStringLiteral("; (%1 --version 2>/dev/null || echo none) | head -n1").arg(shellQuote(p));
    ExecResult r;
    if (auto e = ssh.exec(probe, {}, o.timeoutMs, SshStage::Deploy, &r))
        return e;
    const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
    const QString machine = lines.value(0).trimmed();
    if (machine.isEmpty())
        return SshError{SshStage::Deploy, QStringLiteral("%1 did not say what machine it is (uname -m): %2")
                                              .arg(ssh.peer(), QString::fromUtf8(r.err.left(200)))};
    const QString wanted = QStringLiteral("rackscope-agent ") + agent.version;
    for (int i = 0; i < o.preinstalled.size(); ++i)
        if (lines.value(2 + i).trimmed() == wanted) {
            out->command = shellCommand({o.preinstalled[i], QStringLiteral("--stdio")}).line;
            out->how = QStringLiteral("preinstalled ") + o.preinstalled[i];
            return std::nullopt;
        }
    if (machine != agent.machine)
        return SshError{
            SshStage::Deploy,
            QStringLiteral(
                "%1 is %2, and this rackscope carries an agent for %3: install the rackscope-agent package "
                "for %2 there")
                .arg(ssh.peer(), machine, agent.machine)};
    out->command = shellCommand({cached, QStringLiteral("--stdio")}).line;
    if (lines.value(1).trimmed().toLatin1() == agent.sha256) {
        out->how = QStringLiteral("cached copy matched");
        return std::nullopt;
    }
    // Upload beside the target and rename, so a half-written file never runs.
    const QString dir = cached.section(QLatin1Char('/'), 0, -2);
    const QString tmp = cached + QStringLiteral(".part");
    const QString upload =
        QStringLiteral("umask 077 && mkdir -p %1 && cat > %2 && chmod 700 %2 && mv -f %2 %3")
            .arg(shellQuote(dir), shellQuote(tmp), shellQuote(cached));
    ExecResult u;
    if (auto e = ssh.exec(upload, agent.content, o.timeoutMs, SshStage::Deploy, &u))
        return e;
    if (u.exitStatus != 0)
        return SshError{SshStage::Deploy,
                        QStringLiteral("cannot write the agent to ~/%1 on %2 (status %3): %4")
                            .arg(cached, ssh.peer())
                            .arg(u.exitStatus)
                            .arg(QString::fromUtf8(u.err.trimmed().left(300)))};
    out->uploaded = true;
    out->how = QStringLiteral("uploaded");
    return std::nullopt;
}

} // namespace rackscope
