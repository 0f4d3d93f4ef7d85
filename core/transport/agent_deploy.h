#pragma once
// Puts the agent that matches this rackscope on a server and starts it, in
// one exec when it is there already: a preinstalled agent is used as is when
// its version matches, else the copy cached under
// ~/.cache/rackscope/agent/<version>/<digest>/, whose path names its SHA-256,
// so finding it is a test of a name and not the hashing of a file. Only when
// neither is there does the server say what machine it is, and the agent is
// uploaded. A server of another architecture, a noexec home, or an older
// glibc gets its own message.
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

// The cache path relative to the remote home (where exec channels start).
QString remoteAgentPath(const AgentBinary& agent);

// The one command line that starts `--stdio` where the server has the agent, first saying
// "rackscope-launch PATH"; where it has not, it says "rackscope-missing MACHINE" (`uname -m`).
QString launchCommand(const AgentBinary& agent, const DeployOptions& options);

struct Launch {
    enum class Kind { Started, Missing, Failed } kind = Kind::Failed;
    QString how;     // Started: "preinstalled /usr/bin/rackscope-agent" or "cached copy matched"
    QString machine; // Missing: the server's `uname -m`
    SshError error;  // Failed
};
// What the launch command said (lines the login shell's own files printed before it are skipped).
Launch readLaunch(SshChannel& channel, const AgentBinary& agent, int timeoutMs);

// Writes the agent to its cache path on a server of `machine` (beside it, then renamed, so a half-written
// file never runs; the version's older copies go).
std::optional<SshError> uploadAgent(SshConnection& ssh, const AgentBinary& agent, const QString& machine,
                                    const DeployOptions& options);

// Turns what a failed start wrote (exit status, stderr) into a sentence.
QString explainAgentStartFailure(int exitStatus, const QByteArray& stderrText, const QString& machine);

} // namespace rackscope
