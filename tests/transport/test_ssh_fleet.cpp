// The fleet against real OpenSSH servers in network namespaces: fan-out with
// deploy and reuse, host keys unknown/accepted/changed, a wrong user key, a
// server that accepts TCP and never answers, a connection dropped mid-request,
// a noexec home, ProxyJump through a chain of two bastions, and cancel.
#include "test_support.h"
#include "transport/ssh_test_hosts.h"

#include "transport/fleet.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QString agentVersion() {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("--version")});
    p.waitForFinished(10000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed().section(QLatin1Char(' '), 1);
}

AgentBinary agentBinary() {
    QString error;
    const auto agent = loadAgentBinary(QStringLiteral(RACKSCOPE_AGENT), agentVersion(), &error);
    if (!agent)
        qFatal("%s", qPrintable(error));
    return *agent;
}

FleetOptions options(const QString& config, const QString& knownHosts) {
    FleetOptions o;
    o.config = SshConfig::fromFile(config);
    o.ssh.knownHostsFile = knownHosts;
    o.ssh.connectTimeoutMs = 3000;
    o.ssh.authTimeoutMs = 5000;
    o.requestTimeoutMs = 20000;
    o.deploy.preinstalled = {};
    o.agent = agentBinary();
    return o;
}

struct Outcome {
    std::map<QString, HostResult> results;
    std::map<QString, double> arrivedAfter; // seconds from the request
};

Outcome collect(Fleet& fleet, const QStringList& hosts, int timeoutMs = 60000,
                std::function<void()> during = {}) {
    Outcome out;
    QEventLoop loop;
    QElapsedTimer clock;
    clock.start();
    auto c1 = QObject::connect(&fleet, &Fleet::hostFinished, &loop, [&](const HostResult& r) {
        out.results[r.host] = r;
        out.arrivedAfter[r.host] = double(clock.elapsed()) / 1000.0;
    });
    auto c2 = QObject::connect(&fleet, &Fleet::finished, &loop, &QEventLoop::quit);
    fleet.request(hosts, QStringLiteral("collect"),
                  {{"sections", QJsonArray{QStringLiteral("versions"), QStringLiteral("net")}}});
    if (during)
        during();
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    return out;
}

QString describe(const HostResult& r) {
    return r.error ? stageName(r.error->stage) + QStringLiteral(": ") + r.error->message
                   : QStringLiteral("ok");
}

} // namespace

