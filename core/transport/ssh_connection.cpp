#include "ssh_connection.h"

#include "logging.h"
#include "shell_quote.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QThread>
#include <libssh/libssh.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

namespace rackscope {
namespace {

bool cancelled(const std::atomic<bool>* c) {
    return c && c->load();
}

QString lastError(ssh_session s) {
    return QString::fromUtf8(ssh_get_error(s));
}

QString knownHostsFileFor(const SshTarget& t, const SshOptions& o) {
    if (!o.knownHostsFile.isEmpty())
        return o.knownHostsFile;
    if (!t.userKnownHostsFile.isEmpty())
        return t.userKnownHostsFile;
    return QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
}

// What OpenSSH wrote while carrying the jump chain: the innermost hop's words come first (the hop that
// failed), the outer hops' consequences after them.
QString openSshSaid(QTemporaryFile* file) {
    if (!file)
        return {};
    QFile f(file->fileName());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    if (f.size() > 4096)
        f.seek(f.size() - 4096);
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QString& l : lines)
        l = l.trimmed();
    lines.removeAll(QString());
    return lines.mid(std::max<qsizetype>(0, lines.size() - 6)).join(QStringLiteral("; "));
}

// sshd sends a packet of its own after authentication (its host keys) and then the answer to the channel
// we open; without an ACK for the first, its Nagle holds the second until our delayed ACK, 40 ms later.
// Asking for quick-ACK sends an ACK that is due at once (the kernel does not keep the mode, so it is asked
// for each time something came).
void quickAck(ssh_session s) {
    const int fd = ssh_get_fd(s);
    const int on = 1;
    if (fd >= 0)
        ::setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
}

} // namespace

// The jump chain as one command line: one `ssh -W` per hop, each hop reached through the previous
// one's command. Each ssh reads no config file (-F /dev/null): rackscope's own reading of the
// config gives every hop's address, user, port and keys, and the host-key policy is the same as
// for the target. OpenSSH's messages go to `errorLog`.
QString jumpCommand(const SshTarget& t, const SshOptions& o, const QString& knownHosts,
                    const QString& errorLog) {
    const QStringList common{QStringLiteral("-F"),
                             QStringLiteral("/dev/null"),
                             QStringLiteral("-o"),
                             QStringLiteral("BatchMode=yes"),
                             QStringLiteral("-o"),
                             QStringLiteral("StrictHostKeyChecking=") +
                                 (o.unknownKeys == UnknownHostKeys::AcceptNew ? QStringLiteral("accept-new")
                                                                              : QStringLiteral("yes")),
                             QStringLiteral("-o"),
                             QStringLiteral("UserKnownHostsFile=") + knownHosts,
                             QStringLiteral("-o"),
                             QStringLiteral("GlobalKnownHostsFile=") +
                                 (o.knownHostsFile.isEmpty() ? QStringLiteral("/etc/ssh/ssh_known_hosts")
                                                             : QStringLiteral("/dev/null")),
                             QStringLiteral("-o"),
                             QStringLiteral("ConnectTimeout=%1").arg(std::max(1, o.connectTimeoutMs / 1000))};
    QString previous;
    for (size_t i = 0; i < t.proxyJump.size(); ++i) {
        const SshJump& hop = t.proxyJump[i];
        const bool last = i + 1 == t.proxyJump.size();
        const QString next = last ? t.hostName : t.proxyJump[i + 1].address;
        const int nextPort = last ? t.port : t.proxyJump[i + 1].addressPort;
        QStringList argv{QStringLiteral("ssh")};
        argv << common;
        argv << QStringLiteral("-o")
             << QStringLiteral("ProxyCommand=") +
                    (previous.isEmpty() ? QStringLiteral("none")
                                        : QString(previous).replace(QLatin1Char('%'), QLatin1String("%%")));
        for (const QString& key : hop.identityFiles)
            argv << QStringLiteral("-i") << key;
        if (!hop.user.isEmpty())
            argv << QStringLiteral("-l") << hop.user;
        argv << QStringLiteral("-p") << QString::number(hop.addressPort);
        argv << QStringLiteral("-W") << QStringLiteral("[%1]:%2").arg(next).arg(nextPort)
             << (hop.address.isEmpty() ? hop.host : hop.address);
        previous = shellCommand(argv).line;
    }
    return previous + QStringLiteral(" 2>>") + shellQuote(errorLog);
}

