// Collect from N servers over SSH (N = 8, 32, 64 network-namespace hosts
// running Debian's sshd) with `rackscope-cli inspect --hosts`, the agent
// already deployed, beside `pdsh -w` running `lstopo-no-graphics --of xml` on
// the same hosts in the same run, both 32 wide. Goal: ratio at most 1.0.
// Needs root and openssh-server, as the transport tests do; says so when absent.
#include "transport/ssh_test_hosts.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <algorithm>
#include <cstdio>

using rackscope::test::SshTestHosts;

namespace {

double medianSeconds(const std::function<bool()>& run, int times) {
    std::vector<double> s;
    for (int i = 0; i < times; ++i) {
        QElapsedTimer t;
        t.start();
        if (!run())
            return -1;
        s.push_back(double(t.nsecsElapsed()) / 1e9);
    }
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

// `worstExit`: the highest exit status that is still a run (check's 1 and 2 are verdicts).
bool runQuiet(const QString& program, const QStringList& args,
              const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(), int worstExit = 0) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForFinished(300000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() > worstExit) {
        std::fprintf(stderr, "bench_fleet: %s failed (%d): %s\n", qPrintable(program), p.exitCode(),
                     p.readAllStandardError().left(400).constData());
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (const QString why = SshTestHosts::missing(); !why.isEmpty()) {
        std::printf("bench_fleet: not measured: %s\n", qPrintable(why));
        return 0;
    }
    const QString pdsh = QStandardPaths::findExecutable(QStringLiteral("pdsh"));
    if (pdsh.isEmpty()) {
        std::fprintf(stderr, "bench_fleet: pdsh (Debian package pdsh) is needed as the reference\n");
        return 1;
    }
    SshTestHosts hosts;
    if (!hosts.ok())
        return 1;
    QStringList names;
    for (int i = 1; i <= 64; ++i) {
        names << QStringLiteral("h%1").arg(i);
        if (!hosts.add(names.last())) {
            std::fprintf(stderr, "bench_fleet: cannot start test host %d\n", i);
            return 1;
        }
    }
    const QString config = hosts.sshConfig();
    const QString known = hosts.knownHosts(names);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(
        QStringLiteral("PDSH_SSH_ARGS"),
        QStringLiteral("-F %1 -o UserKnownHostsFile=%2 -o BatchMode=yes -x -l%u %h").arg(config, known));
    std::printf("bench_fleet: %s, median of 3 runs, agent already deployed, 32 in flight\n",
                "network-namespace hosts running sshd");
    for (int n : {8, 32, 64}) {
        const QString list = QStringLiteral("h[1-%1]").arg(n);
        const QStringList ours{QStringLiteral("inspect"),
                               QStringLiteral("--hosts"),
                               list,
                               QStringLiteral("--ssh-config"),
                               config,
                               QStringLiteral("--known-hosts"),
                               known,
                               QStringLiteral("--json")};
        if (!runQuiet(QStringLiteral(RACKSCOPE_CLI), ours))
            return 1;                                          // deploys where missing
        if (qEnvironmentVariableIsSet("BENCH_FLEET_STAGES")) { // where one host's time goes
            QProcess p;
            p.start(QStringLiteral(RACKSCOPE_CLI),
                    {QStringLiteral("inspect"), QStringLiteral("--hosts"), QStringLiteral("h1"),
                     QStringLiteral("--ssh-config"), config, QStringLiteral("--known-hosts"), known,
                     QStringLiteral("--json"), QStringLiteral("--verbose")});
            p.waitForFinished(60000);
            std::printf("%s\n", p.readAllStandardError().constData());
        }
        const double r = medianSeconds([&] { return runQuiet(QStringLiteral(RACKSCOPE_CLI), ours); }, 3);
        const double p = medianSeconds(
            [&] {
                return runQuiet(pdsh,
                                {QStringLiteral("-R"), QStringLiteral("ssh"), QStringLiteral("-f"),
                                 QStringLiteral("32"), QStringLiteral("-w"), list,
                                 QStringLiteral("lstopo-no-graphics"), QStringLiteral("--of"),
                                 QStringLiteral("xml")},
                                env);
            },
            3);
        if (r < 0 || p < 0)
            return 1;
        std::printf("  N=%-3d rackscope-cli inspect --hosts %7.3f s   pdsh lstopo-no-graphics %7.3f s   "
                    "ratio %.2f (goal <= 1.0)\n",
                    n, r, p, r / p);
        if (n != 64)
            continue;
        // Rack acceptance (issue 25): a passive check beside pdsh reading the same facts by hand.
        QStringList check = ours;
        check[0] = QStringLiteral("check");
        const double c = medianSeconds(
            [&] {
                return runQuiet(QStringLiteral(RACKSCOPE_CLI), check,
                                QProcessEnvironment::systemEnvironment(), 2);
            },
            3);
        const double f = medianSeconds(
            [&] {
                return runQuiet(pdsh,
                                {QStringLiteral("-R"), QStringLiteral("ssh"), QStringLiteral("-f"),
                                 QStringLiteral("32"), QStringLiteral("-w"), list,
                                 QStringLiteral("lstopo-no-graphics --of xml; cat /sys/class/net/*/mtu "
                                                "/proc/sys/kernel/osrelease; ibv_devinfo -v; true")},
                                env);
            },
            3);
        if (c < 0 || f < 0)
            return 1;
        std::printf("  N=%-3d rackscope-cli check --hosts   %7.3f s   pdsh lstopo, MTUs, kernel, ibv_devinfo "
                    "%7.3f s   ratio %.2f (goal <= 1.0)\n",
                    n, c, f, c / f);
    }
    return 0;
}
