// A load shared among several servers' agents, reached over real SSH (sshd
// in network namespaces): each deployed agent drives its share against the
// test server on the bridge, and the console merges their records into one
// summary with a per-client breakdown, nothing counted twice; Ctrl+C stops
// the remote run and still brings back the records of its requests in flight.
#include "gpu/nvml_standin.h"
#include "load_test_server.h"
#include "transport/ssh_test_hosts.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace rackscope::test;

class TestLoadFleet : public QObject {
    Q_OBJECT
private slots:
    void aLoadSharedAmongTwoAgentsIsMergedOnce() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QFAIL(qPrintable(why));
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("l1")));
        QVERIFY(hosts.add(QStringLiteral("l2")));
        const QString bridgeAddress = QStringLiteral("10.213.%1.1").arg(hosts.subnet());
        LoadTestServer server({QStringLiteral("--address"), bridgeAddress, QStringLiteral("--script"),
                               QStringLiteral("ttft=10;tpot=2")});
        QVERIFY(server.ok());
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI),
                {QStringLiteral("load"),
                 QStringLiteral("--hosts"),
                 QStringLiteral("l1,l2"),
                 QStringLiteral("--ssh-config"),
                 hosts.sshConfig(),
                 QStringLiteral("--known-hosts"),
                 hosts.knownHosts({QStringLiteral("l1"), QStringLiteral("l2")}),
                 QStringLiteral("--url"),
                 QString::fromStdString(server.url()),
                 QStringLiteral("--model"),
                 QStringLiteral("m"),
                 QStringLiteral("--concurrency"),
                 QStringLiteral("4"),
                 QStringLiteral("--requests"),
                 QStringLiteral("21"),
                 QStringLiteral("--output-len"),
                 QStringLiteral("4"),
                 QStringLiteral("--input-len"),
                 QStringLiteral("8"),
                 QStringLiteral("--no-save"),
                 QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(180000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        const QJsonObject s = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(s.value("completed").toInt(), 21);
        QCOMPARE(s.value("failed").toInt(), 0);
        QCOMPARE(s.value("total_output_tokens").toInt(), 84);
        const QJsonObject clients = s.value("clients").toObject();
        QCOMPARE(clients.size(), 2);
        QCOMPARE(clients.value("l1").toObject().value("completed").toInt(), 11); // the remainder to the first
        QCOMPARE(clients.value("l2").toObject().value("completed").toInt(), 10);
    }

    void ctrlCBringsBackTheRemoteRequestsInFlight() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QFAIL(qPrintable(why));
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("k1")));
        const QString bridgeAddress = QStringLiteral("10.213.%1.1").arg(hosts.subnet());
        LoadTestServer server({QStringLiteral("--address"), bridgeAddress, QStringLiteral("--script"),
                               QStringLiteral("ttft=20;tpot=20")});
        QVERIFY(server.ok());
        QTemporaryDir results;
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI), {QStringLiteral("load"),
                                                QStringLiteral("--hosts"),
                                                QStringLiteral("k1"),
                                                QStringLiteral("--ssh-config"),
                                                hosts.sshConfig(),
                                                QStringLiteral("--known-hosts"),
                                                hosts.knownHosts({QStringLiteral("k1")}),
                                                QStringLiteral("--url"),
                                                QString::fromStdString(server.url()),
                                                QStringLiteral("--model"),
                                                QStringLiteral("m"),
                                                QStringLiteral("--concurrency"),
                                                QStringLiteral("2"),
                                                QStringLiteral("--requests"),
                                                QStringLiteral("4"),
                                                QStringLiteral("--output-len"),
                                                QStringLiteral("1000"),
                                                QStringLiteral("--results"),
                                                results.path(),
                                                QStringLiteral("--json")});
        // both streams are open (each would take 20 s) once the server has their two requests
        QTRY_VERIFY_WITH_TIMEOUT(server.get("/test/requests") == R"({"received":2})", 120000);
        QTest::qWait(500);
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1); // cancelled
        const QJsonObject s = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QVERIFY2(s.value("failed").toInt() == 2,
                 qPrintable(err)); // the two in flight, as cancelled, not lost
        QDirIterator files(results.path(), {QStringLiteral("requests.jsonl")}, QDir::Files,
                           QDirIterator::Subdirectories);
        QVERIFY(files.hasNext());
        QFile records(files.next());
        QVERIFY(records.open(QIODevice::ReadOnly));
        QCOMPARE(records.readAll().count("\"status\":\"cancelled\""), qsizetype(2));
    }

    // --workers over SSH: each worker's deployed agent reads its GPUs (g1's through the NVML stand-in, set in
    // its sessions' environment by sshd as a driver's library path would be), g2 has no NVML and an unknown
    // worker cannot be reached: each of those says why, and the load's own figures stand.
    void theWorkersGpusAreSampledThroughTheirAgents() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QFAIL(qPrintable(why));
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("gpus.csv"));
        QVERIFY(writeStandinCsv(csv));
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        hosts.sessionEnvironment = standinEnvironment(csv);
        QVERIFY(hosts.add(QStringLiteral("g1")));
        hosts.sessionEnvironment.clear();
        QVERIFY(hosts.add(QStringLiteral("g2")));
        LoadTestServer server({QStringLiteral("--script"), QStringLiteral("ttft=10;tpot=2")});
        QVERIFY(server.ok());
        const QString results = dir.filePath(QStringLiteral("run"));
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI),
                {QStringLiteral("load"),
                 QStringLiteral("--workers"),
                 QStringLiteral("g1,g2,nosuchhost.invalid"),
                 QStringLiteral("--ssh-config"),
                 hosts.sshConfig(),
                 QStringLiteral("--known-hosts"),
                 hosts.knownHosts({QStringLiteral("g1"), QStringLiteral("g2")}),
                 QStringLiteral("--ssh-timeout"),
                 QStringLiteral("5"),
                 QStringLiteral("--url"),
                 QString::fromStdString(server.url()),
                 QStringLiteral("--model"),
                 QStringLiteral("m"),
                 QStringLiteral("--concurrency"),
                 QStringLiteral("2"),
                 QStringLiteral("--duration"),
                 QStringLiteral("3"),
                 QStringLiteral("--output-len"),
                 QStringLiteral("4"),
                 QStringLiteral("--results"),
                 results,
                 QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(180000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(err + QString::fromUtf8(out))); // workers unread do not fail the load
        const QJsonObject s = QJsonDocument::fromJson(out).object();
        QVERIFY(s.value("completed").toInt() > 0);
        const QJsonObject gpus = s.value("gpus").toObject();
        const QJsonArray list = gpus.value("gpus").toArray();
        QVERIFY2(list.size() == 2, QJsonDocument(gpus).toJson().constData());
        for (const QJsonValue& g : list) {
            QCOMPARE(g.toObject().value("host").toString(), QStringLiteral("g1"));
            QVERIFY(g.toObject().value("samples").toInt() >= 2);
        }
        QVERIFY(standinRowOf(0, list[0].toObject().value("peak_util_pct").toDouble()) >= 0);
        const QJsonObject unread = gpus.value("unread").toObject();
        QCOMPARE(unread.size(), 2);
        QVERIFY2(unread.value("g2").toString().contains(QStringLiteral("libnvidia-ml.so.1")),
                 qPrintable(unread.value("g2").toString()));
        QVERIFY2(unread.value("nosuchhost.invalid").toString().contains(QStringLiteral("nosuchhost.invalid")),
                 qPrintable(unread.value("nosuchhost.invalid").toString()));
    }

    void anUnreachableClientIsNamedAndTheOthersCount() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QFAIL(qPrintable(why));
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("m1")));
        const QString bridgeAddress = QStringLiteral("10.213.%1.1").arg(hosts.subnet());
        LoadTestServer server({QStringLiteral("--address"), bridgeAddress});
        QVERIFY(server.ok());
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI),
                {QStringLiteral("load"), QStringLiteral("--hosts"), QStringLiteral("m1,nosuchhost.invalid"),
                 QStringLiteral("--ssh-config"), hosts.sshConfig(), QStringLiteral("--known-hosts"),
                 hosts.knownHosts({QStringLiteral("m1")}), QStringLiteral("--ssh-timeout"),
                 QStringLiteral("5"), QStringLiteral("--url"), QString::fromStdString(server.url()),
                 QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--requests"),
                 QStringLiteral("4"), QStringLiteral("--output-len"), QStringLiteral("2"),
                 QStringLiteral("--no-save"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(180000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1); // a client failed: the run says so
        QVERIFY2(err.contains(QStringLiteral("nosuchhost.invalid")), qPrintable(err));
        const QJsonObject s = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(s.value("completed").toInt(), 2); // m1's share, measured and kept
        QCOMPARE(s.value("client_errors").toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLoadFleet)
#include "test_load_fleet.moc"
