#include "nccl_command.h"

#include "interrupts.h"

#include "model/hostlist.h"
#include "rackscope_version.h"
#include "report/finding_json.h"
#include "report/nccl_tests_report.h"
#include "report/run_report.h"
#include "runs/nccl_run_spec.h"
#include "runs/straggler_hunt.h"
#include "transport/local_agent.h"
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
    if (!p.isSet(o))
        return true;
    bool ok = false;
    *out = p.value(o).toInt(&ok);
    return ok;
}

int runHunt(const HuntOptions& options, const QString& prompt, bool dryRun, bool json) {
    const auto rounds = StragglerHunt::rounds(options);
    if (dryRun) {
        for (size_t i = 0; i < rounds.size(); ++i)
            for (const QStringList& group : rounds[i]) {
                NcclRunSpec spec = options.request.spec;
                spec.hosts = group;
                fprintf(stdout, "round %zu: %s%s\n", i + 1, qPrintable(prompt),
                        qPrintable(shellCommand(launchArgv(spec)).line));
            }
        return 0;
    }
    StragglerHunt hunt;
    QEventLoop loop;
    StragglerVerdict verdict;
    QObject::connect(&hunt, &StragglerHunt::groupStarted,
                     [&](int round, const QStringList&, const QString& command) {
                         fprintf(stderr, "round %d/%zu: %s%s\n", round + 1, rounds.size(), qPrintable(prompt),
                                 qPrintable(command));
                     });
    QObject::connect(&hunt, &StragglerHunt::groupFinished, [&](const GroupRun& r) {
        fprintf(stderr, "  %s: %s\n", qPrintable(r.hosts.join(QLatin1Char('+'))),
                qPrintable(r.busbw ? QStringLiteral("%1 GB/s").arg(*r.busbw)
                                   : QStringLiteral("no result: ") + r.error));
    });
    QObject::connect(&hunt, &StragglerHunt::finished, &loop, [&](const StragglerVerdict& v) {
        verdict = v;
        loop.quit();
    });
    const InterruptWatch interrupts([&] { hunt.cancel(); });
    hunt.start(options);
    loop.exec();
    QTextStream out(stdout);
    int failures = 0;
    for (const GroupRun& r : hunt.runs())
        failures += r.error.isEmpty() ? 0 : 1;
    if (json) {
        out << QJsonDocument(huntToJson(options.schedule, hunt.runs(), verdict))
                   .toJson(QJsonDocument::Indented);
    } else {
        out << "median " << verdict.median << " GB/s over " << hunt.runs().size() << " runs (MAD "
            << verdict.mad << ")\n";
        for (const Finding& f : stragglerFindings(verdict))
            out << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
        if (verdict.slowHosts.empty() && verdict.slowPairs.empty())
            out << "nothing stands out\n";
        for (const GroupRun& r : hunt.runs())
            for (const Finding& f : r.findings)
                out << "[" << severityName(f.severity) << "] " << r.hosts.join(QLatin1Char('+')) << ": "
                    << f.message << "\n";
    }
    out.flush();
    return failures ? 1 : 0;
}

} // namespace