QString stageName(SshStage s) {
    switch (s) {
    case SshStage::Connect:
        return QStringLiteral("connect");
    case SshStage::HostKey:
        return QStringLiteral("host-key");
    case SshStage::Auth:
        return QStringLiteral("auth");
    case SshStage::Deploy:
        return QStringLiteral("deploy");
    case SshStage::Agent:
        return QStringLiteral("agent");
    case SshStage::Request:
        return QStringLiteral("request");
    }
    return {};
}

struct SshConnection::Impl {
    ssh_session session = nullptr;
    std::unique_ptr<QTemporaryFile> hopErrors; // OpenSSH's messages from the jump chain
    ~Impl() {
        if (!session)
            return;
        if (ssh_is_connected(session))
            ssh_disconnect(session);
        ssh_free(session);
    }
};

struct SshChannel::Impl {
    ssh_channel channel = nullptr;
    ~Impl() {
        if (!channel)
            return;
        ssh_channel_close(channel);
        ssh_channel_free(channel);
    }
};

SshConnection::SshConnection() = default;
SshConnection::~SshConnection() = default;

bool SshConnection::isOpen() const {
    return d_ && d_->session && ssh_is_connected(d_->session);
}
void SshConnection::close() {
    d_.reset();
}

std::optional<SshError> SshConnection::open(const SshTarget& t, const SshOptions& o) {
    close();
    cancel_ = o.cancel;
    answerTimeoutMs_ = o.authTimeoutMs;
    d_ = std::make_unique<Impl>();
    d_->session = ssh_new();
    ssh_session s = d_->session;
    peer_ = t.port == 22 ? t.hostName : QStringLiteral("%1:%2").arg(t.hostName).arg(t.port);
    const QByteArray host = t.hostName.toUtf8(), user = t.user.toUtf8();
    const unsigned port = unsigned(t.port);
    ssh_options_set(s, SSH_OPTIONS_HOST, host.constData());
    ssh_options_set(s, SSH_OPTIONS_PORT, &port);
    if (!t.user.isEmpty())
        ssh_options_set(s, SSH_OPTIONS_USER, user.constData());
    // rackscope alone decides the settings: libssh must not read ~/.ssh/config or /etc/ssh/ssh_config
    // behind its back (a UserKnownHostsFile or ProxyCommand there would override the host-key policy).
    // SshConfig has read the user's file; what rackscope follows of it is set here, explicitly.
    const bool processConfig = false;
    ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
    const QString knownHosts = knownHostsFileFor(t, o);
    const QByteArray kh = knownHosts.toUtf8();
    ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, kh.constData());
    // --known-hosts is authoritative: no system-wide file adds keys beside it.
    if (!o.knownHostsFile.isEmpty())
        ssh_options_set(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null");
    // Each step of the handshake is a small packet sent right after another: with Nagle's algorithm on,
    // the second waits for the server's delayed ACK, 40 ms a step, four steps a host.
    const int noDelay = 1;
    ssh_options_set(s, SSH_OPTIONS_NODELAY, &noDelay);
    const long authSeconds = std::max(1, o.authTimeoutMs / 1000);
    ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &authSeconds);
    if (!t.proxyJump.empty()) {
        d_->hopErrors =
            std::make_unique<QTemporaryFile>(QDir::tempPath() + QStringLiteral("/rackscope-jump-XXXXXX.log"));
        d_->hopErrors->open();
        // libssh expands %h/%p in a ProxyCommand; the line is already literal.
        const QByteArray line = jumpCommand(t, o, knownHosts, d_->hopErrors->fileName())
                                    .replace(QLatin1Char('%'), QLatin1String("%%"))
                                    .toUtf8();
        ssh_options_set(s, SSH_OPTIONS_PROXYCOMMAND, line.constData());
    }

    // Connect without blocking, so a silent server and the cancel button are both bounded.
    ssh_set_blocking(s, 0);
    const QDeadlineTimer deadline(o.connectTimeoutMs);
    for (;;) {
        const int rc = ssh_connect(s);
        if (rc == SSH_OK)
            break;
        if (rc == SSH_ERROR) {
            SshError e{SshStage::Connect,
                       QStringLiteral("cannot connect to %1: %2").arg(peer_, lastError(s))};
            if (!t.proxyJump.empty()) {
                QStringList hops;
                for (const SshJump& j : t.proxyJump)
                    hops << j.host;
                const QString said = openSshSaid(d_->hopErrors.get());
                e.message += QStringLiteral(" (through %1; OpenSSH said: %2)")
                                 .arg(hops.join(QStringLiteral(" -> ")),
                                      said.isEmpty() ? QStringLiteral("nothing") : said);
            }
            close();
            return e;
        }
        if (cancelled(o.cancel)) {
            close();
            return SshError{SshStage::Connect, QStringLiteral("cancelled")};
        }
        if (deadline.hasExpired()) {
            close();
            return SshError{SshStage::Connect,
                            QStringLiteral("%1 did not complete the SSH handshake within %2 s")
                                .arg(peer_)
                                .arg(o.connectTimeoutMs / 1000.0)};
        }
        // Wake as soon as the server answers; at most 10 ms late while libssh waits to write.
        pollfd p{ssh_get_fd(s), POLLIN, 0};
        if (::poll(&p, 1, 10) > 0)
            ++roundTrips_; // the server's next answer came
    }
    ssh_set_blocking(s, 1);
    qCDebug(lcTransport) << peer_ << "connected"
                         << (t.proxyJump.empty() ? "directly" : "through a jump chain");
    if (auto e = verifyHostKey(o)) {
        close();
        return e;
    }
    if (auto e = authenticate(t, o)) {
        close();
        return e;
    }
    qCDebug(lcTransport) << peer_ << "host key verified, authenticated";
    return std::nullopt;
}

