// The agent protocol, both halves: the core's AgentClient and the agent's
// Server in one process over a socketpair, the real agent through a pipe,
// and hostile input to each.
#include "gpu/nvml_standin.h"
#include "test_support.h"

#include "protocol/protocol.h"
#include "protocol/server.h"
#include "transport/agent_client.h"
#include "transport/local_agent.h"

#include <QBuffer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <csignal>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace rackscope;

namespace {

// The real agent on a pipe, read message by message.
class AgentProcess {
public:
    explicit AgentProcess(const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                          const QStringList& args = {}) {
        process_.setProcessEnvironment(env);
        process_.start(QStringLiteral(RACKSCOPE_AGENT), QStringList{QStringLiteral("--stdio")} + args);
        process_.waitForStarted(10000);
    }
    ~AgentProcess() {
        process_.closeWriteChannel();
        if (!process_.waitForFinished(5000))
            process_.kill();
    }
    QProcess& process() { return process_; }
    void send(const QByteArray& line) { process_.write(line + '\n'); }
    // The next message, or an empty object after timeoutMs.
    QJsonObject next(int timeoutMs = 10000) {
        QElapsedTimer t;
        t.start();
        while (!process_.canReadLine() && t.elapsed() < timeoutMs)
            process_.waitForReadyRead(100);
        if (!process_.canReadLine())
            return {};
        return QJsonDocument::fromJson(process_.readLine()).object();
    }
    // The next message about id (skipping other ids' events).
    QJsonObject nextFor(qint64 id, int timeoutMs = 10000) {
        for (QJsonObject m = next(timeoutMs); !m.isEmpty(); m = next(timeoutMs))
            if (m.value("id").toInteger(-2) == id)
                return m;
        return {};
    }
    // The answer to request `id` (a result or an error), past the events its stream still sends.
    QJsonObject answerFor(qint64 id, int timeoutMs = 10000) {
        QJsonObject m;
        while (!(m = nextFor(id, timeoutMs)).isEmpty() && m.contains("event")) {
        }
        return m;
    }

private:
    QProcess process_;
};

QString errorCode(const QJsonObject& m) {
    return m.value("error").toObject().value("code").toString();
}

} // namespace

