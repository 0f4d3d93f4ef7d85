// Asking a running job's NCCL RAS service, end to end: the RAS stand-in answers NCCL's client protocol with
// real captured reports, on this machine (a socket) and inside a namespace host reached over real sshd (a
// direct-tcpip channel of the SSH connection, as the fleet keeps it). Text-only NCCL, JSON, 2.28.9's
// broken JSON, JSON that cannot be read at all, and servers that are silent, speak something else, close
// or are not there: each ends with a report or a clear error within the time given.
#include "ras_standin.h"
#include "test_support.h"
#include "transport/ssh_test_hosts.h"

#include "runs/nccl_ras_client.h"
#include "transport/fleet.h"
#include "transport/tcp_stream.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char kTextMismatch[] = "ncclras-text_4node-32gpu-allgather-mismatch_nccl2.26.2.txt";
const char kJsonMismatch[] = "ncclras-json_4xA10G-4host-allreduce-count-mismatch_nccl2.28.9.json";
const char kTextHealthy[] =
    "ncclras-text_32node-256gpu-running-ok-while-pytorch-watchdog-timeout_nccl2.26.2.txt";
const char kJsonNoComma[] =
    "ncclras-json_missing-rank-unresponsive_INVALID-JSON-missing-comma_nccl2.28.9.json";

StreamOpener here(quint16 port) {
    return [port](QString* error) { return connectTcp(QStringLiteral("127.0.0.1"), port, 3000, error); };
}

NcclRasAnswer ask(quint16 port, bool verbose = false, int timeoutMs = 10000) {
    NcclRasQuery q;
    q.verbose = verbose;
    q.timeoutMs = timeoutMs;
    return queryNcclRas(here(port), QStringLiteral("127.0.0.1:%1").arg(port), q);
}

bool hasProblem(const NcclRasAnswer& a, const QString& kind, int rank) {
    if (!a.report)
        return false;
    for (const NcclRasProblem& p : a.report->problems)
        if (p.kind == kind)
            for (const NcclRasRank& k : p.ranks)
                if (k.rank == rank)
                    return true;
    return false;
}

} // namespace

class TestNcclRasLive : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<SshTestHosts> hosts_;
    QString config_, knownHosts_;

    // Four namespace hosts over real sshd, once for the tests that need them.
    bool fourHosts() {
        if (hosts_)
            return true;
        if (!SshTestHosts::missing().isEmpty())
            return false;
        hosts_ = std::make_unique<SshTestHosts>();
        QStringList all;
        for (int i = 1; i <= 4; ++i) {
            all << QStringLiteral("gpu%1").arg(i);
            if (!hosts_->ok() || !hosts_->add(all.last()))
                return false;
        }
        knownHosts_ = hosts_->knownHosts(all);
        config_ = hosts_->sshConfig();
        return true;
    }
    QString address(int i) const { return hosts_->host(QStringLiteral("gpu%1").arg(i)).address; }
    QStringList sshOptions() const {
        return {QStringLiteral("--ssh-config"), config_, QStringLiteral("--known-hosts"), knownHosts_};
    }

    QString file(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(content);
        return path;
    }

