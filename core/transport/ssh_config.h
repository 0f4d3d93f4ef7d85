#pragma once
// What ~/.ssh/config says for one host, read the way OpenSSH reads it: Host
// blocks with wildcard and negated patterns, the first value obtained for a
// keyword wins (IdentityFile accumulates), Include, HostName with %h.
// Only the keywords rackscope uses are kept; Match blocks other than
// "Match all" are skipped, and said so in `notes`.
#include <QString>
#include <QStringList>

namespace rackscope {

struct SshJump {
    QString user, host;
    int port = 0; // 0: as the config says for that host
    QString
        address; // the host's HostName and port as the config resolves them: where the hop before connects
    int addressPort = 22;
    QStringList identityFiles; // the config's IdentityFile lines for that host, expanded
};

struct SshTarget {
    QString alias;    // as the user wrote it
    QString hostName; // what to connect to
    QString user;     // empty: the local user
    int port = 22;
    QStringList identityFiles;      // expanded (~, %h, %r, %u)
    std::vector<SshJump> proxyJump; // the chain, first hop first; empty for a direct connection
    QString userKnownHostsFile;
    int connectTimeoutS = 0; // 0: not set
    QStringList notes;       // what the config had that rackscope does not follow
};

class SshConfig {
public:
    // An empty path or a missing file is an empty config, as for ssh.
    static SshConfig fromFile(const QString& path);
    static SshConfig fromText(const QString& text, const QString& includeDir = {});

    SshTarget resolve(const QString& alias) const;
    // Every host the config does not already send through a jump goes through
    // this one, as a "Host * !JUMP" block with "ProxyJump JUMP" at the end of
    // the config would say (the connect dialog's jump host). False, and
    // nothing changed, when `jump` is not [user@]host[:port].
    bool addJumpForAll(const QString& jump);
    // "user@host:port" -> its parts; false for what is not one.
    static bool parseJump(const QString& text, SshJump* out);

private:
    struct Entry {
        QStringList patterns;
        QString keyword, value;
        bool skip = false;
    };
    std::vector<Entry> entries_;
    QStringList notes_;
    void read(const QString& text, const QString& includeDir, int depth);
    SshTarget resolveDirect(const QString& alias, bool withJumps = false) const;
};

bool sshPatternMatches(const QStringList& patterns, const QString& host);

} // namespace rackscope
