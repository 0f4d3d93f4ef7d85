#pragma once
// Puts the agent that matches this rackscope on a server and starts it:
// a copy under ~/.cache/rackscope/agent/<version>/ is checked by SHA-256 and
// uploaded only when missing or different; a preinstalled agent is used as
// is when its version matches. A server of another architecture, a noexec
// home, or an older glibc gets its own message.
#include "ssh_connection.h"

namespace rackscope {

struct AgentBinary {
    QString path;
    QString version; // what `rackscope-agent --version` and the hello report
    QByteArray content;
    QByteArray sha256; // lower-case hex
    QString machine;   // `uname -m` of the servers it runs on ("x86_64", "aarch64")
};

// Reads the local agent binary; an error says why it cannot be deployed.
std::optional<AgentBinary> loadAgentBinary(const QString& path, const QString& version, QString* error);
// "x86_64" for an ELF built for x86-64, "" when the file is not ELF.
QString elfMachine(const QByteArray& elf);

struct DeployOptions {
    QStringList preinstalled{QStringLiteral("/usr/bin/rackscope-agent"),
                             QStringLiteral("/usr/lib/rackscope/rackscope-agent")};
    int timeoutMs = 60000;
};

struct Deployed {
    QString command; // the remote command line that starts `--stdio`
    bool uploaded = false;
    QString how; // "uploaded", "cached copy matched", "preinstalled /usr/bin/rackscope-agent"
};

// The cache path relative to the remote home (where exec channels start).
QString remoteAgentPath(const QString& version);

std::optional<SshError> deployAgent(SshConnection& ssh, const AgentBinary& agent,
                                    const DeployOptions& options, Deployed* out);

// Turns what a failed start wrote (exit status, stderr) into a sentence.
QString explainAgentStartFailure(int exitStatus, const QByteArray& stderrText, const QString& machine);

} // namespace rackscope