std::optional<SshError> SshConnection::verifyHostKey(const SshOptions& o) {
    ssh_session s = d_->session;
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(s, &key) != SSH_OK)
        return SshError{SshStage::HostKey, QStringLiteral("%1 sent no host key").arg(peer_)};
    unsigned char* hash = nullptr;
    size_t len = 0;
    HostKeyFacts facts;
    facts.host = peer_;
    facts.type = QString::fromUtf8(ssh_key_type_to_char(ssh_key_type(key)));
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) == 0) {
        char* fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
        facts.fingerprint = QString::fromUtf8(fp);
        ssh_string_free_char(fp);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(key);
    switch (ssh_session_is_known_server(s)) {
    case SSH_KNOWN_HOSTS_OK:
        return std::nullopt;
    case SSH_KNOWN_HOSTS_CHANGED:
        return SshError{
            SshStage::HostKey,
            QStringLiteral(
                "the host key of %1 has CHANGED (now %2 %3). Someone may be intercepting the "
                "connection, or the server was reinstalled. rackscope will not connect; if the change "
                "is expected, remove the old key (ssh-keygen -R) and connect again.")
                .arg(peer_, facts.type, facts.fingerprint)};
    case SSH_KNOWN_HOSTS_OTHER:
        return SshError{
            SshStage::HostKey,
            QStringLiteral("%1 offers a %2 key, but known_hosts has a key of another type for it; rackscope "
                           "will not connect. Check the server and update known_hosts.")
                .arg(peer_, facts.type)};
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN: {
        const bool trust = o.unknownKeys == UnknownHostKeys::AcceptNew ||
                           (o.askAboutUnknownKey && o.askAboutUnknownKey(facts, o.cancel));
        if (!trust)
            return SshError{
                SshStage::HostKey,
                QStringLiteral("%1 is not in known_hosts (its %2 key is %3). Verify the fingerprint, then "
                               "connect with --accept-new to record it, or add it with ssh-keyscan.")
                    .arg(peer_, facts.type, facts.fingerprint)};
        if (ssh_session_update_known_hosts(s) != SSH_OK)
            return SshError{
                SshStage::HostKey,
                QStringLiteral("cannot record the key of %1 in known_hosts: %2").arg(peer_, lastError(s))};
        return std::nullopt;
    }
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    return SshError{SshStage::HostKey,
                    QStringLiteral("cannot check the host key of %1: %2").arg(peer_, lastError(s))};
}

std::optional<SshError> SshConnection::authenticate(const SshTarget& t, const SshOptions& o) {
    ssh_session s = d_->session;
    const auto asked = [this](int rc) { // each attempt is a request the server answers
        ++roundTrips_;
        return rc;
    };
    int rc = asked(ssh_userauth_none(s, nullptr));
    if (rc == SSH_AUTH_SUCCESS)
        return std::nullopt;
    const int methods = ssh_userauth_list(s, nullptr);
    QStringList tried;
    if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
        if (!qEnvironmentVariable("SSH_AUTH_SOCK").isEmpty()) {
            tried << QStringLiteral("ssh-agent");
            if (asked(ssh_userauth_agent(s, nullptr)) == SSH_AUTH_SUCCESS)
                return std::nullopt;
        }
        for (const QString& file : t.identityFiles) {
            if (!QFileInfo::exists(file))
                continue;
            tried << file;
            ssh_key key = nullptr;
            if (ssh_pki_import_privkey_file(file.toUtf8().constData(), nullptr, nullptr, nullptr, &key) !=
                SSH_OK) {
                tried.last() +=
                    QStringLiteral(" (cannot read it, or it needs a passphrase: load it into ssh-agent)");
                continue;
            }
            rc = asked(ssh_userauth_publickey(s, nullptr, key));
            ssh_key_free(key);
            if (rc == SSH_AUTH_SUCCESS)
                return std::nullopt;
        }
        if (t.identityFiles.isEmpty()) {
            tried << QStringLiteral("the default keys in ~/.ssh");
            if (asked(ssh_userauth_publickey_auto(s, nullptr, nullptr)) == SSH_AUTH_SUCCESS)
                return std::nullopt;
        }
    }
    if (o.askPassword && (methods & SSH_AUTH_METHOD_PASSWORD)) {
        tried << QStringLiteral("a password");
        if (const auto pw =
                o.askPassword(QStringLiteral("Password for %1@%2:").arg(t.user, t.hostName), o.cancel)) {
            QByteArray secret = pw->toUtf8();
            rc = asked(ssh_userauth_password(s, nullptr, secret.constData()));
            secret.fill('\0');
            if (rc == SSH_AUTH_SUCCESS)
                return std::nullopt;
        }
    }
    if (o.askPassword && (methods & SSH_AUTH_METHOD_INTERACTIVE)) {
        tried << QStringLiteral("keyboard-interactive");
        rc = asked(ssh_userauth_kbdint(s, nullptr, nullptr));
        for (int round = 0; rc == SSH_AUTH_INFO && round < 8; ++round) {
            bool answered = true;
            for (int i = 0; answered && i < ssh_userauth_kbdint_getnprompts(s); ++i) {
                char echo = 0;
                const QString prompt =
                    QString::fromUtf8(ssh_userauth_kbdint_getprompt(s, unsigned(i), &echo)).trimmed();
                const auto answer =
                    o.askPassword(QStringLiteral("%1@%2 asks: %3").arg(t.user, t.hostName, prompt), o.cancel);
                answered = answer.has_value();
                if (!answered)
                    break;
                QByteArray secret = answer->toUtf8();
                ssh_userauth_kbdint_setanswer(s, unsigned(i), secret.constData());
                secret.fill('\0');
            }
            if (!answered)
                break;
            rc = asked(ssh_userauth_kbdint(s, nullptr, nullptr));
        }
        if (rc == SSH_AUTH_SUCCESS)
            return std::nullopt;
    }
    QStringList offered;
    if (methods & SSH_AUTH_METHOD_PUBLICKEY)
        offered << QStringLiteral("publickey");
    if (methods & SSH_AUTH_METHOD_PASSWORD)
        offered << QStringLiteral("password");
    if (methods & SSH_AUTH_METHOD_INTERACTIVE)
        offered << QStringLiteral("keyboard-interactive");
    return SshError{
        SshStage::Auth,
        QStringLiteral("%1 refused %2 for user %3 (tried %4; it accepts %5)")
            .arg(peer_, tried.isEmpty() ? QStringLiteral("every method") : QStringLiteral("the keys"),
                 t.user.isEmpty() ? qEnvironmentVariable("USER") : t.user,
                 tried.isEmpty() ? QStringLiteral("nothing usable") : tried.join(QStringLiteral(", ")),
                 offered.isEmpty() ? QStringLiteral("nothing rackscope offers")
                                   : offered.join(QLatin1Char(',')))};
}

