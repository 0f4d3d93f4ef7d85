// Rack acceptance over SSH: real sshd hosts in network namespaces, each running the real agent deployed by
// the console. Each host's /sys/class shows a copy of a captured InfiniBand tree (rack_hosts.h), its GPUs
// come from the NVML stand-in (sshd's SetEnv), and its eth0 is a real interface. One fault per host: a GPU
// link at x8 (the stand-in), an MTU of 1500 among 9000s (the live interface), a missing NIC (the tree), a
// symbol error counter rising while sampled (written into the tree as the agent reads it), a server whose
// sshd is gone. Every fault is found on its host, and nothing else is reported.
// The active RDMA check runs ib_write_bw between the hosts through their agents: a stand-in on each host's
// PATH meets its peer over real TCP between the namespaces and replays a real capture (no RDMA NIC here),
// slowed where the test says a device is slow. A slow end is told from its partners, and a baseline of
// the figures is saved and then violated beyond its tolerance.
// The active NCCL check runs nccl-tests through real mpirun over SSH into the hosts: a stand-in on each host
// replays real single-node captures (no GPU here), four times slower on the host the test makes slow; that
// host is found slow alone and in pairs, and nothing else is.
#include "rack_hosts.h"
#include "transport/ssh_test_hosts.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace rackscope::test;

namespace {

const QString kPerftestClient =
    QStringLiteral("ib_write_bw-use_cuda-dmabuf-report_gbits-16qp-duration-roce-A40_client.txt");
const QString kPerftestServer =
    QStringLiteral("ib_write_bw-use_cuda-dmabuf-report_gbits-16qp-duration-roce-A40_server.txt");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList problemsIn(const QJsonObject& doc) {
    QStringList out;
    for (const QJsonValue& s : doc.value("servers").toArray())
        for (const QJsonValue& c : s.toObject().value("checks").toArray())
            for (const QJsonValue& i : c.toObject().value("items").toArray()) {
                const QString v = i.toObject().value("verdict").toString();
                if (v == QLatin1String("warn") || v == QLatin1String("fail"))
                    out << QStringLiteral("%1 %2 %3 %4")
                               .arg(s.toObject().value("host").toString(),
                                    c.toObject().value("id").toString(), v,
                                    i.toObject().value("subject").toString())
                               .trimmed();
            }
    out.sort();
    return out;
}

} // namespace