class TestSshFleet : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QSKIP(qPrintable(why));
    }

    void fanOutDeploysOnceAndReuses() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QStringList names;
        for (int i = 1; i <= 8; ++i) {
            names << QStringLiteral("h%1").arg(i);
            QVERIFY(hosts.add(names.last()));
        }
        const QString config = hosts.sshConfig();
        const QString known = hosts.knownHosts(names);
        // h1 has another build of this version cached (its digest names another directory), and a login
        // shell that talks before anything runs.
        const QString home = hosts.host(names[0]).home;
        const QString otherBuild =
            home + QStringLiteral("/.cache/rackscope/agent/%1/0123456789abcdef").arg(agentVersion());
        QVERIFY(QDir().mkpath(otherBuild));
        QFile bashrc(home + QStringLiteral("/.bashrc"));
        QVERIFY(bashrc.open(QIODevice::WriteOnly));
        bashrc.write("echo 'Welcome to h1'\necho 'rackscope-agent is not installed here'\n");
        bashrc.close();
        {
            Fleet fleet(options(config, known));
            const Outcome first = collect(fleet, names);
            QCOMPARE(int(first.results.size()), 8);
            for (const QString& n : names) {
                const HostResult& r = first.results.at(n);
                QVERIFY2(r.result, qPrintable(n + QStringLiteral(" ") + describe(r)));
                QCOMPARE(r.result->value("host").toString(), n); // each server's own agent answered
                QCOMPARE(r.deployed, QStringLiteral("uploaded"));
                QVERIFY(!r.reused);
                QVERIFY(
                    QFile::exists(hosts.host(n).home + QStringLiteral("/") + remoteAgentPath(agentBinary())));
            }
            QVERIFY(!QFileInfo::exists(otherBuild)); // the version's other copies went with the upload
            // The same fleet again: the connections and agents are reused.
            const Outcome second = collect(fleet, names);
            for (const QString& n : names) {
                QVERIFY2(second.results.at(n).result, qPrintable(describe(second.results.at(n))));
                QVERIFY(second.results.at(n).reused);
            }
        }
        // A new console: the cached copies match, nothing is uploaded; a preinstalled agent of another
        // version is passed over.
        const QString older = hosts.path(QStringLiteral("older-agent"));
        QFile script(older);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho 'rackscope-agent 0.0.1'\n");
        script.close();
        QFile::setPermissions(older, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        FleetOptions o = options(config, known);
        o.deploy.preinstalled = {older};
        Fleet again(o);
        const Outcome third = collect(again, names.mid(0, 2));
        QCOMPARE(third.results.at(QStringLiteral("h1")).deployed, QStringLiteral("cached copy matched"));
        QVERIFY(third.results.at(QStringLiteral("h1")).result);
    }

    void reconnectsAfterADrop() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("r1")));
        Fleet fleet(options(hosts.sshConfig(), hosts.knownHosts({QStringLiteral("r1")})));
        QVERIFY(collect(fleet, {QStringLiteral("r1")}).results.at(QStringLiteral("r1")).result);
        hosts.dropSessions(QStringLiteral("r1"));
        const HostResult again = collect(fleet, {QStringLiteral("r1")}).results.at(QStringLiteral("r1"));
        QVERIFY2(again.result, qPrintable(describe(again)));
        QVERIFY(!again.reused); // the dropped connection was opened afresh
    }

    void sshAgentAuthenticates() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("g1")));
        const QString socket = hosts.path(QStringLiteral("agent.sock"));
        QVERIFY(sh(QStringLiteral("ssh-agent -a %1 > %2.env && SSH_AUTH_SOCK=%1 ssh-add -q %3")
                       .arg(socket, socket, hosts.userKey())));
        const QByteArray before = qgetenv("SSH_AUTH_SOCK");
        qputenv("SSH_AUTH_SOCK", socket.toUtf8());
        // No identity file in the config: only the agent holds the key.
        const QString config = hosts.sshConfig({}, hosts.path(QStringLiteral("no-such-key")));
        const HostResult r = [&] {
            Fleet fleet(options(config, hosts.knownHosts({QStringLiteral("g1")})));
            return collect(fleet, {QStringLiteral("g1")}).results.at(QStringLiteral("g1"));
        }();
        sh(QStringLiteral("SSH_AGENT_PID=$(sed -n 's/SSH_AGENT_PID=\\([0-9]*\\).*/\\1/p' %1.env) ssh-agent "
                          "-k > /dev/null")
               .arg(socket));
        if (before.isEmpty())
            qunsetenv("SSH_AUTH_SOCK");
        else
            qputenv("SSH_AUTH_SOCK", before);
        QVERIFY2(r.result, qPrintable(describe(r)));
    }

    void passwordOnlyWhenTyped_data() {
        QTest::addColumn<int>("login");
        QTest::newRow("password") << int(SshTestHosts::Login::Password);
        QTest::newRow("keyboard-interactive (PAM)") << int(SshTestHosts::Login::KeyboardInteractive);
    }
    void passwordOnlyWhenTyped() {
        QFETCH(int, login);
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("p1"), {}, {}, SshTestHosts::Login(login)));
        const QString config = hosts.path(QStringLiteral("ssh_config-password"));
        QFile c(config);
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write(QStringLiteral("Host p1\n  HostName %1\n  User %2\n  IdentityFile %3\n")
                    .arg(hosts.host(QStringLiteral("p1")).address, QLatin1String(SshTestHosts::kPasswordUser),
                         hosts.path(QStringLiteral("no-key")))
                    .toUtf8());
        c.close();
        const QString known = hosts.knownHosts({QStringLiteral("p1")});
        auto attempt =
            [&](std::function<std::optional<QString>(const QString&, const std::atomic<bool>*)> ask) {
                FleetOptions o = options(config, known);
                o.ssh.askPassword = std::move(ask);
                Fleet fleet(o);
                return collect(fleet, {QStringLiteral("p1")}).results.at(QStringLiteral("p1"));
            };
        // Nobody to type it: refused, saying the server takes a password.
        const HostResult none = attempt({});
        QVERIFY(none.error);
        QCOMPARE(none.error->stage, SshStage::Auth);
        QVERIFY2(none.error->message.contains(login == int(SshTestHosts::Login::Password)
                                                  ? QStringLiteral("password")
                                                  : QStringLiteral("keyboard-interactive")),
                 qPrintable(none.error->message));
        const HostResult wrong =
            attempt([](const QString&, const std::atomic<bool>*) { return QStringLiteral("not-it"); });
        QVERIFY(wrong.error && wrong.error->stage == SshStage::Auth);
        // Typed: in, as that user, with the agent deployed into that user's home.
        QStringList prompts;
        const HostResult typed = attempt([&](const QString& prompt, const std::atomic<bool>*) {
            prompts << prompt;
            return QString::fromLatin1(SshTestHosts::kPassword);
        });
        QVERIFY2(typed.result, qPrintable(describe(typed)));
        QCOMPARE(prompts.size(), 1);
        QVERIFY(prompts[0].contains(QLatin1String(SshTestHosts::kPasswordUser)));
        QVERIFY(QFileInfo(hosts.host(QStringLiteral("p1")).home + QStringLiteral("/") +
                          remoteAgentPath(agentBinary()))
                    .ownerId() == 4242);
    }

    void hostKeys() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("k1")));
        QVERIFY(hosts.add(QStringLiteral("k2")));
        const QString config = hosts.sshConfig();
        // Unknown: refused with the fingerprint, unless the user accepts new keys (then recorded).
        const QString empty = hosts.path(QStringLiteral("known_hosts-empty"));
        {
            Fleet fleet(options(config, empty));
            const HostResult r = collect(fleet, {QStringLiteral("k1")}).results.at(QStringLiteral("k1"));
            QVERIFY(r.error);
            QCOMPARE(r.error->stage, SshStage::HostKey);
            QVERIFY2(r.error->message.contains(QStringLiteral("not in known_hosts")) &&
                         r.error->message.contains(QStringLiteral("SHA256:")),
                     qPrintable(r.error->message));
            QVERIFY(!QFile::exists(empty));
        }
        {
            FleetOptions o = options(config, empty);
            o.ssh.unknownKeys = UnknownHostKeys::AcceptNew;
            Fleet fleet(o);
            const HostResult r = collect(fleet, {QStringLiteral("k1")}).results.at(QStringLiteral("k1"));
            QVERIFY2(r.result, qPrintable(describe(r)));
            QFile f(empty);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(f.readAll().contains(hosts.host(QStringLiteral("k1")).address.toUtf8()));
        }
        {
            // Asked (as the GUI does): the question carries the fingerprint; a "no" refuses.
            FleetOptions o = options(config, hosts.path(QStringLiteral("known_hosts-asked")));
            QString askedAbout;
            o.ssh.askAboutUnknownKey = [&](const HostKeyFacts& k, const std::atomic<bool>*) {
                askedAbout = k.fingerprint;
                return false;
            };
            Fleet fleet(o);
            QVERIFY(collect(fleet, {QStringLiteral("k2")}).results.at(QStringLiteral("k2")).error);
            QVERIFY(askedAbout.startsWith(QStringLiteral("SHA256:")));
        }
        {
            // Changed: k1's address with k2's key. Refused, even when accepting new keys.
            const QString swapped = hosts.path(QStringLiteral("known_hosts-swapped"));
            QFile f(swapped);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QFile pub(hosts.host(QStringLiteral("k2")).hostKey + QStringLiteral(".pub"));
            QVERIFY(pub.open(QIODevice::ReadOnly));
            f.write(hosts.host(QStringLiteral("k1")).address.toUtf8() + ' ' + pub.readAll());
            f.close();
            FleetOptions o = options(config, swapped);
            o.ssh.unknownKeys = UnknownHostKeys::AcceptNew;
            Fleet fleet(o);
            const HostResult r = collect(fleet, {QStringLiteral("k1")}).results.at(QStringLiteral("k1"));
            QVERIFY(r.error);
            QCOMPARE(r.error->stage, SshStage::HostKey);
            QVERIFY2(r.error->message.contains(QStringLiteral("CHANGED")), qPrintable(r.error->message));
        }
    }

    void wrongUserKey() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("w1")));
        Fleet fleet(options(hosts.sshConfig({}, hosts.otherKey()), hosts.knownHosts({QStringLiteral("w1")})));
        const HostResult r = collect(fleet, {QStringLiteral("w1")}).results.at(QStringLiteral("w1"));
        QVERIFY(r.error);
        QCOMPARE(r.error->stage, SshStage::Auth);
        QVERIFY2(r.error->message.contains(hosts.otherKey()) &&
                     r.error->message.contains(QStringLiteral("publickey")),
                 qPrintable(r.error->message));
    }

    void silentServerDelaysOnlyItself() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        const QStringList good{QStringLiteral("s1"), QStringLiteral("s2"), QStringLiteral("s3")};
        for (const QString& n : good + QStringList{QStringLiteral("mute")})
            QVERIFY(hosts.add(n));
        hosts.stop(QStringLiteral("mute")); // the kernel still accepts TCP; sshd never sends its banner
        const QString config = hosts.sshConfig(),
                      known = hosts.knownHosts(good + QStringList{QStringLiteral("mute")});
        // How long the good hosts take here (deploy and collect, under ASan on a busy machine too):
        // the silent host's deadline is set well above that, so the order below is the claim, not a race.
        double goodAlone = 0;
        {
            Fleet fleet(options(config, known));
            const Outcome alone = collect(fleet, good);
            for (const QString& n : good) {
                QVERIFY2(alone.results.at(n).result, qPrintable(describe(alone.results.at(n))));
                goodAlone = std::max(goodAlone, alone.arrivedAfter.at(n));
            }
        }
        FleetOptions o = options(config, known);
        o.ssh.connectTimeoutMs = int(std::max(2.0, 3 * goodAlone + 2) * 1000);
        Fleet fleet(o);
        const Outcome out =
            collect(fleet, QStringList{QStringLiteral("mute")} + good, o.ssh.connectTimeoutMs + 60000);
        const HostResult& mute = out.results.at(QStringLiteral("mute"));
        QVERIFY(mute.error);
        QCOMPARE(mute.error->stage, SshStage::Connect);
        QVERIFY2(mute.error->message.contains(QStringLiteral("handshake")), qPrintable(mute.error->message));
        const double muteAfter = out.arrivedAfter.at(QStringLiteral("mute")),
                     deadline = o.ssh.connectTimeoutMs / 1000.0;
        QVERIFY2(muteAfter >= deadline - 0.05, qPrintable(QString::number(muteAfter)));
        QVERIFY2(muteAfter < deadline + 10,
                 qPrintable(QString::number(muteAfter))); // its own deadline ends it, not a later one
        for (const QString& n : good) {
            QVERIFY2(out.results.at(n).result, qPrintable(describe(out.results.at(n))));
            QVERIFY2(
                out.arrivedAfter.at(n) < muteAfter,
                qPrintable(
                    n +
                    QStringLiteral(" after %1 s, deadline %2 s").arg(out.arrivedAfter.at(n)).arg(deadline)));
        }
    }

    void cancelStopsWhatIsInFlight() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("c1")));
        hosts.stop(QStringLiteral("c1"));
        FleetOptions o = options(hosts.sshConfig(), hosts.knownHosts({QStringLiteral("c1")}));
        o.ssh.connectTimeoutMs = 30000;
        Fleet fleet(o);
        QElapsedTimer clock;
        clock.start();
        const Outcome out = collect(fleet, {QStringLiteral("c1")}, 10000,
                                    [&] { QTimer::singleShot(300, &fleet, &Fleet::cancel); });
        QVERIFY(clock.elapsed() < 2000);
        QCOMPARE(out.results.at(QStringLiteral("c1")).error->message, QStringLiteral("cancelled"));
    }

    void droppedMidRequest() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("d1")));
        // A preinstalled agent of the right version that answers slowly: its requests reach it 3 s late.
        const QString slow = hosts.path(QStringLiteral("slow-agent"));
        QFile f(slow);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("#!/bin/sh\nif [ \"$1\" = --version ]; then exec %1 --version; fi\n(sleep 3; "
                               "cat) | exec %1 --stdio\n")
                    .arg(QStringLiteral(RACKSCOPE_AGENT))
                    .toUtf8());
        f.close();
        QFile::setPermissions(slow, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        FleetOptions o = options(hosts.sshConfig(), hosts.knownHosts({QStringLiteral("d1")}));
        o.deploy.preinstalled = {slow};
        Fleet fleet(o);
        const Outcome out = collect(fleet, {QStringLiteral("d1")}, 30000, [&] {
            QTimer::singleShot(1000, [&] { hosts.drop(QStringLiteral("d1")); });
        });
        const HostResult& r = out.results.at(QStringLiteral("d1"));
        QVERIFY(r.error);
        QCOMPARE(r.deployed, QStringLiteral("preinstalled ") + slow);
        QCOMPARE(r.error->stage, SshStage::Request);
        QVERIFY2(r.error->message.contains(QStringLiteral("dropped")), qPrintable(r.error->message));
        QVERIFY(out.arrivedAfter.at(QStringLiteral("d1")) < 3.0);
    }

    void noexecHome() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("x1"), {}, QStringLiteral("noexec")));
        Fleet fleet(options(hosts.sshConfig(), hosts.knownHosts({QStringLiteral("x1")})));
        const HostResult r = collect(fleet, {QStringLiteral("x1")}).results.at(QStringLiteral("x1"));
        QVERIFY(r.error);
        QCOMPARE(r.error->stage, SshStage::Agent);
        QVERIFY2(r.error->message.contains(QStringLiteral("noexec")), qPrintable(r.error->message));
    }

    void olderCLibrary() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("o1")));
        // A preinstalled agent of the right version whose start fails the way ld.so fails on an older glibc.
        const QString old = hosts.path(QStringLiteral("old-glibc-agent"));
        QFile f(old);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("#!/bin/sh\nif [ \"$1\" = --version ]; then exec %1 --version; fi\n"
                               "echo \"$0: /lib/x86_64-linux-gnu/libc.so.6: version \\`GLIBC_2.38' not found "
                               "(required by $0)\" >&2\nexit 1\n")
                    .arg(QStringLiteral(RACKSCOPE_AGENT))
                    .toUtf8());
        f.close();
        QFile::setPermissions(old, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        FleetOptions o = options(hosts.sshConfig(), hosts.knownHosts({QStringLiteral("o1")}));
        o.deploy.preinstalled = {old};
        Fleet fleet(o);
        const HostResult r = collect(fleet, {QStringLiteral("o1")}).results.at(QStringLiteral("o1"));
        QVERIFY(r.error);
        QCOMPARE(r.error->stage, SshStage::Agent);
        QVERIFY2(r.error->message.contains(QStringLiteral("C library is older")) &&
                     r.error->message.contains(QStringLiteral("GLIBC_2.38")),
                 qPrintable(r.error->message));
    }

    void otherArchitecture() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("a1")));
        FleetOptions o = options(hosts.sshConfig(), hosts.knownHosts({QStringLiteral("a1")}));
        o.agent.machine = QStringLiteral("aarch64"); // as if this console carried an Arm agent
        Fleet fleet(o);
        const HostResult r = collect(fleet, {QStringLiteral("a1")}).results.at(QStringLiteral("a1"));
        QVERIFY(r.error);
        QCOMPARE(r.error->stage, SshStage::Deploy);
        QVERIFY2(r.error->message.contains(QStringLiteral("x86_64")) &&
                     r.error->message.contains(QStringLiteral("aarch64")),
                 qPrintable(r.error->message));
    }

    void cliInspectHosts() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        for (const char* n : {"c1", "c2", "c3", "mute"})
            QVERIFY(hosts.add(QLatin1String(n)));
        hosts.stop(QStringLiteral("mute"));
        const QString config = hosts.sshConfig();
        const QString known = hosts.knownHosts(
            {QStringLiteral("c1"), QStringLiteral("c2"), QStringLiteral("c3"), QStringLiteral("mute")});
        auto cli = [](const QStringList& args) {
            QProcess p;
            p.start(QStringLiteral(RACKSCOPE_CLI), args);
            p.waitForFinished(120000);
            return std::tuple(p.exitCode(), QJsonDocument::fromJson(p.readAllStandardOutput()).object(),
                              p.readAllStandardError());
        };
        const auto [code, doc, err] =
            cli({QStringLiteral("inspect"), QStringLiteral("--hosts"), QStringLiteral("c[1-3],mute"),
                 QStringLiteral("--ssh-config"), config, QStringLiteral("--known-hosts"), known,
                 QStringLiteral("--timeout"), QStringLiteral("30"), QStringLiteral("--json")});
        QCOMPARE(code, 1);
        const QJsonArray entries = doc.value("hosts").toArray();
        QCOMPARE(entries.size(), 4);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject e = entries[i].toObject();
            QCOMPARE(e.value("name").toString(), QStringLiteral("c%1").arg(i + 1));
            QVERIFY2(
                e.contains(QStringLiteral("gpu_nic")),
                qPrintable(QJsonDocument(e).toJson())); // slower under ASan on a busy machine: 30 s per stage
            QCOMPARE(e.value("source").toObject().value("location").toString(),
                     QStringLiteral("ssh://c%1").arg(i + 1));
        }
        const QJsonObject mute = entries[3].toObject();
        QCOMPARE(mute.value("name").toString(), QStringLiteral("mute"));
        QCOMPARE(mute.value("error").toObject().value("stage").toString(), QStringLiteral("connect"));
        QVERIFY(err.contains("mute: connect:"));
        // A server not in known_hosts: refused, then recorded with --accept-new.
        const QString fresh = hosts.path(QStringLiteral("known_hosts-cli"));
        const auto [refused, refusedDoc, refusedErr] =
            cli({QStringLiteral("inspect"), QStringLiteral("--hosts"), QStringLiteral("c1"),
                 QStringLiteral("--ssh-config"), config, QStringLiteral("--known-hosts"), fresh,
                 QStringLiteral("--json")});
        QCOMPARE(refused, 1);
        QCOMPARE(refusedDoc.value("hosts")
                     .toArray()
                     .first()
                     .toObject()
                     .value("error")
                     .toObject()
                     .value("stage")
                     .toString(),
                 QStringLiteral("host-key"));
        QVERIFY(refusedErr.contains("--accept-new"));
        const auto [accepted, acceptedDoc, acceptedErr] =
            cli({QStringLiteral("inspect"), QStringLiteral("--hosts"), QStringLiteral("c1"),
                 QStringLiteral("--ssh-config"), config, QStringLiteral("--known-hosts"), fresh,
                 QStringLiteral("--accept-new"), QStringLiteral("--json")});
        QVERIFY2(accepted == 0, acceptedErr.constData());
        QVERIFY(QFile(fresh).size() > 0);
        // The fabric from live hosts: each server's agent asked for its ports.
        const auto [fabricCode, fabricDoc, fabricErr] =
            cli({QStringLiteral("fabric"), QStringLiteral("--hosts"), QStringLiteral("c[1-2]"),
                 QStringLiteral("--ssh-config"), config, QStringLiteral("--known-hosts"), known,
                 QStringLiteral("--json")});
        QVERIFY2(fabricCode == 0, fabricErr.constData());
        QVERIFY(fabricDoc.value("source").toString().contains(QStringLiteral("ssh://c2")));
        QCOMPARE(std::get<0>(
                     cli({QStringLiteral("inspect"), QStringLiteral("--hosts"), QStringLiteral("c[3-1]")})),
                 2); // a bad hostlist is bad input
    }

    void hostileUserConfigOverridesNothing() {
        // ~/.ssh/config as an attacker would leave it: no known_hosts, no key checks, a ProxyCommand.
        // The CLI runs in a mount namespace whose /root is a home holding it, so libssh and OpenSSH
        // find it wherever they look for the user's config (libssh asks passwd, not $HOME).
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("k1")));
        QVERIFY(hosts.add(QStringLiteral("k2")));
        const QString home = hosts.path(QStringLiteral("hostile-home"));
        QVERIFY(QDir().mkpath(home + QStringLiteral("/.ssh")));
        const QString marker = hosts.path(QStringLiteral("proxy-command-ran"));
        QFile hostile(home + QStringLiteral("/.ssh/config"));
        QVERIFY(hostile.open(QIODevice::WriteOnly));
        hostile.write(QStringLiteral("Host *\n  UserKnownHostsFile /dev/null\n  GlobalKnownHostsFile "
                                     "/dev/null\n  StrictHostKeyChecking no\n"
                                     "  ProxyCommand sh -c 'touch %1; exec nc %h %p'\n")
                          .arg(marker)
                          .toUtf8());
        hostile.close();
        // k1's address with k2's key: k1's key has changed. k2's own key is right.
        const QString known = hosts.path(QStringLiteral("known_hosts-changed"));
        {
            QFile f(known), k2(hosts.host(QStringLiteral("k2")).hostKey + QStringLiteral(".pub"));
            QVERIFY(f.open(QIODevice::WriteOnly) && k2.open(QIODevice::ReadOnly));
            const QByteArray key = k2.readAll();
            f.write(hosts.host(QStringLiteral("k1")).address.toUtf8() + ' ' + key +
                    hosts.host(QStringLiteral("k2")).address.toUtf8() + ' ' + key);
        }
        auto cliUnderHostileHome = [&](const QStringList& args) {
            QProcess p;
            p.start(QStringLiteral("unshare"),
                    QStringList{QStringLiteral("--mount"), QStringLiteral("sh"), QStringLiteral("-c"),
                                QStringLiteral("mount --bind \"$1\" /root && shift && exec \"$@\""),
                                QStringLiteral("sh"), home, QStringLiteral(RACKSCOPE_CLI)} +
                        args);
            p.waitForFinished(120000);
            return std::pair(p.exitCode(), QString::fromUtf8(p.readAllStandardError()));
        };
        const QStringList policy{QStringLiteral("--known-hosts"), known, QStringLiteral("--accept-new"),
                                 QStringLiteral("--timeout"), QStringLiteral("60")};
        // Directly, with rackscope's config named; through a jump host (OpenSSH carries the hop);
        // and with no config named, so rackscope reads the hostile file itself.
        const QString direct = hosts.sshConfig();
        const QString jumped = hosts.sshConfig(QStringLiteral("Host k1\n  ProxyJump k2\n"));
        for (const QStringList& args :
             {QStringList{QStringLiteral("--hosts"), QStringLiteral("k1"), QStringLiteral("--ssh-config"),
                          direct},
              QStringList{QStringLiteral("--hosts"), QStringLiteral("k1"), QStringLiteral("--ssh-config"),
                          jumped},
              QStringList{QStringLiteral("--hosts"), hosts.host(QStringLiteral("k1")).address}}) {
            const auto [code, err] =
                cliUnderHostileHome(QStringList{QStringLiteral("inspect")} + args + policy);
            QCOMPARE(code, 1);
            QVERIFY2(err.contains(QStringLiteral("CHANGED")),
                     qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + err));
            QVERIFY2(!QFile::exists(marker), qPrintable(args.join(QLatin1Char(' '))));
        }
    }

    void proxyJumpChain() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("bastion")));
        QVERIFY(hosts.add(QStringLiteral("hop2"), QStringLiteral("bastion")));
        QVERIFY(hosts.add(QStringLiteral("inner"), QStringLiteral("hop2")));
        // No route of the test's own leads from here to hop2 or inner: only the bastion reaches them.
        // (Asked of the routing table, not by connecting, so nothing leaves the machine.)
        for (const char* n : {"hop2", "inner"})
            QVERIFY(!shOut(QStringLiteral("ip route get %1").arg(hosts.host(QLatin1String(n)).address))
                         .contains(hosts.bridge().toUtf8()));
        const QString config = hosts.sshConfig(
            QStringLiteral("Host inner\n  ProxyJump bastion,hop2\nHost hop2\n  ProxyJump bastion\n"));
        Fleet fleet(options(config, hosts.knownHosts({QStringLiteral("bastion"), QStringLiteral("hop2"),
                                                      QStringLiteral("inner")})));
        const HostResult r = collect(fleet, {QStringLiteral("inner")}).results.at(QStringLiteral("inner"));
        QVERIFY2(r.result, qPrintable(describe(r)));
        QCOMPARE(r.result->value("host").toString(), QStringLiteral("inner"));
        // A hop that fails: OpenSSH's own words say which one and why.
        Fleet unknownBastion(
            options(config, hosts.knownHosts({QStringLiteral("hop2"), QStringLiteral("inner")})));
        const HostResult failed =
            collect(unknownBastion, {QStringLiteral("inner")}).results.at(QStringLiteral("inner"));
        QVERIFY(failed.error);
        QVERIFY2(failed.error->message.contains(QStringLiteral("OpenSSH said:")) &&
                     failed.error->message.contains(QStringLiteral("Host key verification failed")),
                 qPrintable(failed.error->message));
    }
};

QTEST_GUILESS_MAIN(TestSshFleet)
#include "test_ssh_fleet.moc"