// A new channel of the session, opened by `open` (a session for a command, or a forwarded port); null and
// *error with `stage` and what libssh said when it cannot be.
std::unique_ptr<SshChannel> SshConnection::openChannel(const std::function<int(ssh_channel)>& open,
                                                       SshStage stage, const QString& what, SshError* error) {
    if (!isOpen()) {
        *error = {stage, QStringLiteral("not connected")};
        return nullptr;
    }
    std::unique_ptr<SshChannel> c(new SshChannel);
    c->cancel_ = cancel_;
    c->d_ = std::make_unique<SshChannel::Impl>();
    ssh_session s = d_->session;
    c->d_->channel = ssh_channel_new(s);
    if (!c->d_->channel) {
        *error = {stage, QStringLiteral("%1: %2").arg(what, lastError(s))};
        return nullptr;
    }
    // Without blocking, so that what came is ACKed at once (see quickAck) and the cancel flag is seen.
    ssh_set_blocking(s, 0);
    const QDeadlineTimer deadline(answerTimeoutMs_);
    int rc = SSH_AGAIN;
    while ((rc = open(c->d_->channel)) == SSH_AGAIN && !cancelled(cancel_) && !deadline.hasExpired()) {
        quickAck(s);
        pollfd p{ssh_get_fd(s), POLLIN, 0};
        if (::poll(&p, 1, 10) > 0)
            ++roundTrips_;
    }
    ssh_set_blocking(s, 1);
    if (rc != SSH_OK) {
        *error = {stage,
                  rc != SSH_AGAIN ? QStringLiteral("%1: %2").arg(what, lastError(s))
                  : cancelled(cancel_)
                      ? QStringLiteral("cancelled")
                      : QStringLiteral("%1: no answer within %2 s").arg(what).arg(answerTimeoutMs_ / 1000.0)};
        return nullptr;
    }
    return c;
}

