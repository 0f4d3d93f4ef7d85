// A real LLDP exchange: a switch namespace ("leaf01") joined by veth pairs to
// three host namespaces, lldpd in each, and the agent in every host's
// namespace reading its neighbour through lldpcli; the snapshots then make a
// fabric. Needs root; tears down what it made even when a check fails.
#include "test_support.h"

#include "analysis/fabric_analysis.h"
#include "analysis/fabric_merge.h"
#include "import/snapshot_fabric.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <algorithm>
#include <memory>
#include <unistd.h>

namespace {

bool sh(const QString& command) {
    return QProcess::execute(QStringLiteral("sh"), {QStringLiteral("-c"), command}) == 0;
}

// One switch namespace ("leaf01") with a veth to each host namespace; host i
// gets mtus[i]. lldpd runs in every namespace.
class LldpRack {
public:
    explicit LldpRack(std::vector<int> mtus)
        : tag_(QString::number(QCoreApplication::applicationPid() % 100000)), mtus_(std::move(mtus)) {
        // lldpcli drops to the _lldpd user: its sockets' folder must be traversable.
        QFile::setPermissions(dir_.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                               QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                               QFile::ExeOther);
    }
    ~LldpRack() {
        for (auto& p : daemons_) {
            p->kill();
            p->waitForFinished(3000);
        }
        sh(QStringLiteral("ip netns del %1 2>/dev/null").arg(nsSwitch()));
        for (int i = 0; i < hosts(); ++i)
            sh(QStringLiteral("ip netns del %1 2>/dev/null").arg(nsHost(i)));
    }
    int hosts() const { return int(mtus_.size()); }
    QString nsSwitch() const { return QStringLiteral("rs-lldp-sw-") + tag_; }
    QString nsHost(int i) const { return QStringLiteral("rs-lldp-h%1-").arg(i) + tag_; }
    QString hostName(int i) const { return QStringLiteral("node%1").arg(17 + i); }
    QString ifSwitch(int i) const { return QStringLiteral("rsl%1s%2").arg(tag_).arg(i); }
    QString ifHost(int i) const { return QStringLiteral("rsl%1h%2").arg(tag_).arg(i); }
    QString socket(const QString& side) const { return dir_.filePath(side + QStringLiteral(".sock")); }
    QStringList sides() const {
        QStringList s{QStringLiteral("sw")};
        for (int i = 0; i < hosts(); ++i)
            s << QStringLiteral("h%1").arg(i);
        return s;
    }

    bool up() {
        const QString s = nsSwitch();
        if (!sh(QStringLiteral("ip netns add %1 && ip -n %1 link set lo up").arg(s)))
            return false;
        QStringList switchPorts;
        for (int i = 0; i < hosts(); ++i) {
            const QString h = nsHost(i), is = ifSwitch(i), ih = ifHost(i);
            if (!sh(QStringLiteral("ip netns add %1 && ip link add %3 type veth peer name %4 && ip link set "
                                   "%3 netns %2 && "
                                   "ip link set %4 netns %1 && ip -n %2 link set %3 up && ip -n %1 link set "
                                   "%4 mtu %5 up && ip -n %1 link set lo up")
                        .arg(h, s, is, ih)
                        .arg(mtus_[size_t(i)])))
                return false;
            switchPorts << is;
            start(h, hostName(i), QStringLiteral("h%1").arg(i), ih);
        }
        start(s, QStringLiteral("leaf01"), QStringLiteral("sw"), switchPorts.join(QLatin1Char(',')));
        for (auto& p : daemons_)
            if (!p->waitForStarted(5000))
                return false;
        return true;
    }

private:
    void start(const QString& ns, const QString& hostname, const QString& side, const QString& ifaces) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::MergedChannels);
        p->start(QStringLiteral("ip"),
                 {QStringLiteral("netns"), QStringLiteral("exec"), ns, QStringLiteral("unshare"),
                  QStringLiteral("--uts"), QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("hostname %1 && exec lldpd -d -u %2 -p %3 -I %4")
                      .arg(hostname, socket(side), dir_.filePath(side + QStringLiteral(".pid")), ifaces)});
        daemons_.push_back(std::move(p));
    }

    QString tag_;
    std::vector<int> mtus_;
    QTemporaryDir dir_;
    std::vector<std::unique_ptr<QProcess>> daemons_;
};

} // namespace

