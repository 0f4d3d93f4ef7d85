#pragma once
// Real SSH servers for the transport tests: each "host" is a network
// namespace with its own address on a bridge (or behind another host), its
// own host name, its own home directory and Debian's sshd with generated
// keys. Needs root (CI runs as root); everything made is removed in the
// destructor, even when a check failed. Only the test's own addresses are
// ever contacted.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <unistd.h>

namespace rackscope::test {

inline bool sh(const QString& command) {
    return QProcess::execute(QStringLiteral("sh"), {QStringLiteral("-c"), command}) == 0;
}
inline QByteArray shOut(const QString& command) {
    QProcess p;
    p.start(QStringLiteral("sh"), {QStringLiteral("-c"), command});
    p.waitForFinished(30000);
    return p.readAllStandardOutput();
}

class SshTestHosts {
public:
    struct Host {
        QString name, ns, address, home, hostKey;
        QString veth; // its link's end outside its namespace
        QProcess* sshd = nullptr;
    };

    // How much less than the test's own process the hosts' sshd and what it runs (the agent) get of
    // the CPU (nice(1)); hosts added after it is set. Above 0, they also run in a cpu cgroup of the
    // lowest weight where the kernel has one: each sshd session starts a scheduler autogroup of its
    // own, and nice does not reach across autogroups, so 32 sessions would otherwise get 32 shares
    // of the CPU to the test's one.
    int niceness = 0;
    // "NAME=VALUE" pairs that sshd sets in the sessions of the hosts added after it is set (its SetEnv), as a
    // server's own environment would: the NVML stand-in for a host with "GPUs".
    QStringList sessionEnvironment;
    // Shell commands run in the mount namespace of the hosts added after it is set, before their sshd starts:
    // what the server's own /sys shows (a captured tree mounted over a part of it).
    QString mountSetup;

    // Why the tests cannot run here, or empty.
    static QString missing() {
        if (::geteuid() != 0)
            return QStringLiteral("needs root to create network namespaces (CI runs as root)");
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            return QStringLiteral("needs Debian's openssh-server (/usr/sbin/sshd)");
        return {};
    }

    SshTestHosts() {
        tag_ = QString::number(QCoreApplication::applicationPid() % 100000);
        bridge_ = QStringLiteral("rsb") + tag_;
        QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation directory
        sh(QStringLiteral("ssh-keygen -q -t ed25519 -N '' -C rackscope-test -f %1")
               .arg(path(QStringLiteral("id_user"))));
        sh(QStringLiteral("ssh-keygen -q -t ed25519 -N '' -C other -f %1")
               .arg(path(QStringLiteral("id_other"))));
        // The first 10.213.N.0/24 (and its 10.214.N.0/24 behind-networks and 10.215.N.0/24 for hosts past
        // the 240th) no interface here uses.
        const QByteArray used = shOut(QStringLiteral("ip -o addr show"));
        for (int i = 0; i < 150 && !subnet_; ++i) {
            const int n = 100 + int((QCoreApplication::applicationPid() + i) % 150);
            if (!used.contains(QStringLiteral(" 10.213.%1.").arg(n).toUtf8()) &&
                !used.contains(QStringLiteral(" 10.214.%1.").arg(n).toUtf8()) &&
                !used.contains(QStringLiteral(" 10.215.%1.").arg(n).toUtf8()))
                subnet_ = n;
        }
        ok_ = subnet_ &&
              sh(QStringLiteral(
                     "ip link add %1 type bridge && ip addr add 10.213.%2.1/24 dev %1 && ip link set %1 up")
                     .arg(bridge_)
                     .arg(subnet_));
    }
    ~SshTestHosts() {
        for (auto& [name, h] : hosts_) {
            if (h.sshd) {
                sh(QStringLiteral("kill -CONT %1 2>/dev/null").arg(h.sshd->processId()));
                h.sshd->kill();
                h.sshd->waitForFinished(3000);
                delete h.sshd;
            }
            // The veth goes at once, both ends; a namespace only when its last process has died, and until
            // then the end left outside would keep its name from the next test's host.
            sh(QStringLiteral("ip link del %1 2>/dev/null; ip netns pids %2 2>/dev/null | xargs -r kill -9; "
                              "ip netns del %2 2>/dev/null")
                   .arg(h.veth, h.ns));
        }
        sh(QStringLiteral("ip link del %1 2>/dev/null").arg(bridge_));
        if (!cpuGroup_.isEmpty())
            QDir().rmdir(cpuGroup_); // empty once its processes were killed above
    }
    bool ok() const { return ok_; }
    QString path(const QString& name) const { return dir_.filePath(name); }
    QString userKey() const { return path(QStringLiteral("id_user")); }
    QString otherKey() const { return path(QStringLiteral("id_other")); }
    const Host& host(const QString& name) const { return hosts_.at(name); }
    int subnet() const { return subnet_; }
    const QString& bridge() const { return bridge_; }