private slots:
    // An NCCL before 2.28 refuses SET FORMAT json: the text is asked for and read, and the answer says so.
    void textWhereNcclSpeaksNoJson() {
        const QString log = dir_.filePath(QStringLiteral("text.log"));
        RasStandin ras(
            {QStringLiteral("--text"), incoming(QLatin1String(kTextMismatch)), QStringLiteral("--log"), log});
        QVERIFY(ras.port());
        const NcclRasAnswer a = ask(ras.port(), true);
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        QCOMPARE(a.serverProtocol, 2);
        QCOMPARE(a.report->format, QStringLiteral("text"));
        QCOMPARE(a.report->ncclVersion, QStringLiteral("2.26.2"));
        QVERIFY(a.notes.join(' ').contains(QStringLiteral("only text")));
        QVERIFY(hasProblem(a, QStringLiteral("MISMATCH"), 12));
        QCOMPARE(a.output, incomingBytes(QLatin1String(kTextMismatch)));
        QFile sent(log);
        QVERIFY(sent.open(QIODevice::ReadOnly));
        const QList<QByteArray> commands = sent.readAll().split('\n');
        QCOMPARE(commands.value(0), QByteArray("CLIENT PROTOCOL 2"));
        QVERIFY(commands.value(1).startsWith("TIMEOUT "));
        QCOMPARE(commands.value(2), QByteArray("SET FORMAT json"));
        QCOMPARE(commands.value(3), QByteArray("VERBOSE STATUS"));
    }

    // 2.28 and later: JSON, read as such; 2.28.9's JSON without a comma is mended and said so.
    void jsonWhereNcclSpeaksIt() {
        RasStandin ras({QStringLiteral("--text"), incoming(QLatin1String(kTextMismatch)),
                        QStringLiteral("--json"),
                        incoming(QLatin1String(kJsonMismatch)) + QLatin1Char(',') +
                            incoming(QLatin1String(kJsonNoComma))});
        QVERIFY(ras.port());
        const NcclRasAnswer first = ask(ras.port());
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(first.report->format, QStringLiteral("json"));
        QVERIFY(first.notes.isEmpty());
        QVERIFY(hasProblem(first, QStringLiteral("MISMATCH"), 1)); // rank 1 is one AllReduce behind
        const NcclRasAnswer second = ask(ras.port());
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
        QVERIFY(!second.report->repaired.isEmpty());
        QVERIFY(hasProblem(second, QStringLiteral("INCOMPLETE"), 1));
    }

    // JSON that cannot be read even mended: the text report instead, and why.
    void unreadableJsonFallsBackToText() {
        QByteArray cut = incomingBytes(QLatin1String(kJsonMismatch));
        cut.truncate(cut.size() / 2);
        RasStandin ras({QStringLiteral("--text"), incoming(QLatin1String(kTextMismatch)),
                        QStringLiteral("--json"), file(QStringLiteral("cut.json"), cut)});
        QVERIFY(ras.port());
        const NcclRasAnswer a = ask(ras.port());
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        QCOMPARE(a.report->format, QStringLiteral("text"));
        QVERIFY2(a.notes.join(' ').contains(QStringLiteral("JSON could not be read")),
                 qPrintable(a.notes.join(' ')));
    }

    // What is not a RAS service, or not a working one: a clear error, within the time given.
    void badServersEndWithAClearError() {
        struct Case {
            QStringList args;
            const char* expected;
        };
        QByteArray noise(4096, '\0');
        for (qsizetype i = 0; i < noise.size(); ++i)
            noise[i] = char((i * 131 + 7) % 251);
        const Case cases[] = {
            {{QStringLiteral("--silent")}, "did not answer CLIENT in time"},
            {{QStringLiteral("--garbage")}, "is not NCCL's RAS service"},
            {{}, "without a report"},
            {{QStringLiteral("--text"), file(QStringLiteral("noise"), noise)}, "cannot read as a RAS report"},
            {{QStringLiteral("--text"),
              incoming(QStringLiteral("topo-m-4xH100-gcp-a3-4gpu-slice-no-nic-gpu-numa-id-NA.txt"))},
             "cannot read as a RAS report"},
        };
        for (const Case& c : cases) {
            RasStandin ras(c.args);
            QVERIFY(ras.port());
            QElapsedTimer t;
            t.start();
            const NcclRasAnswer a = ask(ras.port(), false, 3000);
            QVERIFY2(a.error.contains(QLatin1String(c.expected)), qPrintable(a.error));
            QVERIFY(!a.report);
            QVERIFY2(t.elapsed() < 3000 + 10000, qPrintable(QString::number(t.elapsed()))); // bounded
        }
        // Nothing listening.
        quint16 closed = 0;
        {
            RasStandin gone({});
            closed = gone.port();
        }
        const NcclRasAnswer none = ask(closed, false, 3000);
        QVERIFY2(none.error.contains(QLatin1String("cannot reach the RAS service")), qPrintable(none.error));
        QVERIFY(none.error.contains(QLatin1String("refused")));
    }

    // In a namespace host over real sshd: the port is reached through the SSH connection the fleet keeps
    // (direct-tcpip), and a port with nothing behind it is refused by the server, clearly.
    void overTheFleetsSshConnection() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QFAIL(qPrintable(why));
        QVERIFY(fourHosts());
        RasStandin ras({QStringLiteral("--json"), incoming(QLatin1String(kJsonMismatch))},
                       hosts_->host(QStringLiteral("gpu1")).ns, kNcclRasPort);
        QCOMPARE(ras.port(), kNcclRasPort);
        FleetOptions o;
        o.config = SshConfig::fromFile(config_);
        o.ssh.knownHostsFile = knownHosts_;
        o.ssh.connectTimeoutMs = o.ssh.authTimeoutMs = 10000;
        Fleet fleet(o);
        std::atomic<bool> cancel{false};
        const auto open = [&](quint16 port) -> StreamOpener {
            return [&fleet, &cancel, port](QString* error) {
                return fleet.openPort(QStringLiteral("gpu1"), port, &cancel, error);
            };
        };
        NcclRasQuery q;
        q.timeoutMs = 20000;
        for (int round = 0; round < 2; ++round) { // the second over the same connection
            const NcclRasAnswer a = queryNcclRas(open(kNcclRasPort), QStringLiteral("gpu1:28028"), q);
            QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
            QVERIFY(hasProblem(a, QStringLiteral("MISMATCH"), 1));
        }
        const NcclRasAnswer closed = queryNcclRas(open(28029), QStringLiteral("gpu1:28029"), q);
        QVERIFY2(closed.error.contains(QLatin1String("could not open port 28029")), qPrintable(closed.error));
        // A host whose key is not known is refused before any port is asked for.
        FleetOptions strict = o;
        strict.ssh.knownHostsFile = dir_.filePath(QStringLiteral("empty_known_hosts"));
        Fleet other(strict);
        QString error;
        QVERIFY(!other.openPort(QStringLiteral("gpu1"), kNcclRasPort, &cancel, &error));
        QVERIFY2(error.startsWith(QLatin1String("host-key")), qPrintable(error));
    }

    // The CLI asks one node of the job through its SSH connection, reads the servers it is given over SSH,
    // and places the rank RAS names behind on the server whose interface has the address RAS gives.
    void cliPlacesTheRanksOnTheServers() {
        QVERIFY(fourHosts());
        const char* real[] = {"10.0.69.85", "10.0.109.86", "10.0.120.166", "10.0.92.51"};
        QStringList args{QStringLiteral("--json"), incoming(QLatin1String(kJsonMismatch))};
        for (int i = 0; i < 4; ++i)
            args << QStringLiteral("--replace") << QLatin1String(real[i]) + QLatin1Char('=') + address(i + 1);
        RasStandin ras(args, hosts_->host(QStringLiteral("gpu1")).ns, kNcclRasPort);
        QCOMPARE(ras.port(), kNcclRasPort);
        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  QStringList{QStringLiteral("nccl-ras"), QStringLiteral("--host"), QStringLiteral("gpu1"),
                              QStringLiteral("--hosts"), QStringLiteral("gpu[1-4]"),
                              QStringLiteral("--json")} +
                      sshOptions());
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 1); // a rank behind
        const QJsonObject doc = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        const QJsonArray ranks = doc.value("verdict").toObject().value("ranks").toArray();
        QCOMPARE(ranks.size(), 1);
        const QJsonObject r = ranks[0].toObject();
        QCOMPARE(r.value("rank").toInt(), 1);
        QCOMPARE(r.value("server").toString(), QStringLiteral("gpu2"));
        QCOMPARE(r.value("server_by").toString(), QStringLiteral("its eth0 has ") + address(2));
        QCOMPARE(r.value("state").toString(), QStringLiteral("1 AllReduce behind the other 3"));
        QVERIFY(doc.value("verdict").toObject().value("unplaced").toArray().isEmpty());
    }

    // --watch asks again and again; the job changes between refreshes (healthy, then two ranks ahead of the
    // rest), and each snapshot says what it saw. An interrupt ends the watch.
    void cliWatchSeesTheJobChange() {
        QVERIFY(fourHosts());
        RasStandin ras({QStringLiteral("--text"),
                        incoming(QLatin1String(kTextHealthy)) + QLatin1Char(',') +
                            incoming(QLatin1String(kTextMismatch)),
                        QStringLiteral("--replace"), QStringLiteral("10.137.190.124=") + address(3)},
                       hosts_->host(QStringLiteral("gpu1")).ns, kNcclRasPort);
        QCOMPARE(ras.port(), kNcclRasPort);
        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  QStringList{QStringLiteral("nccl-ras"), QStringLiteral("--host"), QStringLiteral("gpu1"),
                              QStringLiteral("--hosts"), QStringLiteral("gpu3"), QStringLiteral("--json"),
                              QStringLiteral("--watch"), QStringLiteral("0.5")} +
                      sshOptions());
        std::vector<QJsonObject> snapshots;
        QElapsedTimer t;
        t.start();
        while (snapshots.size() < 3 && t.elapsed() < 120000) {
            if (!cli.canReadLine() && !cli.waitForReadyRead(1000))
                continue;
            while (cli.canReadLine())
                snapshots.push_back(QJsonDocument::fromJson(cli.readLine()).object());
        }
        cli.terminate(); // SIGTERM, as an interrupt
        QVERIFY(cli.waitForFinished(10000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QVERIFY2(snapshots.size() >= 3, cli.readAllStandardError().constData());
        QVERIFY(snapshots[0].value("verdict").toObject().value("healthy").toBool());
        QCOMPARE(snapshots[0].value("report").toObject().value("nccl_version").toString(),
                 QStringLiteral("2.26.2"));
        for (size_t i = 1; i < 3; ++i) {
            const QJsonObject v = snapshots[i].value("verdict").toObject();
            QVERIFY(!v.value("healthy").toBool());
            const QJsonObject group = v.value("groups").toArray().first().toObject();
            QCOMPARE(group.value("server").toString(), QStringLiteral("gpu3"));
            QVERIFY2(group.value("text").toString().startsWith(QStringLiteral("ranks 12-13 on gpu3")),
                     qPrintable(group.value("text").toString()));
            QVERIFY(
                group.value("text").toString().contains(QStringLiteral("1 AllGather ahead of the other 30")));
        }
        QVERIFY(QDateTime::fromString(snapshots[1].value("at").toString(), Qt::ISODateWithMs) >
                QDateTime::fromString(snapshots[0].value("at").toString(), Qt::ISODateWithMs));
    }

    // Options that cannot work are refused before anything is asked; a node with nothing on the port says so.
    void cliRefusesAndExplains() {
        const auto run = [](const QStringList& args, int* code) {
            QProcess cli;
            cli.start(QStringLiteral(RACKSCOPE_CLI), QStringList{QStringLiteral("nccl-ras")} + args);
            cli.waitForFinished(60000);
            *code = cli.exitCode();
            return QString::fromUtf8(cli.readAllStandardError());
        };
        int code = 0;
        QVERIFY(run({}, &code).contains(QStringLiteral("--host")));
        QCOMPARE(code, 2);
        QVERIFY(run({QStringLiteral("--host"), QStringLiteral("localhost"), QStringLiteral("--port"),
                     QStringLiteral("70000")},
                    &code)
                    .contains(QStringLiteral("--port")));
        QVERIFY(run({QStringLiteral("--host"), QStringLiteral("localhost"), QStringLiteral("--watch"),
                     QStringLiteral("0")},
                    &code)
                    .contains(QStringLiteral("--watch")));
        quint16 closed = 0;
        {
            RasStandin gone({});
            closed = gone.port();
        }
        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  {QStringLiteral("nccl-ras"), QStringLiteral("--host"), QStringLiteral("localhost"),
                   QStringLiteral("--port"), QString::number(closed), QStringLiteral("--timeout"),
                   QStringLiteral("5")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(cli.readAllStandardOutput().contains("cannot reach the RAS service"));
    }
};

QTEST_GUILESS_MAIN(TestNcclRasLive)
#include "test_nccl_ras_live.moc"
