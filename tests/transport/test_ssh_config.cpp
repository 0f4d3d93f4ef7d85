// ~/.ssh/config as OpenSSH reads it: first value wins, wildcards and
// negation, IdentityFile accumulating, Include, ProxyJump chains.
#include "test_support.h"

#include "transport/ssh_config.h"
#include "transport/ssh_connection.h"

#include <QTemporaryDir>

using namespace rackscope;

class TestSshConfig : public QObject {
    Q_OBJECT
private slots:
    void firstValueWins() {
        const SshConfig c = SshConfig::fromText(
            QStringLiteral("# cluster\nHost gpu* !gpu-login\n  User ops\n  Port 2222\n  IdentityFile "
                           "~/.ssh/id_gpu\n  ProxyJump jump@bastion:2200\n"
                           "Host gpu001\n  HostName 10.0.0.1\n  User someone-else\n\nHost *\n  User "
                           "fallback\n  IdentityFile=/etc/key-%h\n  ConnectTimeout 7\n"));
        const SshTarget t = c.resolve(QStringLiteral("gpu001"));
        QCOMPARE(t.user, QStringLiteral("ops"));
        QCOMPARE(t.port, 2222);
        QCOMPARE(t.hostName, QStringLiteral("10.0.0.1"));
        QCOMPARE(t.identityFiles, QStringList({QDir::homePath() + QStringLiteral("/.ssh/id_gpu"),
                                               QStringLiteral("/etc/key-10.0.0.1")}));
        QCOMPARE(t.proxyJump.size(), size_t(1));
        QCOMPARE(t.proxyJump[0].user, QStringLiteral("jump"));
        QCOMPARE(t.proxyJump[0].host, QStringLiteral("bastion"));
        QCOMPARE(t.proxyJump[0].port, 2200);
        QCOMPARE(t.connectTimeoutS, 7);
        // The negated pattern keeps gpu-login out of the first block.
        const SshTarget login = c.resolve(QStringLiteral("gpu-login"));
        QCOMPARE(login.user, QStringLiteral("fallback"));
        QCOMPARE(login.port, 22);
        QCOMPARE(login.hostName, QStringLiteral("gpu-login"));
        QVERIFY(login.proxyJump.empty());
    }

    void chainsAndNone() {
        const SshConfig c =
            SshConfig::fromText(QStringLiteral("Host inner\n ProxyJump b1,admin@b2:22,[fd00::1]:2222\nHost "
                                               "direct\n ProxyJump none\nHost *\n ProxyJump b0\n"));
        const SshTarget inner = c.resolve(QStringLiteral("inner"));
        QCOMPARE(inner.proxyJump.size(), size_t(3));
        QCOMPARE(inner.proxyJump[2].host, QStringLiteral("fd00::1"));
        QCOMPARE(inner.proxyJump[2].port, 2222);
        QVERIFY(c.resolve(QStringLiteral("direct")).proxyJump.empty());
        QCOMPARE(c.resolve(QStringLiteral("other")).proxyJump[0].host, QStringLiteral("b0"));
        SshJump j;
        QVERIFY(!SshConfig::parseJump(QStringLiteral("a b"), &j));
        QVERIFY(!SshConfig::parseJump(QStringLiteral("host:99999"), &j));
    }