    // A user only the password logs in as (its password is "secret"), seen only by the hosts that have it.
    static constexpr const char* kPasswordUser = "rspass";
    static constexpr const char* kPassword = "secret";

    // A host on the bridge. `behind`: reachable only through that host, on a network of its own.
    // `passwordUser`: the host has kPasswordUser, whose home is the host's home, and sshd takes passwords.
    enum class Login { Keys, Password, KeyboardInteractive };
    bool add(const QString& name, const QString& behind = {}, const QString& homeMountOptions = {},
             Login login = Login::Keys) {
        const bool passwordUser = login != Login::Keys;
        Host h;
        h.name = name;
        const int n = int(hosts_.size()) + 1;
        h.ns = QStringLiteral("rs%1n%2").arg(tag_).arg(n);
        const QString a = QStringLiteral("rs%1v%2a").arg(tag_).arg(n),
                      b = QStringLiteral("rs%1v%2b").arg(tag_).arg(n);
        h.veth = a;
        if (!sh(QStringLiteral("ip netns add %1 && ip -n %1 link set lo up && ip link add %2 type veth peer "
                               "name %3 && ip link set %3 netns %1")
                    .arg(h.ns, a, b)))
            return false;
        if (behind.isEmpty()) {
            // 240 hosts to a /24: the 241st and on (a benchmark's 256) are on a second network of the bridge,
            // which takes up to 1024 ports (the kernel's BR_MAX_PORTS); more than 480 hosts would need a
            // third.
            const int second = n > kHostsPerNetwork ? 1 : 0;
            if (second && !secondNetwork_)
                secondNetwork_ =
                    sh(QStringLiteral("ip addr add 10.215.%1.1/24 dev %2").arg(subnet_).arg(bridge_));
            h.address = QStringLiteral("10.%1.%2.%3")
                            .arg(213 + 2 * second)
                            .arg(subnet_)
                            .arg(10 + n - second * kHostsPerNetwork);
            if (!sh(QStringLiteral("ip link set %1 master %2 && ip link set %1 up").arg(a, bridge_)))
                return false;
        } else {
            // A point-to-point network between `behind` and this host: 10.214.<subnet>.<4n>/30.
            const Host& gw = hosts_.at(behind);
            const QString gwAddr = QStringLiteral("10.214.%1.%2").arg(subnet_).arg(4 * n + 1);
            h.address = QStringLiteral("10.214.%1.%2").arg(subnet_).arg(4 * n + 2);
            if (!sh(QStringLiteral("ip link set %1 netns %2 && ip -n %2 addr add %3/30 dev %1 && ip -n %2 "
                                   "link set %1 up")
                        .arg(a, gw.ns, gwAddr)))
                return false;
        }
        // Inside, the host's interface is eth0, as a server's would be, whatever it is called out here.
        if (!sh(QStringLiteral(
                    "ip -n %1 link set %4 name eth0 && ip -n %1 addr add %2/%3 dev eth0 && ip -n %1 link "
                    "set eth0 up")
                    .arg(h.ns, h.address, behind.isEmpty() ? QStringLiteral("24") : QStringLiteral("30"), b)))
            return false;
        h.home = path(QStringLiteral("home-") + name);
        QDir().mkpath(h.home + QStringLiteral("/.ssh"));
        QFile::copy(userKey() + QStringLiteral(".pub"), h.home + QStringLiteral("/.ssh/authorized_keys"));
        h.hostKey = path(QStringLiteral("hostkey-") + name);
        sh(QStringLiteral("ssh-keygen -q -t ed25519 -N '' -C %1 -f %2").arg(name, h.hostKey));
        const QString config = path(QStringLiteral("sshd-") + name + QStringLiteral(".conf"));
        QFile c(config);
        if (!c.open(QIODevice::WriteOnly))
            return false;
        c.write(QStringLiteral(
                    "ListenAddress %1\nHostKey %2\nPidFile %3\nAuthorizedKeysFile %4/.ssh/authorized_keys\n"
                    "PermitRootLogin prohibit-password\nPasswordAuthentication "
                    "%5\nKbdInteractiveAuthentication %6\n"
                    "UsePAM %6\nStrictModes no\nAllowTcpForwarding yes\nSubsystem sftp "
                    "internal-sftp\nLogLevel VERBOSE\n")
                    .arg(h.address, h.hostKey, path(QStringLiteral("sshd-") + name + QStringLiteral(".pid")),
                         h.home, login == Login::Password ? QStringLiteral("yes") : QStringLiteral("no"),
                         login == Login::KeyboardInteractive ? QStringLiteral("yes") : QStringLiteral("no"))
                    .toUtf8());
        if (!sessionEnvironment.isEmpty())
            c.write("SetEnv " + sessionEnvironment.join(QLatin1Char(' ')).toUtf8() + "\n");
        c.close();
        QString mount = QStringLiteral("mount --bind %1 /root").arg(h.home);
        if (passwordUser) {
            // The user exists only in copies of passwd/shadow/group that this host's mount namespace sees.
            // The hash is SHA-512 crypt of kPassword, fixed so no tool is needed to make it.
            const QString hash = QStringLiteral("$6$abc$IdWKNKTJEb8LxY7CGg8YBXlvtfZzFw7Mp/"
                                                "r6niK9YB2mdvgY..TKjv1T..8RadRt2qvUHYRLr/TsVArtr91iR1");
            const QString etc = path(QStringLiteral("etc-") + name);
            QDir().mkpath(etc);
            sh(QStringLiteral("cp /etc/passwd /etc/shadow /etc/group %1/ && echo "
                              "'%2:x:4242:4242::%3:/bin/sh' >> %1/passwd && "
                              "echo '%2:%4:19000:0:99999:7:::' >> %1/shadow && echo '%2:x:4242:' >> %1/group "
                              "&& chown -R 4242:4242 %3")
                   .arg(etc, QLatin1String(kPasswordUser), h.home, hash));
            QFile::setPermissions(dir_.path(), QFile::permissions(dir_.path()) | QFile::ExeGroup |
                                                   QFile::ExeOther); // the user reaches its home
            for (const char* f : {"passwd", "shadow", "group"})
                mount += QStringLiteral(" && mount --bind %1/%2 /etc/%2").arg(etc, QLatin1String(f));
        }
        if (!homeMountOptions.isEmpty())
            mount += QStringLiteral(" && mount -o remount,bind,%1 /root").arg(homeMountOptions);
        if (!mountSetup.isEmpty())
            mount += QStringLiteral(" && ") + mountSetup;
        h.sshd = new QProcess;
        h.sshd->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        h.sshd->start(QStringLiteral("ip"),
                      {QStringLiteral("netns"), QStringLiteral("exec"), h.ns, QStringLiteral("nice"),
                       QStringLiteral("-n"), QString::number(niceness), QStringLiteral("unshare"),
                       QStringLiteral("--uts"), QStringLiteral("--mount"), QStringLiteral("sh"),
                       QStringLiteral("-c"),
                       QStringLiteral("hostname %1 && %2 && exec /usr/sbin/sshd -D -e -q -f %3")
                           .arg(name, mount, config)});
        hosts_[name] = h;
        if (!h.sshd->waitForStarted(5000))
            return false;
        // ip, nice, unshare and sh each exec the next, so the process started is sshd. It moves from
        // out here: `ip netns exec` mounts a /sys of its own, without the cgroups.
        if (niceness > 0 && !lowCpuGroup().isEmpty()) {
            QFile procs(cpuGroup_ + QStringLiteral("/cgroup.procs"));
            if (!procs.open(QIODevice::WriteOnly) ||
                procs.write(QByteArray::number(h.sshd->processId())) <= 0)
                return false;
        }
        return waitForPort(h, behind);
    }

