// nccl-tests launches: the command lines mpirun and srun get, refused specs,
// and a real Open MPI mpirun starting a stand-in that replays a real run
// (this machine has no GPU), read row by row as it streams.
#include "test_support.h"

#include "runs/nccl_run_spec.h"
#include "runs/nccl_runner.h"
#include "transport/shell_quote.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <csignal>

using namespace rackscope;
using namespace rackscope::test;

namespace {
// Whether Open MPI's mpirun is here, allowed to run as root (CI runs as root; Open MPI asks for both
// variables).
bool mpirunReady() {
    qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
    qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    return !QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty();
}

// Whether a process whose command line matches `pattern` runs (pgrep leaves itself out).
bool anyProcessMatches(const QString& pattern) {
    QProcess p;
    p.start(QStringLiteral("pgrep"), {QStringLiteral("-f"), pattern});
    p.waitForFinished(10000);
    return !p.readAllStandardOutput().trimmed().isEmpty();
}
} // namespace

class TestNcclRun : public QObject {
    Q_OBJECT
private slots:
    void commandLines() {
        NcclRunSpec s;
        s.hosts = {QStringLiteral("gpu01"), QStringLiteral("gpu02")};
        s.environment.emplace_back(QStringLiteral("NCCL_IB_HCA"), QStringLiteral("=mlx5_0,mlx5_1"));
        s.binaryDir = QStringLiteral("/opt/nccl tests/build");
        QCOMPARE(shellCommand(launchArgv(s)).line,
                 QStringLiteral("mpirun --host gpu01:8,gpu02:8 -np 16 -N 8 --bind-to none -x NCCL_DEBUG=INFO "
                                "-x NCCL_IB_HCA==mlx5_0,mlx5_1 "
                                "'/opt/nccl tests/build/all_reduce_perf' -b 8 -e 8G -f 2 -g 1 -n 20 -w 5 -d "
                                "float -o sum -c 1"));
        s.launcher = Launcher::Srun;
        s.collective = Collective::AllGather;
        s.processesPerHost = 4;
        s.gpusPerProcess = 2;
        s.binaryDir.clear();
        QCOMPARE(shellCommand(launchArgv(s)).line,
                 QStringLiteral(
                     "env NCCL_DEBUG=INFO NCCL_IB_HCA==mlx5_0,mlx5_1 srun --nodes=2 --ntasks-per-node=4 "
                     "'--nodelist=gpu[01-02]' --mpi=pmix "
                     "--export=ALL all_gather_perf -b 8 -e 8G -f 2 -g 2 -n 20 -w 5 -d float -o sum -c 1"));
        QCOMPARE(parseByteSize(QStringLiteral("8G")), std::optional<qint64>(8589934592LL));
        QCOMPARE(parseByteSize(QStringLiteral("512k")), std::optional<qint64>(524288));
        QVERIFY(!parseByteSize(QStringLiteral("8T")));
        QVERIFY(!parseByteSize(QStringLiteral("-1")));
    }

    void refusedSpecs() {
        NcclRunSpec s;
        QVERIFY(validateRunSpec(s).contains(QStringLiteral("no hosts")));
        s.hosts = {QStringLiteral("gpu01;reboot")};
        QVERIFY(validateRunSpec(s).contains(QStringLiteral("not a host name")));
        s.hosts = {QStringLiteral("gpu01")};
        s.minBytes = QStringLiteral("1G");
        s.maxBytes = QStringLiteral("8M");
        QVERIFY(validateRunSpec(s).contains(QStringLiteral("above")));
        s.maxBytes = QStringLiteral("8G");
        s.environment.emplace_back(QStringLiteral("BAD NAME"), QStringLiteral("x"));
        QVERIFY(validateRunSpec(s).contains(QStringLiteral("environment variable")));
        s.environment.pop_back();
        QVERIFY(validateRunSpec(s).isEmpty());
    }