int runNccl(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs an nccl-tests collective across hosts through mpirun or srun, on this machine "
                       "or a launch host over SSH, "
                       "and reads its output as it streams. The command line is printed before it runs."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("nccl"), QStringLiteral("The command."));
    const QCommandLineOption hosts(QStringLiteral("hosts"), QStringLiteral("Hosts to run on (a hostlist)."),
                                   QStringLiteral("LIST"));
    const QCommandLineOption op(
        QStringLiteral("op"),
        QStringLiteral("all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, sendrecv."),
        QStringLiteral("OP"), QStringLiteral("all_reduce"));
    const QCommandLineOption minBytes(QStringLiteral("b"), QStringLiteral("Smallest size (bytes, K, M, G)."),
                                      QStringLiteral("SIZE"), QStringLiteral("8"));
    const QCommandLineOption maxBytes(QStringLiteral("e"), QStringLiteral("Largest size."),
                                      QStringLiteral("SIZE"), QStringLiteral("8G"));
    const QCommandLineOption factor(QStringLiteral("f"), QStringLiteral("Step factor."), QStringLiteral("N"),
                                    QStringLiteral("2"));
    const QCommandLineOption gpus(QStringLiteral("g"), QStringLiteral("GPUs per process."),
                                  QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption iters(QStringLiteral("n"), QStringLiteral("Iterations."), QStringLiteral("N"),
                                   QStringLiteral("20"));
    const QCommandLineOption warmup(QStringLiteral("w"), QStringLiteral("Warm-up iterations."),
                                    QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption type(QStringLiteral("d"), QStringLiteral("Data type."), QStringLiteral("TYPE"),
                                  QStringLiteral("float"));
    const QCommandLineOption redop(QStringLiteral("o"), QStringLiteral("Reduction."), QStringLiteral("OP"),
                                   QStringLiteral("sum"));
    const QCommandLineOption ppn(QStringLiteral("ppn"),
                                 QStringLiteral("Processes per host (default 8: one per GPU)."),
                                 QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption launcher(QStringLiteral("launcher"),
                                      QStringLiteral("mpirun (Open MPI) or srun (Slurm)."),
                                      QStringLiteral("NAME"), QStringLiteral("mpirun"));
    const QCommandLineOption launcherArg(QStringLiteral("launcher-arg"),
                                         QStringLiteral("An argument for mpirun/srun (repeat it)."),
                                         QStringLiteral("ARG"));
    const QCommandLineOption env(
        QStringLiteral("env"),
        QStringLiteral("NAME=VALUE for NCCL (repeat it); NCCL_DEBUG=INFO unless given."),
        QStringLiteral("NAME=VALUE"));
    const QCommandLineOption binary(
        QStringLiteral("binary"), QStringLiteral("The benchmark binary (default: nccl-tests' name for OP)."),
        QStringLiteral("PATH"));
    const QCommandLineOption binaryDir(QStringLiteral("binary-dir"),
                                       QStringLiteral("Where the nccl-tests binaries are on the cluster."),
                                       QStringLiteral("DIR"));
    const QCommandLineOption launchHost(QStringLiteral("launch-host"),
                                        QStringLiteral("Run the launcher there over SSH (default: here)."),
                                        QStringLiteral("HOST"));
    const QCommandLineOption sshConfig(QStringLiteral("ssh-config"),
                                       QStringLiteral("ssh_config for the launch host."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption knownHosts(QStringLiteral("known-hosts"),
                                        QStringLiteral("known_hosts for the launch host."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption timeout(QStringLiteral("timeout"),
                                     QStringLiteral("Seconds without output before giving up (default 600)."),
                                     QStringLiteral("S"), QStringLiteral("600"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("Print the command line and stop."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print one JSON document at the end."));
    const QCommandLineOption results(
        QStringLiteral("results"),
        QStringLiteral("Save each run there as it happens (default: %1).").arg(defaultResultsDirectory()),
        QStringLiteral("DIR"), defaultResultsDirectory());
    const QCommandLineOption counters(
        QStringLiteral("counters"),
        QStringLiteral("Sample every host's NIC counters before and after, through its agent over SSH "
                       "(--ssh-config, --known-hosts)."));
    const QCommandLineOption noSave(QStringLiteral("no-save"), QStringLiteral("Do not save the run."));
    const QCommandLineOption findSlow(
        QStringLiteral("find-slow"),
        QStringLiteral("Run on small groups of the hosts and flag the slow host or link."));
    const QCommandLineOption schedule(
        QStringLiteral("schedule"),
        QStringLiteral("With --find-slow: pairs (every pair once, in rounds of disjoint pairs) or bisect."),
        QStringLiteral("NAME"), QStringLiteral("pairs"));
    const QCommandLineOption lineRate(
        QStringLiteral("line-rate"),
        QStringLiteral("With --find-slow: also flag below 80 % of this bus bandwidth (GB/s)."),
        QStringLiteral("GBS"));
    parser.addOptions({hosts,  op,        minBytes,   maxBytes,  factor,     gpus,        iters,
                       warmup, type,      redop,      ppn,       launcher,   launcherArg, env,
                       binary, binaryDir, launchHost, sshConfig, knownHosts, timeout,     dryRun,
                       json,   results,   noSave,     counters,  findSlow,   schedule,    lineRate});
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
    if (!collective)
        return usage(
            QStringLiteral("--op '%1' is not a collective nccl-tests measures").arg(parser.value(op)));
    spec.collective = *collective;
    const HostlistResult list = expandHostlist(parser.value(hosts));
    if (!list.error.isEmpty())
        return usage(QStringLiteral("--hosts: ") + list.error);
    spec.hosts = list.hosts;
    spec.minBytes = parser.value(minBytes);
    spec.maxBytes = parser.value(maxBytes);
    if (!intValue(parser, factor, &spec.stepFactor) || !intValue(parser, gpus, &spec.gpusPerProcess) ||
        !intValue(parser, iters, &spec.iterations) || !intValue(parser, warmup, &spec.warmupIterations) ||
        !intValue(parser, ppn, &spec.processesPerHost))
        return usage(QStringLiteral("-f, -g, -n, -w and --ppn take numbers"));
    spec.dataType = parser.value(type);
    spec.reduction = parser.value(redop);
    if (!setLauncher(spec, parser.value(launcher)))
        return usage(QStringLiteral("--launcher is mpirun or srun"));
    spec.launcherArgs = parser.values(launcherArg);
    if (const QString bad = addEnvironment(spec, parser.values(env)); !bad.isEmpty())
        return usage(QStringLiteral("--env takes NAME=VALUE, not '%1'").arg(bad));
    spec.binary = parser.value(binary);
    spec.binaryDir = parser.value(binaryDir);
    if (const QString why = validateRunSpec(spec); !why.isEmpty())
        return usage(why);
    RunRequest request;
    request.spec = spec;
    request.timeoutMs = parser.value(timeout).toInt() * 1000;
    request.resultsDirectory = parser.isSet(noSave) ? QString() : parser.value(results);
    const QString config =
        parser.isSet(sshConfig) ? parser.value(sshConfig) : QDir::homePath() + QStringLiteral("/.ssh/config");
    request.ssh.knownHostsFile = parser.value(knownHosts);
    if (parser.isSet(launchHost))
        request.launchHost = SshConfig::fromFile(config).resolve(parser.value(launchHost));
    if (parser.isSet(counters)) {
        FleetOptions fo;
        fo.config = SshConfig::fromFile(config);
        fo.ssh = request.ssh;
        fo.ssh.connectTimeoutMs = fo.ssh.authTimeoutMs = fo.requestTimeoutMs = fo.deploy.timeoutMs = 30000;
        QString error;
        const auto agent = loadAgentBinary(findLocalAgent(), QStringLiteral(RACKSCOPE_VERSION), &error);
        if (!agent)
            return usage(QStringLiteral("--counters: ") + error);
        fo.agent = *agent;
        request.counters = fo;
    }
    const QString prompt =
        parser.isSet(launchHost) ? parser.value(launchHost) + QStringLiteral("$ ") : QStringLiteral("$ ");
    if (parser.isSet(findSlow)) {
        HuntOptions h;
        h.request = request;
        if (parser.value(schedule) == QLatin1String("bisect"))
            h.schedule = HuntSchedule::Bisection;
        else if (parser.value(schedule) != QLatin1String("pairs"))
            return usage(QStringLiteral("--schedule is pairs or bisect"));
        if (spec.hosts.size() < 2)
            return usage(QStringLiteral("--find-slow needs two hosts or more"));
        if (parser.isSet(lineRate)) {
            bool ok = false;
            h.rule.lineRateGBs = parser.value(lineRate).toDouble(&ok);
            if (!ok || *h.rule.lineRateGBs <= 0)
                return usage(QStringLiteral("--line-rate takes GB/s"));
        }
        return runHunt(h, prompt, parser.isSet(dryRun), parser.isSet(json));
    }
    const QString line = shellCommand(launchArgv(spec)).line;
    fprintf(stderr, "%s%s\n", qPrintable(prompt), qPrintable(line));
    if (parser.isSet(dryRun))
        return 0;

    RecordedRun runner;
    QTextStream out(stdout);
    QObject::connect(&runner, &RecordedRun::stage, [](const QString& what) {
        fprintf(stderr, "rackscope-cli nccl: %s\n", qPrintable(what));
    });
    QObject::connect(&runner, &RecordedRun::outputLine, [&](const QString& l) {
        if (parser.isSet(json))
            return;
        out << l << "\n";
        out.flush();
    });
    RunOutcome outcome;
    QEventLoop loop;
    QObject::connect(&runner, &RecordedRun::finished, &loop, [&](const RunOutcome& o) {
        outcome = o;
        loop.quit();
    });
    const InterruptWatch interrupts([&] { runner.cancel(); });
    runner.start(request);
    loop.exec();
    const int status = outcome.exitStatus;
    const QString error = outcome.error;
    if (!error.isEmpty())
        fprintf(stderr, "rackscope-cli nccl: %s\n", qPrintable(error));
    for (const QString& e : outcome.counterErrors)
        fprintf(stderr, "rackscope-cli nccl: counters: %s\n", qPrintable(e));
    if (!outcome.record.isEmpty())
        fprintf(stderr, "saved to %s\n", qPrintable(outcome.record));
    if (parser.isSet(json)) {
        QJsonObject doc = ncclTestsToJson(
            runner.run(), parser.isSet(launchHost) ? QStringLiteral("ssh://") + parser.value(launchHost)
                                                   : QStringLiteral("local"));
        doc.insert("command", line);
        doc.insert("exit_status", status);
        if (!outcome.record.isEmpty())
            doc.insert("record", outcome.record);
        if (!error.isEmpty())
            doc.insert("error", error);
        if (request.counters)
            doc.insert("counters", counterChangesToJson(outcome.counterChanges, outcome.counterErrors));
        doc.insert("findings", findingsToJson(outcome.findings));
        out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
    } else {
        for (const Finding& f : outcome.findings)
            out << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
    }
    out.flush();
    return status == 0 && error.isEmpty() && !runner.run().rows.empty() ? 0 : 1;
}

} // namespace rackscope::cli