    // Each hop's ssh reads no config file: what rackscope read of the config is on its command line.
    void jumpHopsCarryRackscopesSettings() {
        const SshConfig c = SshConfig::fromText(QStringLiteral(
            "Host gpu\n ProxyJump bastion\nHost bastion\n HostName 10.0.0.9\n User ops\n Port 2200\n"
            " IdentityFile /keys/ops\n ProxyCommand nc evil 22\n"));
        const SshTarget gpu = c.resolve(QStringLiteral("gpu"));
        QCOMPARE(gpu.proxyJump.size(), size_t(1));
        SshOptions o;
        o.knownHostsFile = QStringLiteral("/kh");
        const QString line = jumpCommand(gpu, o, QStringLiteral("/kh"), QStringLiteral("/tmp/log file"));
        for (const char* part : {"-F /dev/null", "StrictHostKeyChecking=yes", "UserKnownHostsFile=/kh",
                                 "GlobalKnownHostsFile=/dev/null", "ProxyCommand=none", "-i /keys/ops",
                                 "-l ops", "-p 2200", "10.0.0.9", "2>>'/tmp/log file'"})
            QVERIFY2(line.contains(QLatin1String(part)),
                     qPrintable(QLatin1String(part) + QStringLiteral(" not in ") + line));
        QVERIFY(!line.contains(QStringLiteral("evil")));
    }

    // The connect dialog's jump host: for every host the config leaves direct, never for the jump host
    // itself.
    void jumpForAll() {
        SshConfig c = SshConfig::fromText(
            QStringLiteral("Host special\n ProxyJump other\nHost bastion\n HostName 10.0.0.9\n"));
        QVERIFY(!c.addJumpForAll(QStringLiteral("not a host")));
        QVERIFY(c.resolve(QStringLiteral("gpu01")).proxyJump.empty());
        QVERIFY(c.addJumpForAll(QStringLiteral("admin@bastion:2222")));
        const SshTarget gpu = c.resolve(QStringLiteral("gpu01"));
        QCOMPARE(gpu.proxyJump.size(), size_t(1));
        QCOMPARE(gpu.proxyJump[0].user, QStringLiteral("admin"));
        QCOMPARE(gpu.proxyJump[0].port, 2222);
        QCOMPARE(gpu.proxyJump[0].address, QStringLiteral("10.0.0.9"));
        QVERIFY(c.resolve(QStringLiteral("bastion")).proxyJump.empty());
        QCOMPARE(c.resolve(QStringLiteral("special")).proxyJump[0].host, QStringLiteral("other"));
    }

    void includeAndMatch() {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("conf.d")));
        QFile inc(dir.filePath(QStringLiteral("conf.d/10-rack.conf")));
        QVERIFY(inc.open(QIODevice::WriteOnly));
        inc.write("Host rack*\n  User rackuser\n");
        inc.close();
        QFile main(dir.filePath(QStringLiteral("config")));
        QVERIFY(main.open(QIODevice::WriteOnly));
        main.write("Include conf.d/*.conf\nMatch exec \"true\"\n  User matched\nMatch all\n  Port 2022\n");
        main.close();
        const SshConfig c = SshConfig::fromFile(dir.filePath(QStringLiteral("config")));
        const SshTarget t = c.resolve(QStringLiteral("rack7"));
        QCOMPARE(t.user, QStringLiteral("rackuser"));
        QCOMPARE(t.port, 2022);
        QVERIFY(t.notes.join(QLatin1Char(' ')).contains(QStringLiteral("Match exec")));
        QCOMPARE(SshConfig::fromFile(QStringLiteral("/nonexistent")).resolve(QStringLiteral("x")).hostName,
                 QStringLiteral("x"));
    }

    void patterns() {
        QVERIFY(sshPatternMatches({QStringLiteral("*")}, QStringLiteral("a")));
        QVERIFY(sshPatternMatches({QStringLiteral("n?d*")}, QStringLiteral("node17")));
        QVERIFY(sshPatternMatches({QStringLiteral("NODE*")}, QStringLiteral("node17")));
        QVERIFY(!sshPatternMatches({QStringLiteral("n?d")}, QStringLiteral("node")));
        QVERIFY(!sshPatternMatches({QStringLiteral("!a*")},
                                   QStringLiteral("b"))); // a negation alone matches nothing
        QVERIFY(!sshPatternMatches({QStringLiteral("*"), QStringLiteral("!b*")}, QStringLiteral("bx")));
    }
};

QTEST_GUILESS_MAIN(TestSshConfig)
#include "test_ssh_config.moc"