    void realMpirunStreamsRows() {
        QVERIFY2(mpirunReady(), "mpirun (Debian package openmpi-bin) is needed");
        QTemporaryDir dir;
        const QString replayed =
            fixture(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"));
        NcclRunSpec s;
        s.hosts = {QStringLiteral("localhost")};
        s.processesPerHost = 1;
        s.binary = QStringLiteral(RACKSCOPE_TESTS_DIR "/runs/replay_nccl_tests.sh");
        s.environment.emplace_back(QStringLiteral("REPLAY_FILE"), replayed);
        s.environment.emplace_back(QStringLiteral("REPLAY_LOG"), dir.filePath(QStringLiteral("log")));
        s.environment.emplace_back(QStringLiteral("NCCL_SOCKET_IFNAME"), QStringLiteral("lo"));
        NcclRunner runner;
        QElapsedTimer clock;
        std::vector<qint64> rowAt;
        connect(&runner, &NcclRunner::row, this,
                [&](const NcclTestsRow&) { rowAt.push_back(clock.elapsed()); });
        QSignalSpy finished(&runner, &NcclRunner::finished);
        clock.start();
        runner.startLocal(launchArgv(s));
        QVERIFY(finished.wait(60000));
        const qint64 endedAt = clock.elapsed();
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QCOMPARE(finished.first().at(1).toString(), QString());
        const NcclTestsRun whole = parseNcclTestsOutput(
            fixtureBytes(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt")));
        QCOMPARE(runner.run().rows.size(), whole.rows.size());
        QCOMPARE(runner.run().avgBusbw, whole.avgBusbw);
        QCOMPARE(rowAt.size(), whole.rows.size());
        QVERIFY2(rowAt.front() + 100 < endedAt, "rows arrive while the run goes on, not all at its end");
        // The stand-in got nccl-tests' flags and the environment through mpirun -x.
        QFile log(dir.filePath(QStringLiteral("log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray seen = log.readAll();
        QVERIFY2(seen.startsWith("-b 8 -e 8G -f 2 -g 1 -n 20 -w 5 -d float -o sum -c 1\n"), seen.constData());
        QVERIFY(seen.contains("NCCL_DEBUG=INFO"));
    }

    void aMissingBenchmarkIsNamedNotMpirunsNote() {
        // A real mpirun asked to start a benchmark that is not there: the reason names it and the node,
        // not Open MPI's note about misspelt options that follows.
        QVERIFY2(mpirunReady(), "mpirun (Debian package openmpi-bin) is needed");
        NcclRunSpec s;
        s.hosts = {QStringLiteral("localhost")};
        s.processesPerHost = 1;
        s.binary = QStringLiteral("no_such_all_reduce_perf");
        NcclRunner runner;
        QSignalSpy finished(&runner, &NcclRunner::finished);
        runner.startLocal(launchArgv(s));
        QVERIFY(finished.wait(60000));
        const QString why = finished.first().at(1).toString();
        QVERIFY2(why.contains(QStringLiteral("no_such_all_reduce_perf: not found")) &&
                     !why.contains(QStringLiteral("misspelling")),
                 qPrintable(why));
    }

    void termOfTheCliEndsMpirunAndItsRanks() {
        // `kill -TERM` of rackscope-cli, as a batch system or a person ends it: the run's mpirun and
        // the benchmark it started end with it, none left behind.
        QVERIFY2(mpirunReady(), "mpirun (Debian package openmpi-bin) is needed");
        QTemporaryDir dir;
        const QString stand =
            dir.filePath(QStringLiteral("slow_all_reduce_perf.sh")); // a name only this test's processes have
        QVERIFY(QFile::copy(QStringLiteral(RACKSCOPE_TESTS_DIR "/runs/replay_nccl_tests.sh"), stand));
        QFile::setPermissions(stand, QFile::ReadOwner | QFile::ExeOwner);
        const QString log = dir.filePath(QStringLiteral("log"));
        QProcess cli;
        cli.start(QStringLiteral(RACKSCOPE_CLI),
                  {QStringLiteral("nccl"), QStringLiteral("--hosts"), QStringLiteral("localhost"),
                   QStringLiteral("--ppn"), QStringLiteral("1"), QStringLiteral("--binary"), stand,
                   QStringLiteral("--no-save"), QStringLiteral("--env"),
                   QStringLiteral("REPLAY_FILE=") +
                       fixture(QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt")),
                   QStringLiteral("--env"), QStringLiteral("REPLAY_DELAY=30"), QStringLiteral("--env"),
                   QStringLiteral("REPLAY_LOG=") + log});
        QVERIFY(cli.waitForStarted(10000));
        QElapsedTimer clock;
        clock.start();
        while (!QFile::exists(log) && clock.elapsed() < 60000)
            QTest::qWait(50); // the benchmark is running
        QVERIFY2(QFile::exists(log), cli.readAllStandardError().constData());
        const auto running = [&] { return anyProcessMatches(stand); };
        QVERIFY(running());
        ::kill(pid_t(cli.processId()), SIGTERM);
        QVERIFY(cli.waitForFinished(20000));
        clock.restart();
        while (running() && clock.elapsed() < 10000)
            QTest::qWait(100);
        QVERIFY2(!running(), "the benchmark outlived rackscope-cli");
        QVERIFY(!anyProcessMatches(QStringLiteral("mpirun.*") + stand));
    }

    void launcherThatCannotStart() {
        NcclRunner runner;
        QSignalSpy finished(&runner, &NcclRunner::finished);
        runner.startLocal({QStringLiteral("/nonexistent/mpirun")});
        QVERIFY(finished.wait(10000));
        QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("cannot start")));
    }

    // The benchmark's own account of why it stopped wins over the launcher's
    // noise after it (lines as mpirun printed them for rackscope-nccl-bench on
    // a host without a GPU driver).
    void failureNamesTheBenchmarksReason() {
        const QStringList lines{
            QStringLiteral("rackscope-nccl-bench: vm: CUDA failure in cudaGetDeviceCount: CUDA driver "
                           "version is insufficient for CUDA "
                           "runtime version (no usable NVIDIA GPU or driver on this host)"),
            QStringLiteral("--------------------------------------------------------------------------"),
            QStringLiteral("MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD"),
            QStringLiteral("with errorcode 1."),
            QStringLiteral(
                "[vm:12767] [[23841,0],0] ORTE_ERROR_LOG: Data unpack would read past end of buffer in file "
                "../../../orte/util/show_help.c at line 501")};
        const QString why = explainRunFailure(1, lines);
        QVERIFY2(why.startsWith(QStringLiteral(
                     "the run ended with exit status 1: rackscope-nccl-bench: vm: CUDA failure")),
                 qPrintable(why));
        QVERIFY(why.contains(QStringLiteral("no usable NVIDIA GPU")));
    }
};

QTEST_GUILESS_MAIN(TestNcclRun)
#include "test_nccl_run.moc"