    // Known hosts with every host's real key, by the address a client connects to.
    QString knownHosts(const QStringList& names) const {
        const QString file = path(QStringLiteral("known_hosts-%1").arg(++files_));
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        for (const QString& n : names) {
            QFile pub(hosts_.at(n).hostKey + QStringLiteral(".pub"));
            pub.open(QIODevice::ReadOnly);
            f.write(hosts_.at(n).address.toUtf8() + ' ' + pub.readAll());
        }
        return file;
    }

    // An ssh_config naming every host, with the test's user key.
    QString sshConfig(const QString& extra = {}, const QString& identity = {}) const {
        QString text;
        for (const auto& [name, h] : hosts_)
            text += QStringLiteral(
                        "Host %1\n  HostName %2\n  User root\n  IdentityFile %3\n  IdentitiesOnly yes\n")
                        .arg(name, h.address, identity.isEmpty() ? userKey() : identity);
        text += extra;
        const QString file = path(QStringLiteral("ssh_config-%1").arg(++files_));
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        f.write(text.toUtf8());
        return file;
    }

    // Kills only the host's sessions: the server is still there to connect to again.
    // Kills the host's sessions (sshd stays) and returns once they are gone, their connections closed.
    void dropSessions(const QString& name) {
        sh(QStringLiteral(
               "sessions() { for p in $(ip netns pids %1); do grep -qa 'root@' /proc/$p/cmdline && "
               "echo $p; done; }; kill -9 $(sessions) 2>/dev/null; "
               "for i in $(seq 100); do [ -z \"$(sessions)\" ] && break; sleep 0.05; done; true")
               .arg(hosts_.at(name).ns));
    }
    void stop(const QString& name) {
        sh(QStringLiteral("kill -STOP %1").arg(hosts_.at(name).sshd->processId()));
    }
    // Kills the host's sshd and every session it serves: the connection drops.
    void drop(const QString& name) {
        sh(QStringLiteral("ip netns pids %1 | xargs -r kill -9").arg(hosts_.at(name).ns));
    }

private:
    // A cpu cgroup of the lowest weight (cgroup v1 or v2), made once; empty where there is none.
    QString lowCpuGroup() {
        if (!cpuGroup_.isEmpty())
            return cpuGroup_;
        const QString name = QStringLiteral("/rackscope-test-hosts-") + tag_;
        // v1: the cpu hierarchy's root has cpu.shares; v2: a child has cpu.weight when the root
        // hands the cpu controller down.
        const auto make = [&](const QString& root, const char* marker, const char* file,
                              const QByteArray& value) {
            if (!QFile::exists(root + QLatin1Char('/') + QLatin1String(marker)) || !QDir().mkdir(root + name))
                return false;
            QFile f(root + name + QLatin1Char('/') + QLatin1String(file));
            if (f.open(QIODevice::WriteOnly) && f.write(value) == value.size()) {
                cpuGroup_ = root + name;
                return true;
            }
            QDir().rmdir(root + name);
            return false;
        };
        if (!make(QStringLiteral("/sys/fs/cgroup/cpu"), "cpu.shares", "cpu.shares", "2"))
            make(QStringLiteral("/sys/fs/cgroup"), "cgroup.controllers", "cpu.weight", "1");
        return cpuGroup_;
    }

    bool waitForPort(const Host& h, const QString& behind) {
        for (int i = 0; i < 100; ++i) {
            const QString from =
                behind.isEmpty() ? QString() : QStringLiteral("ip netns exec %1 ").arg(hosts_.at(behind).ns);
            if (sh(from + QStringLiteral("bash -c 'exec 3<>/dev/tcp/%1/22' 2>/dev/null").arg(h.address)))
                return true;
            QTest::qWait(50);
        }
        return false;
    }

    static constexpr int kHostsPerNetwork = 240;
    QTemporaryDir dir_;
    QString tag_, bridge_, cpuGroup_;
    int subnet_ = 0;
    bool ok_ = false, secondNetwork_ = false;
    std::map<QString, Host> hosts_;
    mutable int files_ = 0;
};

} // namespace rackscope::test
