// Collect from N servers over SSH (N = 8, 32, 64 and 256 network-namespace
// hosts running Debian's sshd) with `rackscope-cli inspect --hosts`, the agent
// already deployed, beside `pdsh -w` running `lstopo-no-graphics --of xml` on
// the same hosts in the same run, both 32 wide. Goal: ratio at most 0.5.
//
// On 2 cores the fan-out is CPU-bound, so each size also says where a host's
// time goes: the CPU time per host of the console (rackscope-cli; pdsh and its
// ssh clients), of the server side (sshd, the shell and what it runs, read
// from each host's sshd), and of the program alone (the agent's collect,
// lstopo), with the round trips and time of each stage of one host.
// Needs root and openssh-server, as the transport tests do; says so when absent.
#include "bench/bench_support.h"
#include "bench/proc_cpu.h"
#include "transport/ssh_test_hosts.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

using rackscope::test::SshTestHosts;

namespace {

// CPU seconds of the children this process has reaped (the console and everything it started).
double reapedChildrenCpu() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU seconds of a running sshd and of every session it has reaped (their shells and what those ran).
double sshdCpu(qint64 pid) {
    return std::max(0.0, rackscope::bench::processCpuSeconds(long(pid), true));
}

struct Cost {
    double wall = -1;     // seconds, the median run's
    double consoleMs = 0; // CPU per host
    double serverMs = 0;  // CPU per host
};

// `worstExit`: the highest exit status that is still a run (check's 1 and 2 are verdicts).
bool runQuiet(const QString& program, const QStringList& args, const QProcessEnvironment& env,
              int worstExit = 0) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() > worstExit) {
        std::fprintf(stderr, "bench_fleet: %s failed (%d): %s\n", qPrintable(program), p.exitCode(),
                     p.readAllStandardError().left(400).constData());
        return false;
    }
    return true;
}

// The median of `times` runs, by wall time; CPU per host over the `hosts` served.
Cost measure(const SshTestHosts& servers, const QStringList& hosts, const QString& program,
             const QStringList& args, const QProcessEnvironment& env, int times, int worstExit = 0) {
    std::vector<Cost> runs;
    for (int i = 0; i < times; ++i) {
        double server = 0;
        for (const QString& h : hosts)
            server -= sshdCpu(servers.host(h).sshd->processId());
        const double console = reapedChildrenCpu();
        QElapsedTimer t;
        t.start();
        if (!runQuiet(program, args, env, worstExit))
            return {};
        Cost c;
        c.wall = double(t.nsecsElapsed()) / 1e9;
        c.consoleMs = (reapedChildrenCpu() - console) * 1000 / double(hosts.size());
        for (const QString& h : hosts)
            server += sshdCpu(servers.host(h).sshd->processId());
        c.serverMs = server * 1000 / double(hosts.size());
        runs.push_back(c);
    }
    std::sort(runs.begin(), runs.end(), [](const Cost& a, const Cost& b) { return a.wall < b.wall; });
    return runs[runs.size() / 2];
}

// CPU milliseconds of one run of a program on this machine, the median of 20.
double cpuMsAlone(const QString& program, const QStringList& args) {
    std::vector<double> ms;
    for (int i = 0; i < 20; ++i) {
        const double before = reapedChildrenCpu();
        if (!runQuiet(program, args, QProcessEnvironment::systemEnvironment()))
            return -1;
        ms.push_back((reapedChildrenCpu() - before) * 1000);
    }
    return rackscope::bench::median(ms);
}

// One host's stages, as `inspect --verbose` says them: "connect 0.012 s (4 round trips), ...".
QString stagesOfOneHost(const QString& config, const QString& known, const QString& host) {
    QProcess p;
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(QStringLiteral(RACKSCOPE_CLI),
            {QStringLiteral("inspect"), QStringLiteral("--hosts"), host, QStringLiteral("--ssh-config"),
             config, QStringLiteral("--known-hosts"), known, QStringLiteral("--json"),
             QStringLiteral("--verbose")});
    p.waitForFinished(60000);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    const qsizetype at = err.indexOf(host + QStringLiteral(": "));
    return at < 0 ? err.trimmed() : err.mid(at + host.size() + 2).section(QLatin1Char('\n'), 0, 0);
}

