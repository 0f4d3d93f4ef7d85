// A real LLDP exchange: two network namespaces joined by a veth pair, lldpd
// in each (one plays the switch, "leaf01"), and the agent in the host's
// namespace reading its neighbour through lldpcli. Needs root; tears down
// what it made even when a check fails.
#include "test_support.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <unistd.h>

namespace {

bool sh(const QString& command) {
    return QProcess::execute(QStringLiteral("sh"), {QStringLiteral("-c"), command}) == 0;
}

class LldpPair {
public:
    LldpPair() : tag_(QString::number(QCoreApplication::applicationPid() % 100000)) {
        // lldpcli drops to the _lldpd user: its sockets' folder must be traversable.
        QFile::setPermissions(dir_.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                               QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    }
    ~LldpPair() {
        for (QProcess* p : {&switch_, &host_}) {
            p->kill();
            p->waitForFinished(3000);
        }
        for (const QString& ns : {nsSwitch(), nsHost()}) sh(QStringLiteral("ip netns del %1 2>/dev/null").arg(ns));
    }
    QString nsSwitch() const { return QStringLiteral("rs-lldp-sw-") + tag_; }
    QString nsHost() const { return QStringLiteral("rs-lldp-h-") + tag_; }
    QString ifSwitch() const { return QStringLiteral("rsl") + tag_ + QStringLiteral("s"); }
    QString ifHost() const { return QStringLiteral("rsl") + tag_ + QStringLiteral("h"); }
    QString socket(const QString& side) const { return dir_.filePath(side + QStringLiteral(".sock")); }

    bool up() {
        const QString s = nsSwitch(), h = nsHost(), is = ifSwitch(), ih = ifHost();
        if (!sh(QStringLiteral("ip netns add %1 && ip netns add %2 && ip link add %3 type veth peer name %4 && "
                               "ip link set %3 netns %1 && ip link set %4 netns %2 && ip -n %1 link set %3 up && "
                               "ip -n %2 link set %4 up && ip -n %1 link set lo up && ip -n %2 link set lo up")
                    .arg(s, h, is, ih)))
            return false;
        start(switch_, s, QStringLiteral("leaf01"), QStringLiteral("sw"), is);
        start(host_, h, QStringLiteral("node17"), QStringLiteral("host"), ih);
        return switch_.waitForStarted(5000) && host_.waitForStarted(5000);
    }

private:
    void start(QProcess& p, const QString& ns, const QString& hostname, const QString& side, const QString& iface) {
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("exec"), ns, QStringLiteral("unshare"), QStringLiteral("--uts"),
                                       QStringLiteral("sh"), QStringLiteral("-c"),
                                       QStringLiteral("hostname %1 && exec lldpd -d -u %2 -p %3 -I %4")
                                           .arg(hostname, socket(side), dir_.filePath(side + QStringLiteral(".pid")), iface)});
    }

    QString tag_;
    QTemporaryDir dir_;
    QProcess switch_, host_;
};

} // namespace

class TestAgentLldp : public QObject {
    Q_OBJECT
private slots:
    void agentSeesTheSwitchThroughLldpd() {
        if (::geteuid() != 0) QSKIP("needs root to create network namespaces (CI runs as root)");
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("lldpd"), {QStringLiteral("/usr/sbin")}).isEmpty(),
                 "lldpd (Debian package lldpd) is needed");
        LldpPair pair;
        QVERIFY(pair.up());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pair.socket(QStringLiteral("sw"))) && QFile::exists(pair.socket(QStringLiteral("host"))), 10000);
        for (const char* side : {"sw", "host"})
            sh(QStringLiteral("lldpcli -u %1 configure lldp tx-interval 1 && lldpcli -u %1 resume").arg(pair.socket(QLatin1String(side))));
        QJsonObject neighbour;
        for (int attempt = 0; attempt < 30 && neighbour.isEmpty(); ++attempt) {
            QProcess agent;
            agent.start(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("exec"), pair.nsHost(), QStringLiteral(RACKSCOPE_AGENT),
                                               QStringLiteral("collect"), QStringLiteral("--lldpd-socket"), pair.socket(QStringLiteral("host"))});
            agent.waitForFinished(30000);
            const QJsonObject lldp = QJsonDocument::fromJson(agent.readAllStandardOutput()).object().value("lldp").toObject();
            QVERIFY2(lldp.value("available").toBool(), qPrintable(lldp.value("reason").toString()));
            const QJsonArray list = lldp.value("neighbors").toArray();
            if (!list.isEmpty()) neighbour = list.first().toObject();
            else QTest::qWait(500);
        }
        QVERIFY2(!neighbour.isEmpty(), "no LLDP neighbour within 15 s");
        QCOMPARE(neighbour.value("interface").toString(), pair.ifHost());
        QCOMPARE(neighbour.value("system_name").toString(), QStringLiteral("leaf01"));
        QCOMPARE(neighbour.value("port_descr").toString(), pair.ifSwitch());
        QCOMPARE(neighbour.value("via").toString(), QStringLiteral("LLDP"));
        QCOMPARE(neighbour.value("chassis_id_type").toString(), QStringLiteral("mac"));
    }

    void withoutLldpdItSaysWhy() {
        QProcess agent;
        agent.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("collect"), QStringLiteral("--lldpd-socket"), QStringLiteral("/nonexistent/lldpd.socket")});
        agent.waitForFinished(30000);
        const QJsonObject lldp = QJsonDocument::fromJson(agent.readAllStandardOutput()).object().value("lldp").toObject();
        QVERIFY(!lldp.value("available").toBool());
        QVERIFY(!lldp.value("reason").toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAgentLldp)
#include "test_agent_lldp.moc"