class TestAgentProtocol : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { std::signal(SIGPIPE, SIG_IGN); }

    void clientAndServerInOneProcess() {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
        int serverStatus = -1;
        std::thread server(
            [&] { serverStatus = rsagent::Server(fds[0], fds[0], rsagent::CollectOptions{}).run(); });
        {
            QLocalSocket socket;
            QVERIFY(socket.setSocketDescriptor(fds[1]));
            AgentClient client(&socket);
            QSignalSpy ready(&client, &AgentClient::ready);
            QSignalSpy results(&client, &AgentClient::result);
            QSignalSpy events(&client, &AgentClient::event);
            QSignalSpy failures(&client, &AgentClient::failed);
            QVERIFY(ready.wait(10000));
            QCOMPARE(client.hello().value("protocol").toInt(), 1);
            QCOMPARE(client.hello().value("capabilities").toArray().first().toString(),
                     QStringLiteral("collect"));

            const qint64 collect =
                client.request(QStringLiteral("collect"), {{"sections", QJsonArray{"versions"}}});
            QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 10000);
            QCOMPARE(results[0][0].toLongLong(), collect);
            const QJsonObject snapshot = results[0][1].toJsonValue().toObject();
            QCOMPARE(snapshot.value("type").toString(), QStringLiteral("rackscope-snapshot"));
            QVERIFY(!snapshot.value("versions").toObject().value("kernel").toString().isEmpty());
            QVERIFY(!snapshot.contains("topology")); // only what was asked for

            const qint64 sample =
                client.request(QStringLiteral("sample"), {{"interval_ms", 50}, {"count", 3}});
            QTRY_COMPARE_WITH_TIMEOUT(results.size(), 2, 10000);
            QCOMPARE(events.size(), 3);
            for (int i = 0; i < 3; ++i) {
                QCOMPARE(events[i][0].toLongLong(), sample);
                QCOMPARE(events[i][1].toString(), QStringLiteral("sample"));
                QCOMPARE(events[i][2].toJsonObject().value("seq").toInt(), i);
            }
            QCOMPARE(results[1][1].toJsonValue().toObject().value("samples").toInt(), 3);

            client.request(QStringLiteral("reboot"));
            QTRY_COMPARE_WITH_TIMEOUT(failures.size(), 1, 10000);
            QCOMPARE(failures[0][1].toString(), QStringLiteral("unknown-method"));
            socket.close(); // EOF: the server ends cleanly
        }
        server.join();
        QCOMPARE(serverStatus, 0);
        ::close(fds[0]);
    }

    void throughARealPipe() {
        AgentProcess agent;
        const QJsonObject hello = agent.next();
        QCOMPARE(hello.value("type").toString(), QStringLiteral("hello"));
        QCOMPARE(hello.value("protocol").toInt(), 1);
        agent.send("{\"id\":1,\"method\":\"collect\"}");
        const QJsonObject r = agent.nextFor(1, 60000);
        const QJsonObject snap = r.value("result").toObject();
        for (const char* section :
             {"topology", "gpus", "rdma", "net", "pcie", "gpudirect", "roce_qos", "lldp", "versions"})
            QVERIFY2(snap.contains(QLatin1String(section)), section);
        QVERIFY(snap.value("topology").toObject().value("available").toBool());
    }

    void hostileInputIsAnsweredAndServingGoesOn() {
        AgentProcess agent;
        QVERIFY(!agent.next().isEmpty()); // hello
        agent.send(QByteArray(17 * 1024 * 1024, 'a'));
        QCOMPARE(errorCode(agent.next()), QStringLiteral("line-too-long"));
        const QList<QPair<QByteArray, QString>> cases = {
            {"{not json", "parse-error"},
            {"[1,2]", "bad-request"},
            {"{\"method\":\"collect\"}", "bad-request"},
            {"{\"id\":\"x\",\"method\":\"hello\"}", "bad-request"},
            {"{\"id\":-4,\"method\":\"hello\"}", "bad-request"},
            {"{\"id\":2,\"method\":42}", "bad-request"},
            {"{\"id\":2,\"method\":\"reboot\"}", "unknown-method"},
            {"{\"id\":2,\"method\":\"exec\",\"params\":{\"cmd\":\"rm -rf /\"}}", "unknown-method"},
            {"{\"id\":3,\"method\":\"sample\",\"params\":{\"interval_ms\":\"fast\"}}", "bad-params"},
            {"{\"id\":3,\"method\":\"sample\",\"params\":{\"interval_ms\":1}}", "bad-params"},
            {"{\"id\":3,\"method\":\"sample\",\"params\":{\"count\":0}}", "bad-params"},
            {"{\"id\":4,\"method\":\"collect\",\"params\":{\"sections\":\"rdma\"}}", "bad-params"},
            {"{\"id\":5,\"method\":\"collect\",\"params\":{\"sections\":[\"bogus\"]}}", "bad-params"},
            {"{\"id\":6,\"method\":\"hello\",\"protocol\":2}", "unsupported-protocol"},
            {"{\"id\":7,\"method\":\"hello\",\"params\":[1]}", "bad-params"},
            {"{\"id\":8,\"method\":\"cancel\"}", "not-found"},
            {QByteArrayLiteral("\x01\x02\xff\xfe garbage"), "parse-error"},
        };
        for (const auto& [line, code] : cases) {
            agent.send(line);
            const QJsonObject m = agent.next();
            QVERIFY2(errorCode(m) == code,
                     qPrintable(QString::fromUtf8(line.left(60)) + QStringLiteral(" -> ") +
                                QString::fromUtf8(QJsonDocument(m).toJson(QJsonDocument::Compact))));
            QVERIFY(!m.value("error").toObject().value("message").toString().isEmpty());
        }
        agent.send("{\"id\":9,\"method\":\"hello\"}");
        QCOMPARE(agent.next().value("result").toObject().value("type").toString(), QStringLiteral("hello"));
    }

    // rdma_bw runs ib_write_bw with the arguments the agent builds from checked values, nothing a request
    // names: here an ib_write_bw on PATH that writes down its arguments and waits to be ended.
    void rdmaBwRunsOnlyWhatItBuilds() {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("sys/class/infiniband/mlx5_0"))));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("bin"))));
        const QString program = dir.filePath(QStringLiteral("bin/ib_write_bw")),
                      argsFile = dir.filePath(QStringLiteral("args"));
        QFile script(program);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(
            QStringLiteral("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > %1.new && mv %1.new %1\n"
                           "[ \"$2\" = mlx5_0 ] && [ -n \"$QUICK\" ] && exec echo done\nexec sleep 600\n")
                .arg(argsFile)
                .toUtf8());
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"),
                   dir.filePath(QStringLiteral("bin")) + QStringLiteral(":/usr/bin:/bin"));
        env.insert(QStringLiteral("QUICK"), QStringLiteral("1"));
        AgentProcess agent(env, {QStringLiteral("--sysfs-root"), dir.filePath(QStringLiteral("sys"))});
        QVERIFY(agent.next().value("capabilities").toArray().contains(QStringLiteral("rdma_bw")));

        const QList<QByteArray> refused = {
            R"({"id":1,"method":"rdma_bw","params":{"role":"client","device":"mlx5_0","tcp_port":18515,"peer":"10.0.0.2","cmd":"x"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"client","device":"../../etc","tcp_port":18515,"peer":"a"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"client","device":"mlx5_9","tcp_port":18515,"peer":"a"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"client","device":"mlx5_0","tcp_port":18515,"peer":"-oProxyCommand=x"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"client","device":"mlx5_0","tcp_port":18515,"peer":"a;reboot"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"client","device":"mlx5_0","tcp_port":18515}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"both","device":"mlx5_0","tcp_port":18515}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0","tcp_port":18515,"peer":"a"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0","tcp_port":80}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0"}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0","tcp_port":18515,"duration_s":0}})",
            R"({"id":1,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0","tcp_port":18515,"gpu":"0"}})",
        };
        for (const QByteArray& line : refused) {
            agent.send(line);
            const QJsonObject m = agent.answerFor(1);
            QVERIFY2(errorCode(m) == QStringLiteral("bad-params"), line.constData());
        }
        QVERIFY(!QFile::exists(argsFile)); // nothing ran

        agent.send(
            R"({"id":2,"method":"rdma_bw","params":{"role":"client","device":"mlx5_0","tcp_port":18600,"peer":"10.0.0.2","gpu":3,"duration_s":7,"qps":4,"bytes":1048576}})");
        const QJsonObject done = agent.answerFor(2).value("result").toObject();
        QCOMPARE(done.value("exit_status").toInt(), 0);
        QCOMPARE(done.value("output").toString(), QStringLiteral("done\n"));
        QFile args(argsFile);
        QVERIFY(args.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(args.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 (QStringList{"-d", "mlx5_0", "-i", "1", "-p", "18600", "-D", "7", "-s", "1048576", "-q", "4",
                              "-F", "--report_gbits", "--use_cuda=3", "10.0.0.2"}));

        // A server waiting for its client is ended by a cancel, and the agent serves meanwhile.
        env.remove(QStringLiteral("QUICK"));
        AgentProcess waiting(env, {QStringLiteral("--sysfs-root"), dir.filePath(QStringLiteral("sys"))});
        QVERIFY(!waiting.next().isEmpty());
        waiting.send(
            R"({"id":3,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0","tcp_port":18601,"wait_s":600}})");
        waiting.send(R"({"id":4,"method":"hello"})");
        QCOMPARE(waiting.answerFor(4).value("result").toObject().value("type").toString(),
                 QStringLiteral("hello"));
        waiting.send(R"({"id":3,"method":"cancel"})");
        const QJsonObject cancelled = waiting.answerFor(3).value("result").toObject();
        QVERIFY(cancelled.value("cancelled").toBool());
        QCOMPARE(cancelled.value("failure").toString(), QStringLiteral("cancelled"));

        // Without perftest the answer says so.
        env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        AgentProcess bare(env, {QStringLiteral("--sysfs-root"), dir.filePath(QStringLiteral("sys"))});
        QVERIFY(!bare.next().isEmpty());
        bare.send(
            R"({"id":5,"method":"rdma_bw","params":{"role":"server","device":"mlx5_0","tcp_port":18602}})");
        const QJsonObject missing = bare.answerFor(5).value("result").toObject();
        QVERIFY(missing.value("program").isNull());
        QVERIFY(missing.value("failure").toString().contains(QLatin1String("not installed")));
    }

    void deepNestingIsABadRequestNotACrash() {
        AgentProcess agent;
        QVERIFY(!agent.next().isEmpty());
        const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
        agent.send("{\"id\":2,\"method\":\"collect\",\"params\":{\"sections\":" + deep + "}}");
        const QJsonObject m = agent.next();
        QCOMPARE(errorCode(m), QStringLiteral("bad-request"));
        QVERIFY(m.value("error").toObject().value("message").toString().contains(
            QStringLiteral("nested deeper")));
        // Brackets inside a string are text, not nesting.
        agent.send("{\"id\":3,\"method\":\"hello\",\"params\":{\"note\":\"" + QByteArray(100000, '[') +
                   "\"}}");
        QCOMPARE(agent.nextFor(3).value("result").toObject().value("type").toString(),
                 QStringLiteral("hello"));
        QCOMPARE(agent.process().state(), QProcess::Running);
    }

    void samplesPerClientAreCapped() {
        AgentProcess agent;
        QVERIFY(!agent.next().isEmpty());
        const int cap = int(rsagent::protocol::kMaxConcurrentSamples);
        for (int id = 100; id < 100 + cap; ++id)
            agent.send(
                QStringLiteral(
                    "{\"id\":%1,\"method\":\"sample\",\"params\":{\"interval_ms\":3600000,\"count\":2}}")
                    .arg(id)
                    .toUtf8());
        agent.send(QStringLiteral(
                       "{\"id\":%1,\"method\":\"sample\",\"params\":{\"interval_ms\":3600000,\"count\":2}}")
                       .arg(100 + cap)
                       .toUtf8());
        const QJsonObject refused = agent.nextFor(100 + cap);
        QCOMPARE(errorCode(refused), QStringLiteral("busy"));
        agent.send("{\"id\":100,\"method\":\"cancel\"}");
        QVERIFY(agent.nextFor(100).value("result").toObject().value("cancelled").toBool());
        agent.send(
            QStringLiteral("{\"id\":%1,\"method\":\"sample\",\"params\":{\"interval_ms\":50,\"count\":1}}")
                .arg(100 + cap)
                .toUtf8());
        QCOMPARE(agent.nextFor(100 + cap).value("event").toString(),
                 QStringLiteral("sample")); // a place was free again
    }

    void closedStdinMidRequestEndsCleanly() {
        AgentProcess agent;
        QVERIFY(!agent.next().isEmpty());
        agent.process().write("{\"id\":1,\"method\":\"col");
        agent.process().closeWriteChannel();
        QVERIFY(agent.process().waitForFinished(5000));
        QCOMPARE(agent.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(agent.process().exitCode(), 0);
    }

    void endsWhenItsConsoleDies() {
        // The console is killed outright while a pipe it shared keeps the agent's stdin open (no EOF):
        // the agent sees its parent go and ends, rather than live on as an orphan.
        int fds[2];
        QCOMPARE(::pipe(fds), 0); // inherited by the shell below; this test keeps the write end open
        QTemporaryDir dir;
        const QString said = dir.filePath(QStringLiteral("out"));
        QProcess console;
        console.start(QStringLiteral("sh"),
                      {QStringLiteral("-c"), QStringLiteral("\"$0\" --stdio <&$1 >\"$2\" & echo $!; wait"),
                       QStringLiteral(RACKSCOPE_AGENT), QString::number(fds[0]), said});
        QVERIFY(console.waitForReadyRead(10000));
        const pid_t agent = pid_t(console.readLine().trimmed().toInt());
        QVERIFY(agent > 0 && ::kill(agent, 0) == 0);
        QElapsedTimer greeted;
        greeted.start();
        while (QFileInfo(said).size() == 0 && greeted.elapsed() < 10000)
            QTest::qWait(20); // serving: its hello is out
        QVERIFY(QFileInfo(said).size() > 0);
        ::kill(pid_t(console.processId()), SIGKILL);
        QVERIFY(console.waitForFinished(5000));
        QElapsedTimer clock;
        clock.start();
        // Gone, or a zombie its new parent has not reaped yet.
        const auto alive = [&] {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(agent));
            return stat.open(QIODevice::ReadOnly) && !QString::fromLatin1(stat.readAll())
                                                          .section(QLatin1Char(')'), -1)
                                                          .trimmed()
                                                          .startsWith(QLatin1Char('Z'));
        };
        while (alive() && clock.elapsed() < 15000)
            QTest::qWait(50);
        const bool ended = !alive();
        if (!ended)
            ::kill(agent, SIGKILL);
        ::close(fds[0]);
        ::close(fds[1]);
        QVERIFY2(ended, "the agent outlived its console");
    }

    void aDeadAgentIsDescribed() {
        // An agent that greets, says why on stderr and dies of a signal: its signal and its words, not
        // "Process crashed".
        QTemporaryDir dir;
        const QString dying = dir.filePath(QStringLiteral("dying-agent"));
        QFile f(dying);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho "
                "'{\"type\":\"hello\",\"protocol\":1,\"agent\":\"0.1.0\",\"host\":\"t\"}'\nread line\n"
                "echo 'rackscope-agent: hwloc: cannot read /sys/devices' >&2\nkill -SEGV $$\n");
        f.close();
        QFile::setPermissions(dying, QFile::ReadOwner | QFile::ExeOwner);
        const AgentCollect c = collectWithLocalAgent(dying);
        QVERIFY(!c.snapshot);
        QVERIFY2(c.error.contains(QStringLiteral("signal 11")) &&
                     c.error.contains(QStringLiteral("cannot read /sys/devices")),
                 qPrintable(c.error));
    }

    void sampleStreamsAndCancels() {
        AgentProcess agent;
        QVERIFY(!agent.next().isEmpty());
        agent.send("{\"id\":5,\"method\":\"sample\",\"params\":{\"interval_ms\":100,\"count\":1000}}");
        const QJsonObject first = agent.nextFor(5);
        QCOMPARE(first.value("event").toString(), QStringLiteral("sample"));
        const QJsonObject counters = first.value("data").toObject().value("counters").toObject();
        QVERIFY(counters.contains(QStringLiteral("net/lo/rx_bytes")));
        QVERIFY(counters.value(QStringLiteral("net/lo/rx_bytes"))
                    .toObject()
                    .contains(QStringLiteral("rate_per_s")));
        QCOMPARE(agent.nextFor(5).value("data").toObject().value("seq").toInt(), 1);
        agent.send("{\"id\":5,\"method\":\"sample\"}");
        // The stream goes on meanwhile: its samples may come first.
        QCOMPARE(errorCode(agent.answerFor(5)), QStringLiteral("duplicate-id"));
        agent.send("{\"id\":5,\"method\":\"cancel\"}");
        const QJsonObject end = agent.answerFor(5);
        QVERIFY(end.value("result").toObject().value("cancelled").toBool());
        QVERIFY(end.value("result").toObject().value("samples").toInt() >= 2);
        QVERIFY(agent.next(400).isEmpty()); // nothing more after the cancel
    }

    // A sample asking for GPUs reads NVML each time, here the stand-in replaying nvidia-smi's CSV: every
    // value is one the GPU gave, in its order, nulls where it gave none, and no counters when none were asked
    // for.
    void sampleReadsGpusThroughNvml() {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("gpus.csv"));
        QVERIFY(test::writeStandinCsv(csv));
        AgentProcess agent(test::withStandin(csv));
        QVERIFY(agent.next().value("capabilities").toArray().contains(QStringLiteral("sample_gpus")));
        agent.send(
            R"({"id":3,"method":"sample","params":{"interval_ms":100,"count":25,"counters":false,"gpus":true}})");
        int lastRow = -1;
        for (int i = 0; i < 25; ++i) {
            const QJsonObject data = agent.nextFor(3).value("data").toObject();
            QVERIFY(!data.contains("counters"));
            const QJsonObject gpus = data.value("gpus").toObject();
            QVERIFY2(gpus.value("available").toBool(), qPrintable(gpus.value("reason").toString()));
            const QJsonArray list = gpus.value("gpus").toArray();
            QCOMPARE(list.size(), 2);
            const QJsonObject g0 = list[0].toObject(), g1 = list[1].toObject();
            QCOMPARE(g0.value("name").toString(), QStringLiteral("NVIDIA H100 80GB HBM3"));
            QVERIFY(g0.value("uuid").toString().startsWith(QStringLiteral("GPU-")));
            const int row = test::standinRowOf(0, g0.value("util_pct").toDouble());
            QVERIFY2(row >= lastRow, qPrintable(QString::number(g0.value("util_pct").toDouble())));
            lastRow = row;
            const test::StandinRow& truth = test::standinRows()[size_t(row)];
            QCOMPARE(g0.value("mem_used_mib").toDouble(), truth.memUsedMiB);
            QCOMPARE(g0.value("mem_total_mib").toDouble(), test::kStandinMemTotalMiB);
            QCOMPARE(g0.value("power_w").toDouble(), *truth.powerW);
            QCOMPARE(g0.value("sm_clock_mhz").toDouble(), truth.smClockMHz);
            QVERIFY(g1.value("power_w").isNull()); // [N/A]: unknown, not 0
            QCOMPARE(g1.value("util_pct").toDouble(), 0.0);
        }
        QCOMPARE(test::standinRows()[size_t(lastRow)].t, 1.2); // 2.5 s of samples reach the last row
        QCOMPARE(agent.answerFor(3).value("result").toObject().value("samples").toInt(), 25);

        // Asking for nothing, or in the wrong type, is refused.
        agent.send(R"({"id":4,"method":"sample","params":{"counters":false}})");
        QCOMPARE(errorCode(agent.answerFor(4)), QStringLiteral("bad-params"));
        agent.send(R"({"id":5,"method":"sample","params":{"gpus":"yes"}})");
        QCOMPARE(errorCode(agent.answerFor(5)), QStringLiteral("bad-params"));
    }

    // Where NVML is there but its driver is not loaded, each sample says why rather than giving zeros.
    void sampleSaysWhyGpusCannotBeRead() {
        QProcessEnvironment env = test::withStandin(QString());
        env.remove(QStringLiteral("RACKSCOPE_NVML_STANDIN")); // the stand-in answers as a driver not loaded
        AgentProcess agent(env);
        QVERIFY(!agent.next().isEmpty());
        agent.send(R"({"id":6,"method":"sample","params":{"interval_ms":50,"count":2,"gpus":true}})");
        const QJsonObject data = agent.nextFor(6).value("data").toObject();
        QVERIFY(data.contains("counters")); // asked for by default
        const QJsonObject gpus = data.value("gpus").toObject();
        QVERIFY(!gpus.value("available").toBool());
        QCOMPARE(gpus.value("reason").toString(), QStringLiteral("nvmlInit_v2 failed with NVML error 9"));
    }

    void mutatedRequestsNeverStopTheAgent() {
        AgentProcess agent;
        QVERIFY(!agent.next().isEmpty());
        const QList<QByteArray> valid = {
            "{\"id\":1,\"method\":\"hello\"}",
            "{\"id\":2,\"method\":\"collect\",\"params\":{\"sections\":[\"versions\",\"gpudirect\"]}}",
            "{\"id\":3,\"method\":\"sample\",\"params\":{\"interval_ms\":500,\"count\":2}}",
            "{\"id\":3,\"method\":\"cancel\"}"};
        QRandomGenerator rng(2026);
        for (int i = 0; i < 300; ++i) {
            QByteArray line = valid[qsizetype(rng.bounded(quint32(valid.size())))];
            for (int e = 0; e < 1 + int(rng.bounded(3)); ++e) {
                const qsizetype at = qsizetype(rng.bounded(quint32(line.size())));
                switch (rng.bounded(5)) {
                case 0:
                    line[at] = char(rng.bounded(256));
                    break;
                case 1:
                    line.remove(at, 1 + qsizetype(rng.bounded(5)));
                    break;
                case 2:
                    line.insert(at, "9999999999999999999");
                    break;
                case 3:
                    line.insert(at,
                                QByteArray(1 + qsizetype(rng.bounded(200000)), rng.bounded(2) ? '[' : '{'));
                    break; // nesting
                default:
                    line.insert(at, QByteArray(qsizetype(rng.bounded(1u << 20)), 'x'));
                    break; // size
                }
            }
            line.replace('\n', ' ');
            agent.send(line);
        }
        agent.send("{\"id\":777,\"method\":\"hello\"}");
        QCOMPARE(agent.nextFor(777, 30000).value("result").toObject().value("type").toString(),
                 QStringLiteral("hello"));
        QCOMPARE(agent.process().state(), QProcess::Running);
    }

    void clientRefusesAMismatchReadably_data() {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QString>("expect");
        QTest::newRow("newer agent")
            << QByteArray("{\"type\":\"hello\",\"protocol\":2,\"agent\":\"0.9.0\",\"host\":\"node17\"}"
                          "\n")
            << "agent 0.9.0 on node17 speaks protocol 2";
        QTest::newRow("no hello") << QByteArray("{\"id\":1,\"result\":{}}"
                                                "\n")
                                  << "did not greet first";
        QTest::newRow("garbage") << QByteArray("Welcome to node17!\n") << "not a JSON object";
        QTest::newRow("over-long") << QByteArray(4096, 'x') << "longer than 1024 bytes";
    }
    void clientRefusesAMismatchReadably() {
        QFETCH(QByteArray, stream);
        QFETCH(QString, expect);
        QBuffer io(&stream);
        io.open(QIODevice::ReadOnly);
        AgentClient client(&io, nullptr, 1024);
        QSignalSpy errors(&client, &AgentClient::protocolError);
        QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, 5000);
        QVERIFY2(errors[0][0].toString().contains(expect), qPrintable(errors[0][0].toString()));
        QVERIFY(!client.isReady());
    }
};

QTEST_GUILESS_MAIN(TestAgentProtocol)
#include "test_agent_protocol.moc"