void printCosts(const Cost& r, const Cost& p) {
    std::printf(
        "        per host, CPU ms: console %5.1f (rackscope-cli) beside %5.1f (pdsh and ssh); server side "
        "%5.1f beside %5.1f (sshd, the shell and what it runs)\n",
        r.consoleMs, p.consoleMs, r.serverMs, p.serverMs);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (const QString why = SshTestHosts::missing(); !why.isEmpty()) {
        std::printf("bench_fleet: not measured: %s\n", qPrintable(why));
        return 0;
    }
    const QString pdsh = QStandardPaths::findExecutable(QStringLiteral("pdsh"));
    const QString lstopo = QStandardPaths::findExecutable(QStringLiteral("lstopo-no-graphics"));
    if (pdsh.isEmpty() || lstopo.isEmpty()) {
        std::fprintf(stderr,
                     "bench_fleet: pdsh and lstopo-no-graphics (Debian packages pdsh, hwloc) are needed "
                     "as the reference\n");
        return 1;
    }
    const int most = qEnvironmentVariableIntValue("BENCH_FLEET_HOSTS") > 0
                         ? qEnvironmentVariableIntValue("BENCH_FLEET_HOSTS")
                         : 256;
    // Before the hosts are made: their links' ends out here would be this machine's interfaces too.
    const double agentAlone = cpuMsAlone(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("collect")});
    const double lstopoAlone = cpuMsAlone(lstopo, {QStringLiteral("--of"), QStringLiteral("xml")});
    SshTestHosts hosts;
    if (!hosts.ok())
        return 1;
    QStringList names;
    for (int i = 1; i <= most; ++i) {
        if (!hosts.add(QStringLiteral("h%1").arg(i))) {
            // A machine's limits (memory, its bridge's ports) end the sizes measured, not the benchmark.
            std::printf("bench_fleet: test host %d could not be started: %d hosts measured\n", i, i - 1);
            break;
        }
        names << QStringLiteral("h%1").arg(i);
    }
    if (names.size() < 8) {
        std::fprintf(stderr, "bench_fleet: only %d test hosts started\n", int(names.size()));
        return 1;
    }
    const QString config = hosts.sshConfig();
    const QString known = hosts.knownHosts(names);
    const QProcessEnvironment plain = QProcessEnvironment::systemEnvironment();
    QProcessEnvironment env = plain;
    env.insert(
        QStringLiteral("PDSH_SSH_ARGS"),
        QStringLiteral("-F %1 -o UserKnownHostsFile=%2 -o BatchMode=yes -x -l%u %h").arg(config, known));
    std::printf("bench_fleet: %s, median of 3 runs, agent already deployed, 32 in flight, %d cores\n",
                "network-namespace hosts running sshd", int(sysconf(_SC_NPROCESSORS_ONLN)));
    std::printf(
        "  alone on this machine, CPU ms: rackscope-agent collect %.1f, lstopo-no-graphics --of xml %.1f\n",
        agentAlone, lstopoAlone);
    for (int n : {8, 32, 64, 256}) {
        if (n > names.size())
            break;
        const QString list = QStringLiteral("h[1-%1]").arg(n);
        const QStringList served = names.mid(0, n);
        const QStringList ours{QStringLiteral("inspect"),
                               QStringLiteral("--hosts"),
                               list,
                               QStringLiteral("--ssh-config"),
                               config,
                               QStringLiteral("--known-hosts"),
                               known,
                               QStringLiteral("--json")};
        if (!runQuiet(QStringLiteral(RACKSCOPE_CLI), ours, plain))
            return 1; // deploys where missing
        const Cost r = measure(hosts, served, QStringLiteral(RACKSCOPE_CLI), ours, plain, 3);
        const Cost p =
            measure(hosts, served, pdsh,
                    {QStringLiteral("-R"), QStringLiteral("ssh"), QStringLiteral("-f"), QStringLiteral("32"),
                     QStringLiteral("-w"), list, lstopo, QStringLiteral("--of"), QStringLiteral("xml")},
                    env, 3);
        if (r.wall < 0 || p.wall < 0)
            return 1;
        std::printf("  N=%-3d rackscope-cli inspect --hosts %7.3f s   pdsh lstopo-no-graphics %7.3f s   "
                    "ratio %.2f (goal <= 0.5)\n",
                    n, r.wall, p.wall, r.wall / p.wall);
        printCosts(r, p);
        if (n == 8)
            std::printf("        one host's stages: %s\n",
                        qPrintable(stagesOfOneHost(config, known, names[0])));
        if (n != 64)
            continue;
        // Rack acceptance (issue 25): a passive check beside pdsh reading the same facts by hand.
        QStringList check = ours;
        check[0] = QStringLiteral("check");
        const Cost c = measure(hosts, served, QStringLiteral(RACKSCOPE_CLI), check, plain, 3, 2);
        const Cost f = measure(hosts, served, pdsh,
                               {QStringLiteral("-R"), QStringLiteral("ssh"), QStringLiteral("-f"),
                                QStringLiteral("32"), QStringLiteral("-w"), list,
                                QStringLiteral("lstopo-no-graphics --of xml; cat /sys/class/net/*/mtu "
                                               "/proc/sys/kernel/osrelease; ibv_devinfo -v; true")},
                               env, 3);
        if (c.wall < 0 || f.wall < 0)
            return 1;
        std::printf("  N=%-3d rackscope-cli check --hosts   %7.3f s   pdsh lstopo, MTUs, kernel, ibv_devinfo "
                    "%7.3f s   ratio %.2f (goal <= 1.0)\n",
                    n, c.wall, f.wall, c.wall / f.wall);
        printCosts(c, f);
    }
    return 0;
}