std::unique_ptr<SshChannel> SshConnection::start(const QString& commandLine, SshError* error) {
    const QByteArray command = commandLine.toUtf8();
    return openChannel(
        [&](ssh_channel ch) {
            const int rc = ssh_channel_open_session(ch);
            return rc != SSH_OK ? rc : ssh_channel_request_exec(ch, command.constData());
        },
        SshStage::Agent, QStringLiteral("cannot start a command on %1").arg(peer_), error);
}

std::unique_ptr<SshChannel> SshConnection::forward(const QString& host, quint16 port, SshError* error) {
    const QByteArray name = host.toUtf8();
    return openChannel(
        [&](ssh_channel ch) { return ssh_channel_open_forward(ch, name.constData(), port, "127.0.0.1", 0); },
        SshStage::Request,
        QStringLiteral("%1 could not open port %2 on its %3").arg(peer_).arg(port).arg(host), error);
}

std::optional<SshError> SshConnection::exec(const QString& commandLine, const QByteArray& input,
                                            int timeoutMs, SshStage stage, ExecResult* r) {
    SshError e;
    auto ch = start(commandLine, &e);
    if (!ch)
        return SshError{stage, e.message};
    if (!input.isEmpty() && !ch->write(input)) {
        // Usually the command ended early (it could not write where it was told to): say why.
        ch->drainStderr();
        const auto status = ch->exitStatus();
        return SshError{stage, QStringLiteral("%1 stopped reading what was sent (status %2): %3")
                                   .arg(peer_, status ? QString::number(*status) : QStringLiteral("unknown"),
                                        QString::fromUtf8(ch->err_.trimmed().left(300)))};
    }
    ssh_channel_send_eof(ch->d_->channel);
    const QDeadlineTimer deadline(timeoutMs);
    char buf[65536];
    for (;;) {
        if (cancelled(cancel_))
            return SshError{stage, QStringLiteral("cancelled")};
        if (deadline.hasExpired())
            return SshError{stage, QStringLiteral("%1 did not finish `%2` within %3 s")
                                       .arg(peer_, commandLine.left(80))
                                       .arg(timeoutMs / 1000.0)};
        const int n = ssh_channel_read_timeout(ch->d_->channel, buf, sizeof buf, 0, 100);
        if (n > 0 && r->out.size() < (64 << 20))
            r->out.append(buf, n);
        ch->drainStderr();
        if (n == SSH_ERROR)
            return SshError{
                stage, QStringLiteral("the connection to %1 dropped: %2").arg(peer_, lastError(d_->session))};
        if (n == 0 && ssh_channel_is_eof(ch->d_->channel))
            break;
    }
    r->err = ch->err_;
    const QDeadlineTimer statusDeadline(2000);
    while (ssh_channel_get_exit_status(ch->d_->channel) == -1 && !statusDeadline.hasExpired())
        QThread::msleep(5);
    r->exitStatus = ssh_channel_get_exit_status(ch->d_->channel);
    return std::nullopt;
}