class TestRackCheckFleet : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QSKIP(qPrintable(why));
    }

    void everyFaultOnItsHostOverSsh() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QTemporaryDir dir;
        std::vector<RackHost> rack;
        for (int i = 1; i <= 7; ++i)
            rack.push_back(rackHost(QStringLiteral("node%1").arg(i)));
        rack[2].narrowGpu = 3;
        rack[4].missingNic = QStringLiteral("mlx5_7");
        for (const RackHost& h : rack) {
            const QString csv = dir.filePath(h.name + QStringLiteral(".csv")),
                          root = dir.filePath(QStringLiteral("sys-") + h.name);
            QVERIFY(writeInventoryCsv(csv, h));
            QVERIFY(writeSysTree(root, h));
            hosts.sessionEnvironment = standinEnvironment(csv);
            hosts.mountSetup = classMountSetup(root);
            QVERIFY2(hosts.add(h.name), qPrintable(h.name));
            // The rack's interfaces run jumbo frames but for node4's.
            QVERIFY(sh(QStringLiteral("ip -n %1 link set eth0 mtu %2")
                           .arg(hosts.host(h.name).ns)
                           .arg(h.name == QLatin1String("node4") ? 1500 : 9000)));
        }
        hosts.drop(QStringLiteral("node7")); // its sshd and sessions gone: the connection is refused

        // node6's symbol errors rise all through the run, each value written whole (a rename), as the
        // kernel's counter file would never be seen half written.
        const QString counter =
            dir.filePath(QStringLiteral("sys-node6/class/infiniband/mlx5_0/ports/1/counters/symbol_error"));
        QProcess bumper;
        bumper.start(QStringLiteral("sh"),
                     {QStringLiteral("-c"),
                      QStringLiteral("i=0; while :; do i=$((i+1)); echo $i > %1.new && mv %1.new %1; "
                                     "sleep 0.05; done")
                          .arg(counter)});
        QVERIFY(bumper.waitForStarted());

        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  {QStringLiteral("check"), QStringLiteral("--hosts"), QStringLiteral("node[1-7]"),
                   QStringLiteral("--ssh-config"), hosts.sshConfig(), QStringLiteral("--known-hosts"),
                   hosts.knownHosts({"node1", "node2", "node3", "node4", "node5", "node6", "node7"}),
                   QStringLiteral("--sample"), QStringLiteral("2"), QStringLiteral("--json"),
                   // each host deploys the agent anew: a loaded machine (an ASan agent) needs the margin
                   QStringLiteral("--timeout"), QStringLiteral("120")});
        QVERIFY(cli.waitForFinished(300000));
        bumper.kill();
        bumper.waitForFinished();
        const QByteArray err = cli.readAllStandardError();
        QCOMPARE(cli.exitCode(), 2);
        const QJsonObject doc = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QCOMPARE(doc.value("servers").toArray().size(), 7);
        QCOMPARE(problemsIn(doc), (QStringList{
                                      QStringLiteral("node3 pcie-links fail GPU3"),
                                      QStringLiteral("node4 mtu fail eth0"),
                                      QStringLiteral("node5 nic-inventory fail"),
                                      QStringLiteral("node6 error-counters warn mlx5_0/1"),
                                      QStringLiteral("node7 reachable fail"),
                                  }));
        QVERIFY2(err.contains("node7"), err.constData());
        // The drift is said by the majority of the servers that answered.
        bool mtu = false;
        for (const QJsonValue& d : doc.value("drift").toArray())
            mtu |= d.toObject().value("sentences").toArray().first().toString() ==
                   QStringLiteral(
                       "1 of 6 servers have MTU 1500 on eth0; the other 5 have MTU 9000 on eth0 (node4)");
        QVERIFY(mtu);
        // The clean servers' counters were read and said so.
        const QJsonObject node1 = doc.value("servers").toArray().first().toObject();
        for (const QJsonValue& c : node1.value("checks").toArray())
            if (c.toObject().value("id") == QLatin1String("error-counters")) {
                QCOMPARE(c.toObject().value("verdict").toString(), QStringLiteral("pass"));
                QVERIFY(c.toObject()
                            .value("items")
                            .toArray()
                            .first()
                            .toObject()
                            .value("evidence")
                            .toString()
                            .startsWith(QLatin1String("no error counter rose in 2 s")));
            }
    }

    void activeNcclFindsTheSlowServer() {
        if (QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty())
            QFAIL("mpirun (Debian package openmpi-bin) is needed");
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QTemporaryDir dir, shared;
        const QStringList names{"node1", "node2", "node3", "node4"};
        for (const QString& name : names) {
            RackHost h = rackHost(name);
            h.gpus = 2; // two ranks a server keep the runs short
            const QString csv = dir.filePath(name + QStringLiteral(".csv")),
                          root = dir.filePath(QStringLiteral("sys-") + name);
            QVERIFY(writeInventoryCsv(csv, h));
            QVERIFY(writeSysTree(root, h));
            hosts.sessionEnvironment = standinEnvironment(csv);
            hosts.mountSetup = classMountSetup(root);
            QVERIFY2(hosts.add(name), qPrintable(name));
            QVERIFY(sh(QStringLiteral("ip -n %1 link set eth0 mtu 9000").arg(hosts.host(name).ns)));
        }
        // nccl-tests' binaries, each the replaying stand-in.
        const QString bin = dir.filePath(QStringLiteral("nccl-tests"));
        QVERIFY(QDir().mkpath(bin));
        for (const char* b : {"all_reduce_perf", "all_gather_perf", "alltoall_perf"})
            QVERIFY(QFile::link(QStringLiteral(RACKSCOPE_TESTS_DIR "/runs/replay_nccl_tests.sh"),
                                bin + QLatin1Char('/') + QLatin1String(b)));
        const QString known = hosts.knownHosts({"node1", "node2", "node3", "node4"});
        const QString config = hosts.sshConfig(
            QStringLiteral("Host *\n  UserKnownHostsFile %1\n  StrictHostKeyChecking yes\n  BatchMode yes\n")
                .arg(known));
        const QString subnet = hosts.host(QStringLiteral("node1")).address.section(QLatin1Char('.'), 0, 2) +
                               QStringLiteral(".0/24");
        const auto env = [](const QString& kv) { return QStringList{QStringLiteral("--nccl-env"), kv}; };
        const auto arg = [](const QString& a) { return QStringList{QStringLiteral("--launcher-arg"), a}; };
        // The fixtures hold single-node all_reduce and alltoall runs; all_gather replays the all_reduce one.
        const QString allReduce = fixture(QStringLiteral(
                          "superbench_nccl-tests_all_reduce_perf_1node-8xA100-40GB_old-error-column.log")),
                      alltoall =
                          fixture(QStringLiteral("superbench_nccl-tests_alltoall_perf_1node-8xA100.log"));
        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  QStringList{QStringLiteral("check"), QStringLiteral("--hosts"), QStringLiteral("node[1-4]"),
                              QStringLiteral("--ssh-config"), config, QStringLiteral("--known-hosts"), known,
                              QStringLiteral("--active"), QStringLiteral("nccl"),
                              QStringLiteral("--nccl-binary-dir"), bin, QStringLiteral("--json"),
                              QStringLiteral("--timeout"), QStringLiteral("120")} +
                      arg(QStringLiteral("--allow-run-as-root")) + arg(QStringLiteral("--mca")) +
                      arg(QStringLiteral("plm_rsh_agent")) + arg(QStringLiteral("ssh -F ") + config) +
                      arg(QStringLiteral("--mca")) + arg(QStringLiteral("plm_rsh_no_tree_spawn")) +
                      arg(QStringLiteral("1")) + arg(QStringLiteral("--mca")) +
                      arg(QStringLiteral("oob_tcp_if_include")) + arg(subnet) +
                      env(QStringLiteral("REPLAY_FILE=") + allReduce) +
                      env(QStringLiteral("REPLAY_FILE_alltoall_perf=") + alltoall) +
                      env(QStringLiteral("REPLAY_DIR=") + shared.path()) +
                      env(QStringLiteral("REPLAY_SLOW_HOST=node3")) +
                      env(QStringLiteral("REPLAY_DELAY=0.001")));
        QVERIFY(cli.waitForFinished(480000));
        const QByteArray err = cli.readAllStandardError();
        const QJsonObject doc = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QVERIFY2(!doc.isEmpty(), err.constData());
        QCOMPARE(problemsIn(doc), (QStringList{
                                      QStringLiteral("node3 nccl-bandwidth fail all_gather alone"),
                                      QStringLiteral("node3 nccl-bandwidth fail all_reduce alone"),
                                      QStringLiteral("node3 nccl-bandwidth fail all_reduce in pairs"),
                                      QStringLiteral("node3 nccl-bandwidth fail alltoall alone"),
                                  }));
        // Three collectives on each of four servers, then every pair of four once.
        QCOMPARE(err.count("rackscope-cli check: nccl "), 12 + 6);
        QCOMPARE(cli.exitCode(), 2);
    }

    void activeRdmaAndItsBaseline() {
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QTemporaryDir dir;
        const QStringList names{"node1", "node2", "node3", "node4"};
        for (const QString& name : names) {
            RackHost h = rackHost(name);
            const QString csv = dir.filePath(name + QStringLiteral(".csv")),
                          root = dir.filePath(QStringLiteral("sys-") + name);
            QVERIFY(writeInventoryCsv(csv, h));
            QVERIFY(writeSysTree(root, h));
            // Two NICs a host keep the test short: each is still measured against two peers.
            for (const QString& nic : QDir(root + QStringLiteral("/class/infiniband"))
                                          .entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                if (nic != QLatin1String("mlx5_0") && nic != QLatin1String("mlx5_1"))
                    QVERIFY(QDir(root + QStringLiteral("/class/infiniband/") + nic).removeRecursively());
            hosts.sessionEnvironment =
                standinEnvironment(csv) +
                QStringList{QStringLiteral("PATH=%1:/usr/local/bin:/usr/bin:/bin")
                                .arg(RACKSCOPE_PERFTEST_STANDIN_DIR),
                            QStringLiteral("RACKSCOPE_PERFTEST_STANDIN_CLIENT=") + incoming(kPerftestClient),
                            QStringLiteral("RACKSCOPE_PERFTEST_STANDIN_SERVER=") + incoming(kPerftestServer),
                            QStringLiteral("RACKSCOPE_PERFTEST_STANDIN_FACTORS=") +
                                dir.filePath(QStringLiteral("factors-") + name)};
            hosts.mountSetup = classMountSetup(root);
            QVERIFY2(hosts.add(name), qPrintable(name));
            QVERIFY(sh(QStringLiteral("ip -n %1 link set eth0 mtu 9000").arg(hosts.host(name).ns)));
        }
        const auto check = [&](const QStringList& more, QByteArray* err) {
            QProcess cli;
            cli.start(QStringLiteral(RACKSCOPE_CLI),
                      QStringList{
                          QStringLiteral("check"), QStringLiteral("--hosts"), QStringLiteral("node[1-4]"),
                          QStringLiteral("--ssh-config"), hosts.sshConfig(), QStringLiteral("--known-hosts"),
                          hosts.knownHosts({"node1", "node2", "node3", "node4"}), QStringLiteral("--active"),
                          QStringLiteral("rdma"), QStringLiteral("--rdma-seconds"), QStringLiteral("1"),
                          QStringLiteral("--json"), QStringLiteral("--timeout"), QStringLiteral("120")} +
                          more);
            if (!cli.waitForFinished(300000))
                return QJsonObject{};
            *err = cli.readAllStandardError();
            return QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        };

        // A clean rack: every device's pairs at the capture's 181.46 Gb/s; the figures saved.
        const QString baseline = dir.filePath(QStringLiteral("baseline.json"));
        QByteArray err;
        QJsonObject doc = check({QStringLiteral("--save-baseline"), baseline}, &err);
        QVERIFY2(!doc.isEmpty(), err.constData());
        QCOMPARE(problemsIn(doc), QStringList{});
        // Four hosts in a ring: two rounds of two pairs, two devices each.
        QCOMPARE(err.count("rackscope-cli check: rdma "), 8);
        QCOMPARE(err.count(": 181.5 Gb/s"), 8);
        const QJsonObject measured =
            QJsonDocument::fromJson(readAll(baseline)).object().value("measured").toObject();
        QCOMPARE(measured.value("node3").toObject().value("rdma.mlx5_1").toDouble(), 181.46);
        QCOMPARE(measured.size(), 4);
        QString evidence;
        for (const QJsonValue& c :
             doc.value("servers").toArray().first().toObject().value("checks").toArray())
            if (c.toObject().value("id") == QLatin1String("rdma-bandwidth"))
                evidence =
                    c.toObject().value("items").toArray().first().toObject().value("evidence").toString();
        QVERIFY2(
            evidence.contains(QLatin1String("181.5 Gb/s with node2 mlx5_0; 181.5 Gb/s with node4 mlx5_0")),
            qPrintable(evidence));

        // node3's mlx5_1 at half its rate: slow with both its peers, whose other pairs are fine. node2's
        // mlx5_0 at 85 %: within the rack's 80 % of its median, but more than 10 % below its baseline.
        QVERIFY(writeText(dir.filePath(QStringLiteral("factors-node3")), "mlx5_1 0.5\n"));
        QVERIFY(writeText(dir.filePath(QStringLiteral("factors-node2")), "mlx5_0 0.85\n"));
        const QString report = dir.filePath(QStringLiteral("report.html"));
        doc = check({QStringLiteral("--baseline"), baseline, QStringLiteral("--report"), report}, &err);
        QVERIFY2(!doc.isEmpty(), err.constData());
        QCOMPARE(problemsIn(doc), (QStringList{
                                      QStringLiteral("node2 rdma-bandwidth fail mlx5_0"),
                                      QStringLiteral("node3 rdma-bandwidth fail mlx5_1"),
                                      QStringLiteral("node3 rdma-bandwidth fail mlx5_1"),
                                  }));
        QVERIFY2(err.contains("rdma node2 mlx5_1 -> node3 mlx5_1: 90.7 Gb/s"), err.constData());
        // The figures in the JSON, and the report's checklist answered by what was measured.
        const QJsonObject node2 = doc.value("servers").toArray().at(1).toObject();
        QCOMPARE(node2.value("host").toString(), QStringLiteral("node2"));
        QVERIFY(qAbs(node2.value("measured").toObject().value("rdma.mlx5_0").toDouble() - 181.46 * 0.85) <
                0.01);
        const QString html = QString::fromUtf8(readAll(report));
        QVERIFY(html.contains(QRegularExpression(
            QStringLiteral("Does every RDMA device reach its peers at the rack(&#39;|&apos;|')s "
                           "bandwidth\\?</td><td class=\"fail\"[^>]*>fail on node2, node3</td>"))));
        QVERIFY(html.contains(QLatin1String("not measured: check --active nccl")));
        QCOMPARE(doc.value("servers").toArray().size(), 4);
    }
};

QTEST_GUILESS_MAIN(TestRackCheckFleet)
#include "test_rack_check_fleet.moc"
