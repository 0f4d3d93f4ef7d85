#pragma once
// One SSH connection through libssh, used from one thread at a time:
// connect (directly or through a ProxyJump chain, which OpenSSH's `ssh -W`
// carries), verify the host key against known_hosts, authenticate with
// ssh-agent and keys (a password only when a person types it), then run
// fixed commands and keep a channel open for the agent protocol. Every
// blocking step has a deadline and looks at the cancel flag.
#include "byte_stream.h"
#include "ssh_config.h"

#include <QByteArray>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

struct ssh_channel_struct; // libssh's channel

namespace rackscope {

enum class SshStage { Connect, HostKey, Auth, Deploy, Agent, Request };
QString stageName(SshStage stage); // "connect", "host-key", "auth", "deploy", "agent", "request"

struct SshError {
    SshStage stage = SshStage::Connect;
    QString message;
};

struct HostKeyFacts {
    QString host;        // as known_hosts names it ("[10.0.0.2]:2222")
    QString type;        // "ssh-ed25519"
    QString fingerprint; // "SHA256:..."
};

enum class UnknownHostKeys { Refuse, AcceptNew }; // a changed key is always refused

struct SshOptions {
    QString knownHostsFile; // empty: the target's UserKnownHostsFile, else ~/.ssh/known_hosts
    UnknownHostKeys unknownKeys = UnknownHostKeys::Refuse;
    // Asked about an unknown key (the GUI's dialog); true trusts and records it. A question still open when
    // `cancel` is set is given up (false), so stopping a fleet never waits on a person.
    std::function<bool(const HostKeyFacts&, const std::atomic<bool>* cancel)> askAboutUnknownKey;
    // Asked for a password or keyboard-interactive answer; nothing is kept. Given up the same way (nothing).
    std::function<std::optional<QString>(const QString& prompt, const std::atomic<bool>* cancel)> askPassword;
    int connectTimeoutMs = 10000;
    int authTimeoutMs = 10000;
    const std::atomic<bool>* cancel = nullptr;
};

// The ProxyCommand line that carries a ProxyJump chain through OpenSSH (one `ssh -W` per hop, reading
// no config file of its own), with its messages appended to errorLog.
QString jumpCommand(const SshTarget& target, const SshOptions& options, const QString& knownHostsFile,
                    const QString& errorLog);

struct ExecResult {
    int exitStatus = -1;
    QByteArray out, err;
};

class SshChannel;

class SshConnection {
public:
    SshConnection();
    ~SshConnection();
    SshConnection(const SshConnection&) = delete;
    SshConnection& operator=(const SshConnection&) = delete;

    std::optional<SshError> open(const SshTarget& target, const SshOptions& options);
    bool isOpen() const;
    void close();
    const QString& peer() const { return peer_; }

    // Runs one command line (built with shellCommand) to its end, feeding it input.
    std::optional<SshError> exec(const QString& commandLine, const QByteArray& input, int timeoutMs,
                                 SshStage stage, ExecResult* result);
    // Starts a command whose channel stays open (the agent's --stdio).
    std::unique_ptr<SshChannel> start(const QString& commandLine, SshError* error);
    // A channel to host:port as the server sees them (direct-tcpip, as `ssh -L` opens): "localhost" is the
    // server's own loopback. Nothing listens on this machine.
    std::unique_ptr<SshChannel> forward(const QString& host, quint16 port, SshError* error);

    // How many times this connection has waited for the server's answer (to the handshake, each
    // authentication attempt, each channel's opening), for a profile of where a host's time goes.
    int roundTrips() const { return roundTrips_; }

private:
    std::unique_ptr<SshChannel> openChannel(const std::function<int(ssh_channel_struct*)>& open,
                                            SshStage stage, const QString& what, SshError* error);
    std::optional<SshError> verifyHostKey(const SshOptions& options);
    std::optional<SshError> authenticate(const SshTarget& target, const SshOptions& options);
    struct Impl;
    std::unique_ptr<Impl> d_;
    QString peer_;
    const std::atomic<bool>* cancel_ = nullptr;
    int answerTimeoutMs_ = 10000; // for a channel's opening, as for authentication
    int roundTrips_ = 0;
};

class SshChannel : public ByteStream {
public:
    ~SshChannel() override;
    bool write(const QByteArray& data) override;
    // Reads no longer stop at the cancel flag, only at their timeout: to read a cancelled run to its end.
    void ignoreCancel() { cancel_ = nullptr; }
    QByteArray errorOutput() const { return err_; } // what the command wrote to stderr so far (first 64 KiB)
    std::optional<int> exitStatus();
    void close();
    // Kept until the channel is closed (after it): what must outlive it, a lock on its connection.
    void holdWhileOpen(std::shared_ptr<void> held) { held_ = std::move(held); }

protected:
    Got receive(QByteArray* buffer, int waitMs) override;

private:
    friend class SshConnection;
    struct Impl;
    std::shared_ptr<void> held_; // before d_: released after the channel
    std::unique_ptr<Impl> d_;
    QByteArray err_;
    SshChannel();
    void drainStderr();
};

} // namespace rackscope
