#include "nccl_command.h"

#include "report/nccl_tests_report.h"
#include "runs/nccl_run_spec.h"
#include "runs/nccl_runner.h"
#include "transport/hostlist.h"
#include "transport/shell_quote.h"

#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

bool intValue(const QCommandLineParser& p, const QCommandLineOption& o, int* out) {
    if (!p.isSet(o)) return true;
    bool ok = false;
    *out = p.value(o).toInt(&ok);
    return ok;
}

} // namespace

int runNccl(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs an nccl-tests collective across hosts through mpirun or srun, on this machine or a launch host over SSH, "
        "and reads its output as it streams. The command line is printed before it runs."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("nccl"), QStringLiteral("The command."));
    const QCommandLineOption hosts(QStringLiteral("hosts"), QStringLiteral("Hosts to run on (a hostlist)."), QStringLiteral("LIST"));
    const QCommandLineOption op(QStringLiteral("op"), QStringLiteral("all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, sendrecv."), QStringLiteral("OP"), QStringLiteral("all_reduce"));
    const QCommandLineOption minBytes(QStringLiteral("b"), QStringLiteral("Smallest size (bytes, K, M, G)."), QStringLiteral("SIZE"), QStringLiteral("8"));
    const QCommandLineOption maxBytes(QStringLiteral("e"), QStringLiteral("Largest size."), QStringLiteral("SIZE"), QStringLiteral("8G"));
    const QCommandLineOption factor(QStringLiteral("f"), QStringLiteral("Step factor."), QStringLiteral("N"), QStringLiteral("2"));
    const QCommandLineOption gpus(QStringLiteral("g"), QStringLiteral("GPUs per process."), QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption iters(QStringLiteral("n"), QStringLiteral("Iterations."), QStringLiteral("N"), QStringLiteral("20"));
    const QCommandLineOption warmup(QStringLiteral("w"), QStringLiteral("Warm-up iterations."), QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption type(QStringLiteral("d"), QStringLiteral("Data type."), QStringLiteral("TYPE"), QStringLiteral("float"));
    const QCommandLineOption redop(QStringLiteral("o"), QStringLiteral("Reduction."), QStringLiteral("OP"), QStringLiteral("sum"));
    const QCommandLineOption ppn(QStringLiteral("ppn"), QStringLiteral("Processes per host (default 8: one per GPU)."), QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption launcher(QStringLiteral("launcher"), QStringLiteral("mpirun (Open MPI) or srun (Slurm)."), QStringLiteral("NAME"), QStringLiteral("mpirun"));
    const QCommandLineOption launcherArg(QStringLiteral("launcher-arg"), QStringLiteral("An argument for mpirun/srun (repeat it)."), QStringLiteral("ARG"));
    const QCommandLineOption env(QStringLiteral("env"), QStringLiteral("NAME=VALUE for NCCL (repeat it); NCCL_DEBUG=INFO unless given."), QStringLiteral("NAME=VALUE"));
    const QCommandLineOption binary(QStringLiteral("binary"), QStringLiteral("The benchmark binary (default: nccl-tests' name for OP)."), QStringLiteral("PATH"));
    const QCommandLineOption binaryDir(QStringLiteral("binary-dir"), QStringLiteral("Where the nccl-tests binaries are on the cluster."), QStringLiteral("DIR"));
    const QCommandLineOption launchHost(QStringLiteral("launch-host"), QStringLiteral("Run the launcher there over SSH (default: here)."), QStringLiteral("HOST"));
    const QCommandLineOption sshConfig(QStringLiteral("ssh-config"), QStringLiteral("ssh_config for the launch host."), QStringLiteral("FILE"));
    const QCommandLineOption knownHosts(QStringLiteral("known-hosts"), QStringLiteral("known_hosts for the launch host."), QStringLiteral("FILE"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Seconds without output before giving up (default 600)."), QStringLiteral("S"), QStringLiteral("600"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("Print the command line and stop."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document at the end."));
    parser.addOptions({hosts, op, minBytes, maxBytes, factor, gpus, iters, warmup, type, redop, ppn, launcher, launcherArg, env, binary, binaryDir,
                       launchHost, sshConfig, knownHosts, timeout, dryRun, json});
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli nccl: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    NcclRunSpec spec;
    auto usage = [](const QString& why) {
        fprintf(stderr, "rackscope-cli nccl: %s\n", qPrintable(why));
        return 2;
    };
    const auto collective = collectiveFromName(parser.value(op));
    if (!collective) return usage(QStringLiteral("--op '%1' is not a collective nccl-tests measures").arg(parser.value(op)));
    spec.collective = *collective;
    const HostlistResult list = expandHostlist(parser.value(hosts));
    if (!list.error.isEmpty()) return usage(QStringLiteral("--hosts: ") + list.error);
    spec.hosts = list.hosts;
    spec.minBytes = parser.value(minBytes);
    spec.maxBytes = parser.value(maxBytes);
    if (!intValue(parser, factor, &spec.stepFactor) || !intValue(parser, gpus, &spec.gpusPerProcess) || !intValue(parser, iters, &spec.iterations) ||
        !intValue(parser, warmup, &spec.warmupIterations) || !intValue(parser, ppn, &spec.processesPerHost))
        return usage(QStringLiteral("-f, -g, -n, -w and --ppn take numbers"));
    spec.dataType = parser.value(type);
    spec.reduction = parser.value(redop);
    if (parser.value(launcher) == QLatin1String("srun")) spec.launcher = Launcher::Srun;
    else if (parser.value(launcher) != QLatin1String("mpirun")) return usage(QStringLiteral("--launcher is mpirun or srun"));
    spec.launcherArgs = parser.values(launcherArg);
    for (const QString& kv : parser.values(env)) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq <= 0) return usage(QStringLiteral("--env takes NAME=VALUE, not '%1'").arg(kv));
        const QString name = kv.left(eq);
        std::erase_if(spec.environment, [&](const auto& e) { return e.first == name; });
        spec.environment.emplace_back(name, kv.mid(eq + 1));
    }
    spec.binary = parser.value(binary);
    spec.binaryDir = parser.value(binaryDir);
    if (const QString why = validateRunSpec(spec); !why.isEmpty()) return usage(why);
    const QStringList argv = launchArgv(spec);
    const QString line = shellCommand(argv).line;
    fprintf(stderr, "%s%s\n", parser.isSet(launchHost) ? qPrintable(parser.value(launchHost) + QStringLiteral("$ ")) : "$ ", qPrintable(line));
    if (parser.isSet(dryRun)) return 0;

    NcclRunner runner;
    QTextStream out(stdout);
    if (!parser.isSet(json))
        QObject::connect(&runner, &NcclRunner::outputLine, [&](const QString& l) {
            out << l << "\n";
            out.flush();
        });
    int status = -1;
    QString error;
    QEventLoop loop;
    QObject::connect(&runner, &NcclRunner::finished, &loop, [&](int s, const QString& e) {
        status = s;
        error = e;
        loop.quit();
    });
    if (parser.isSet(launchHost)) {
        const QString config = parser.isSet(sshConfig) ? parser.value(sshConfig) : QDir::homePath() + QStringLiteral("/.ssh/config");
        SshOptions o;
        o.sshConfigPath = parser.value(sshConfig);
        o.knownHostsFile = parser.value(knownHosts);
        runner.startRemote(SshConfig::fromFile(config).resolve(parser.value(launchHost)), o, argv, parser.value(timeout).toInt() * 1000);
    } else {
        runner.startLocal(argv);
    }
    loop.exec();
    if (!error.isEmpty()) fprintf(stderr, "rackscope-cli nccl: %s\n", qPrintable(error));
    if (parser.isSet(json)) {
        QJsonObject doc = ncclTestsToJson(runner.run(), parser.isSet(launchHost) ? QStringLiteral("ssh://") + parser.value(launchHost) : QStringLiteral("local"));
        doc.insert("command", line);
        doc.insert("exit_status", status);
        if (!error.isEmpty()) doc.insert("error", error);
        out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
    }
    out.flush();
    return status == 0 && error.isEmpty() && !runner.run().rows.empty() ? 0 : 1;
}

} // namespace rackscope::cli
