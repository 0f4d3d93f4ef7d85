// nccl-tests launches end to end across real hosts: real Open MPI mpirun
// starting ranks over real sshd in network namespaces, where the benchmark
// is a stand-in replaying a real run (no GPU here). The straggler hunt runs
// every pair and finds the host made slow; a launch host reached over SSH
// runs mpirun itself; a host killed mid-run ends the run with a clear error
// and every row received so far saved.
#include "test_support.h"
#include "transport/ssh_test_hosts.h"

#include "runs/recorded_run.h"
#include "runs/straggler_hunt.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char kReplayed[] = "nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt";

} // namespace

class TestNcclFleetRun : public QObject {
    Q_OBJECT
    std::unique_ptr<SshTestHosts> hosts_;
    QTemporaryDir shared_;
    QString config_, knownHosts_;

    FleetOptions fleetOptions() {
        FleetOptions o;
        o.config = SshConfig::fromFile(config_);
        o.ssh.knownHostsFile = knownHosts_;
        o.ssh.connectTimeoutMs = o.ssh.authTimeoutMs = 5000;
        o.requestTimeoutMs = 20000;
        o.deploy.preinstalled = {};
        QProcess version;
        version.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("--version")});
        version.waitForFinished(10000);
        QString error;
        const auto agent = loadAgentBinary(
            QStringLiteral(RACKSCOPE_AGENT),
            QString::fromUtf8(version.readAllStandardOutput()).trimmed().section(QLatin1Char(' '), 1),
            &error);
        if (!agent)
            qFatal("%s", qPrintable(error));
        o.agent = *agent;
        return o;
    }

    // A spec for mpirun reaching the hosts through the test's ssh_config.
    NcclRunSpec spec(const QStringList& on, const QString& delay = QStringLiteral("0.002")) {
        NcclRunSpec s;
        s.hosts = on;
        s.processesPerHost = 1;
        s.binary = QStringLiteral(RACKSCOPE_TESTS_DIR "/runs/replay_nccl_tests.sh");
        s.environment.emplace_back(QStringLiteral("REPLAY_FILE"), fixture(QLatin1String(kReplayed)));
        s.environment.emplace_back(QStringLiteral("REPLAY_DIR"), shared_.path());
        s.environment.emplace_back(QStringLiteral("REPLAY_SLOW_HOST"), QStringLiteral("n3"));
        s.environment.emplace_back(QStringLiteral("REPLAY_DELAY"), delay);
        const QString subnet = hosts_->host(QStringLiteral("n1")).address.section(QLatin1Char('.'), 0, 2) +
                               QStringLiteral(".0/24");
        s.launcherArgs = {QStringLiteral("--allow-run-as-root"),
                          QStringLiteral("--mca"),
                          QStringLiteral("plm_rsh_agent"),
                          QStringLiteral("ssh -F ") + config_,
                          QStringLiteral("--mca"),
                          QStringLiteral("plm_rsh_no_tree_spawn"),
                          QStringLiteral("1"),
                          QStringLiteral("--mca"),
                          QStringLiteral("oob_tcp_if_include"),
                          subnet};
        return s;
    }