class TestAgentLldp : public QObject {
    Q_OBJECT
private slots:
    void agentSeesTheSwitchThroughLldpd() {
        if (::geteuid() != 0)
            QSKIP("needs root to create network namespaces (CI runs as root)");
        QVERIFY2(
            !QStandardPaths::findExecutable(QStringLiteral("lldpd"), {QStringLiteral("/usr/sbin")}).isEmpty(),
            "lldpd (Debian package lldpd) is needed");
        LldpRack rack({9000, 9000, 1500});
        QVERIFY(rack.up());
        const QStringList sides = rack.sides();
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(sides.begin(), sides.end(),
                        [&](const QString& side) { return QFile::exists(rack.socket(side)); }),
            10000);
        for (const QString& side : sides)
            sh(QStringLiteral("lldpcli -u %1 configure lldp tx-interval 1 && lldpcli -u %1 resume")
                   .arg(rack.socket(side)));
        std::vector<rackscope::Fabric> sources;
        for (int i = 0; i < rack.hosts(); ++i) {
            QJsonObject neighbour, snapshot;
            for (int attempt = 0; attempt < 30 && neighbour.isEmpty(); ++attempt) {
                QProcess agent;
                agent.start(QStringLiteral("ip"),
                            {QStringLiteral("netns"), QStringLiteral("exec"), rack.nsHost(i),
                             QStringLiteral(RACKSCOPE_AGENT), QStringLiteral("collect"),
                             QStringLiteral("--lldpd-socket"), rack.socket(QStringLiteral("h%1").arg(i))});
                agent.waitForFinished(30000);
                snapshot = QJsonDocument::fromJson(agent.readAllStandardOutput()).object();
                const QJsonObject lldp = snapshot.value("lldp").toObject();
                QVERIFY2(lldp.value("available").toBool(), qPrintable(lldp.value("reason").toString()));
                const QJsonArray list = lldp.value("neighbors").toArray();
                if (!list.isEmpty())
                    neighbour = list.first().toObject();
                else
                    QTest::qWait(500);
            }
            QVERIFY2(!neighbour.isEmpty(), "no LLDP neighbour within 15 s");
            QCOMPARE(neighbour.value("interface").toString(), rack.ifHost(i));
            QCOMPARE(neighbour.value("system_name").toString(), QStringLiteral("leaf01"));
            QCOMPARE(neighbour.value("port_descr").toString(), rack.ifSwitch(i));
            QCOMPARE(neighbour.value("via").toString(), QStringLiteral("LLDP"));
            QCOMPARE(neighbour.value("chassis_id_type").toString(), QStringLiteral("mac"));
            snapshot[QStringLiteral("host")] =
                rack.hostName(i); // `ip netns exec` keeps this machine's host name
            sources.push_back(rackscope::fabricFromSnapshot(snapshot, rack.hostName(i)));
        }

        // The snapshots as fabric sources, merged: three servers under one
        // leaf, each port to its own switch port, and the one server whose
        // MTU differs from the others' is named.
        const rackscope::Fabric f = rackscope::mergeFabrics(sources);
        QVERIFY2(f.conflicts.isEmpty(), qPrintable(f.conflicts.join(QLatin1Char('\n'))));
        const rackscope::FabricAnalysis a = rackscope::analyseFabric(f);
        QCOMPARE(a.tiers.size(), size_t(1));
        QCOMPARE(a.tiers.at(QStringLiteral("leaf01")), 1);
        QCOMPARE(int(a.hosts.size()), rack.hosts());
        for (int i = 0; i < rack.hosts(); ++i) {
            const rackscope::FabricHost* h = a.host(rack.hostName(i));
            QVERIFY(h);
            QCOMPARE(h->ports.size(), size_t(1));
            QCOMPARE(h->ports[0].switchPort, rack.ifSwitch(i));
            QCOMPARE(h->ports[0].link->state, QStringLiteral("up"));
            QCOMPARE(h->ports[0].link->aMtu, std::optional<int>(i == 2 ? 1500 : 9000));
        }
        QStringList mtuSubjects;
        for (const rackscope::Finding& x : a.findings)
            if (x.code == QLatin1String("fabric-mtu-mismatch"))
                mtuSubjects += x.subjects;
        QCOMPARE(mtuSubjects, QStringList{rack.hostName(2)});
    }

    // No lldpd behind the socket (none there, or a file that is not a socket): said, without starting
    // lldpcli.
    void withoutLldpdItSaysWhy() {
        QTemporaryFile notASocket;
        QVERIFY(notASocket.open());
        for (const QString& socket : {QStringLiteral("/nonexistent/lldpd.socket"), notASocket.fileName()}) {
            QProcess agent;
            agent.start(QStringLiteral(RACKSCOPE_AGENT),
                        {QStringLiteral("collect"), QStringLiteral("--lldpd-socket"), socket});
            agent.waitForFinished(30000);
            const QJsonObject lldp =
                QJsonDocument::fromJson(agent.readAllStandardOutput()).object().value("lldp").toObject();
            QVERIFY(!lldp.value("available").toBool());
            QCOMPARE(lldp.value("reason").toString(), "lldpd is not running: no control socket at " + socket);
        }
    }
};

QTEST_GUILESS_MAIN(TestAgentLldp)
#include "test_agent_lldp.moc"