SshChannel::SshChannel() = default;
SshChannel::~SshChannel() = default;

void SshChannel::close() {
    d_.reset();
    held_.reset();
}

bool SshChannel::write(const QByteArray& data) {
    if (!d_)
        return false;
    qsizetype done = 0;
    while (done < data.size()) {
        const int n = ssh_channel_write(d_->channel, data.constData() + done,
                                        uint32_t(std::min<qsizetype>(data.size() - done, 1 << 20)));
        if (n == SSH_ERROR)
            return false;
        done += n;
    }
    return true;
}

void SshChannel::drainStderr() {
    char buf[4096];
    int n;
    while (d_ && (n = ssh_channel_read_nonblocking(d_->channel, buf, sizeof buf, 1)) > 0)
        if (err_.size() < 64 * 1024)
            err_.append(buf, n);
}

ByteStream::Got SshChannel::receive(QByteArray* buffer, int waitMs) {
    if (!d_)
        return Got::Failed;
    char buf[65536];
    const int n = ssh_channel_read_timeout(d_->channel, buf, sizeof buf, 0, waitMs);
    drainStderr();
    if (n == SSH_ERROR)
        return Got::Failed;
    if (n > 0) {
        buffer->append(buf, n);
        return Got::Data;
    }
    return ssh_channel_is_eof(d_->channel) || ssh_channel_is_closed(d_->channel) ? Got::End : Got::Nothing;
}

std::optional<int> SshChannel::exitStatus() {
    if (!d_)
        return std::nullopt;
    const QDeadlineTimer deadline(1000);
    int status;
    while ((status = ssh_channel_get_exit_status(d_->channel)) == -1 && !deadline.hasExpired())
        QThread::msleep(5);
    return status == -1 ? std::nullopt : std::optional(status);
}

} // namespace rackscope