private slots:
    void initTestCase() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QFAIL(qPrintable(why));
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty(),
                 "mpirun (Debian package openmpi-bin) is needed");
        hosts_ = std::make_unique<SshTestHosts>();
        QVERIFY(hosts_->ok());
        for (const char* n : {"n1", "n2", "n3", "n4"})
            QVERIFY(hosts_->add(QLatin1String(n)));
        const QStringList all{QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("n3"),
                              QStringLiteral("n4")};
        knownHosts_ = hosts_->knownHosts(all);
        config_ = hosts_->sshConfig(
            QStringLiteral("Host *\n  UserKnownHostsFile %1\n  StrictHostKeyChecking yes\n  BatchMode yes\n")
                .arg(knownHosts_));
    }

    void huntFindsTheSlowHost() {
        QTemporaryDir results;
        HuntOptions o;
        o.request.spec =
            spec({QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("n3"), QStringLiteral("n4")});
        o.request.resultsDirectory = results.path();
        o.request.counters = fleetOptions();
        StragglerHunt hunt;
        QSignalSpy finished(&hunt, &StragglerHunt::finished);
        hunt.start(o);
        QVERIFY(finished.wait(240000));
        QCOMPARE(hunt.runs().size(), size_t(6)); // every pair of four, in three rounds of two
        for (const GroupRun& r : hunt.runs())
            QVERIFY2(r.error.isEmpty() && r.busbw,
                     qPrintable(r.hosts.join(',') + QStringLiteral(": ") + r.error));
        const auto verdict = finished.first().first().value<StragglerVerdict>();
        QCOMPARE(verdict.slowHosts.size(), size_t(1));
        QCOMPARE(verdict.slowHosts[0].subject, QStringLiteral("n3"));
        QVERIFY(verdict.slowPairs.empty());
        // Every run was saved, and each reopens to the rows the real run had.
        const NcclTestsRun real = parseNcclTestsOutput(fixtureBytes(QLatin1String(kReplayed)));
        const QStringList saved = listRunRecords(results.path());
        QCOMPARE(saved.size(), 6);
        for (const QString& path : saved) {
            QString error;
            const RunRecord rec = loadRunRecord(path, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(rec.run.rows.size(), real.rows.size());
            QCOMPARE(rec.exitStatus, std::optional(0));
            QVERIFY(rec.meta.command.contains(QStringLiteral("mpirun --host")));
            QCOMPARE(rec.meta.hosts.size(), 2);
            QVERIFY(rec.problems.isEmpty());
            // Each host's agent was sampled before and after; mpirun's own traffic crossed the veth in
            // between.
            QCOMPARE(rec.countersBefore.size(), size_t(2));
            QCOMPARE(rec.countersAfter.size(), size_t(2));
            qint64 received = 0;
            for (size_t i = 0; i < 2; ++i)
                for (const CounterChange& c :
                     counterChanges(rec.countersBefore[i].first, rec.countersBefore[i].second,
                                    rec.countersAfter[i].second))
                    if (c.counter.endsWith(QLatin1String("/rx_bytes")) &&
                        !c.counter.contains(QLatin1String("/lo/")))
                        received += c.delta.value_or(0);
            QVERIFY2(received > 0, qPrintable(path));
        }
    }

    void fromALaunchHost() {
        // n1 runs mpirun itself, reached over SSH with the same known_hosts rules as everything else.
        NcclRunner runner;
        QSignalSpy finished(&runner, &NcclRunner::finished);
        SshOptions o;
        o.knownHostsFile = hosts_->knownHosts({QStringLiteral("n1")});
        runner.startRemote(SshConfig::fromFile(config_).resolve(QStringLiteral("n1")), o,
                           launchArgv(spec({QStringLiteral("n1"), QStringLiteral("n2")})), 60000);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(1).toString(), QString());
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QCOMPARE(runner.run().rows.size(),
                 parseNcclTestsOutput(fixtureBytes(QLatin1String(kReplayed))).rows.size());
    }

    void hostKilledMidRun() {
        QTemporaryDir results;
        RunRequest request;
        request.spec = spec({QStringLiteral("n1"), QStringLiteral("n2")}, QStringLiteral("0.1"));
        request.resultsDirectory = results.path();
        request.counters = fleetOptions();
        RecordedRun run;
        int rows = 0;
        connect(&run, &RecordedRun::row, this, [&](const NcclTestsRow&) {
            if (++rows == 3)
                hosts_->drop(QStringLiteral("n2")); // its sshd, orted, agent and rank die at once
        });
        QSignalSpy finished(&run, &RecordedRun::finished);
        run.start(request);
        QVERIFY(finished.wait(120000));
        const auto outcome = finished.first().first().value<RunOutcome>();
        QVERIFY2(outcome.exitStatus != 0, qPrintable(outcome.error));
        QVERIFY2(outcome.error.contains(QStringLiteral("lost communication")) &&
                     outcome.error.contains(QStringLiteral("node n2")),
                 qPrintable(outcome.error));
        QCOMPARE(outcome.counterErrors.size(), 1); // n2 could not be sampled after
        QVERIFY2(outcome.counterErrors[0].startsWith(QStringLiteral("n2 (after)")),
                 qPrintable(outcome.counterErrors[0]));
        const int total = int(parseNcclTestsOutput(fixtureBytes(QLatin1String(kReplayed))).rows.size());
        QVERIFY(rows >= 3 && rows < total);
        QString loadError;
        const RunRecord rec = loadRunRecord(outcome.record, &loadError);
        QVERIFY(loadError.isEmpty());
        QCOMPARE(int(rec.run.rows.size()), rows);
        QCOMPARE(rec.exitStatus, std::optional(outcome.exitStatus));
        QCOMPARE(rec.error, outcome.error);
        QCOMPARE(rec.countersAfter.size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestNcclFleetRun)
#include "test_nccl_fleet_run.moc"
