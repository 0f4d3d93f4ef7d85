#include "check_command.h"

#include "acceptance/check_output.h"
#include "acceptance/check_report.h"
#include "acceptance/nccl_acceptance.h"
#include "acceptance/rack_check.h"
#include "acceptance/rdma_pairs.h"
#include "import/input_file.h"
#include "protocol/protocol.h"
#include "server_inputs.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

// An expectation or a baseline: the project's bounded read (a FIFO or device too), with its one-line errors.
std::optional<QByteArray> readFile(const QString& path, QString* error) {
    constexpr qint64 kMaxBytes = 64 << 20;
    QByteArray bytes;
    if (QString e = readInputFile(path, kMaxBytes, &bytes); !e.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(path, e);
        return std::nullopt;
    }
    return bytes;
}

QString writeFile(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return QStringLiteral("%1: %2").arg(path, f.errorString());
    return {};
}

// Every server's error counters over a window: one `sample` of two readings `seconds` apart.
void sampleCounters(const QCommandLineParser& parser, const RemoteOptions& remote, double seconds,
                    CheckOptions& o) {
    const auto ms = qint64(seconds * 1000);
    const RemoteAnswers answers =
        askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kSample),
                 QJsonObject{{"interval_ms", ms}, {"count", 2}, {"counters", true}}, int(seconds) + 1);
    for (const HostResult& r : answers.results) {
        if (r.error)
            o.unsampled[r.host] =
                QStringLiteral("not sampled: %1: %2").arg(stageName(r.error->stage), r.error->message);
        else if (r.events.size() < 2)
            o.unsampled[r.host] =
                QStringLiteral("not sampled: the agent gave %1 readings of 2").arg(r.events.size());
        else
            for (CounterChange& c : counterChanges(r.host, r.events[0], r.events[1]))
                o.counterChanges.push_back(std::move(c));
    }
}

// ib_write_bw between the servers (rdma_pairs.h), each pair said on stderr as it ends.
QString measureRdma(const QCommandLineParser& parser, const RemoteOptions& remote, const Workspace& ws,
                    const RdmaBwOptions& bw, CheckOptions& o) {
    const FleetTarget target = fleetFromOptions(parser, remote, parser.value(remote.timeout).toInt(),
                                                parser.value(remote.concurrency).toInt());
    if (!target.error.isEmpty())
        return target.error;
    RdmaPairsRun run(target.options, rdmaEndpoints(ws, target.options.config), bw);
    QEventLoop loop;
    QObject::connect(&run, &RdmaPairsRun::pairFinished, [](const RdmaPairResult& r) {
        const RdmaPairTest& t = r.test;
        fprintf(stderr, "rackscope-cli check: rdma %s %s -> %s %s: %s\n", qPrintable(t.client),
                qPrintable(t.clientDevice), qPrintable(t.server), qPrintable(t.serverDevice),
                r.gbps ? qPrintable(QStringLiteral("%1 Gb/s").arg(*r.gbps, 0, 'f', 1)) : qPrintable(r.error));
    });
    QObject::connect(&run, &RdmaPairsRun::finished, &loop, &QEventLoop::quit);
    run.start();
    loop.exec();
    o.rdmaPairs = run.results();
    return {};
}

// nccl-tests on each server alone, then in pairs (nccl_acceptance.h), each run said on stderr as it ends.
void measureNccl(const Workspace& ws, const RunRequest& request, CheckOptions& o) {
    NcclAcceptanceRun run(request, ncclServers(ws));
    QEventLoop loop;
    QObject::connect(&run, &NcclAcceptanceRun::runFinished, [](const QString& what, const QString& outcome) {
        fprintf(stderr, "rackscope-cli check: nccl %s: %s\n", qPrintable(what), qPrintable(outcome));
    });
    QObject::connect(&run, &NcclAcceptanceRun::finished, &loop, &QEventLoop::quit);
    run.start();
    loop.exec();
    o.nccl = run.result();
}

} // namespace

int runCheck(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Certifies a rack server by server: for each server and each check a verdict (pass, warn, fail, "
        "unknown) with its evidence and what to do; the facts the servers do not share (drift); an "
        "expectation and a baseline compared. Exit status 0 when every check passes, 1 for a warn or an "
        "unknown, 2 for a fail."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("check"), QStringLiteral("The command."));
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("Topology files, agent snapshots, cluster files or sessions."),
        QStringLiteral("[FILE...]"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption local(QStringLiteral("local"),
                                   QStringLiteral("Check this machine through its rackscope-agent."));
    const QCommandLineOption expect(QStringLiteral("expect"),
                                    QStringLiteral("What the rack should be: JSON of fact keys and values "
                                                   "(docs/acceptance.md)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption baseline(QStringLiteral("baseline"),
                                      QStringLiteral("Compare with a baseline saved by --save-baseline."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption saveBaseline(QStringLiteral("save-baseline"),
                                          QStringLiteral("Save the servers' facts as a baseline."),
                                          QStringLiteral("FILE"));
    const QCommandLineOption sample(
        QStringLiteral("sample"),
        QStringLiteral("Sample the NICs' error counters over S seconds (over SSH)."), QStringLiteral("S"));
    const QCommandLineOption report(
        QStringLiteral("report"),
        QStringLiteral("Write the report for a review: FILE.html (self-contained, "
                       "the rack drawn inline) or FILE.pdf."),
        QStringLiteral("FILE"));
    const QCommandLineOption junit(QStringLiteral("junit"),
                                   QStringLiteral("Write JUnit XML for a CI pipeline."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption active(
        QStringLiteral("active"),
        QStringLiteral(
            "Also measure (over SSH), comma-separated: nccl (nccl-tests' all_reduce, all_gather and "
            "alltoall on each server alone, then all_reduce in pairs), rdma (ib_write_bw between "
            "neighbouring servers, each RDMA device against two peers)."),
        QStringLiteral("LIST"));
    const QCommandLineOption rdmaSeconds(QStringLiteral("rdma-seconds"),
                                         QStringLiteral("How long each ib_write_bw runs (default 5)."),
                                         QStringLiteral("S"), QStringLiteral("5"));
    const QCommandLineOption rdmaPort(
        QStringLiteral("rdma-port"),
        QStringLiteral("The TCP port ib_write_bw's sides meet on (default 18515)."), QStringLiteral("PORT"),
        QStringLiteral("18515"));
    const QCommandLineOption tolerance(
        QStringLiteral("tolerance"),
        QStringLiteral("A measured figure this many percent below its baseline's fails (default 10)."),
        QStringLiteral("PCT"), QStringLiteral("10"));
    const QCommandLineOption ncclBinaryDir(
        QStringLiteral("nccl-binary-dir"),
        QStringLiteral("Where the nccl-tests binaries are on the servers."), QStringLiteral("DIR"));
    const QCommandLineOption ncclMaxBytes(
        QStringLiteral("nccl-max-bytes"),
        QStringLiteral("The largest size each NCCL run reaches (default 1G)."), QStringLiteral("SIZE"),
        QStringLiteral("1G"));
    const QCommandLineOption launcher(QStringLiteral("launcher"),
                                      QStringLiteral("mpirun (Open MPI, default) or srun (Slurm)."),
                                      QStringLiteral("NAME"), QStringLiteral("mpirun"));
    const QCommandLineOption launcherArg(QStringLiteral("launcher-arg"),
                                         QStringLiteral("An argument for mpirun/srun (repeat it)."),
                                         QStringLiteral("ARG"));
    const QCommandLineOption ncclEnv(QStringLiteral("nccl-env"),
                                     QStringLiteral("NAME=VALUE for NCCL (repeat it)."),
                                     QStringLiteral("NAME=VALUE"));
    const QCommandLineOption results(QStringLiteral("results"),
                                     QStringLiteral("Save each NCCL run there, to open later."),
                                     QStringLiteral("DIR"));
    parser.addOptions({json, local, expect, baseline, saveBaseline, sample, report, junit, active,
                       rdmaSeconds, rdmaPort, tolerance, ncclBinaryDir, ncclMaxBytes, launcher, launcherArg,
                       ncclEnv, results});
    const RemoteOptions remote;
    remote.addTo(parser);
    const auto usage = [](const QString& message) {
        fprintf(stderr, "rackscope-cli check: %s\n", qPrintable(message));
        return 2;
    };
    if (!parser.parse(args))
        return usage(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() && !parser.isSet(local) && !remote.wanted(parser))
        return usage(QStringLiteral("give --hosts for servers over SSH, --local for this machine, or files"));

    CheckOptions options;
    QString error;
    if (parser.isSet(expect)) {
        const auto bytes = readFile(parser.value(expect), &error);
        if (bytes)
            options.expect = readExpectation(*bytes, parser.value(expect), &error);
        if (!options.expect)
            return usage(error);
    }
    if (parser.isSet(baseline)) {
        const auto bytes = readFile(parser.value(baseline), &error);
        if (bytes)
            options.baseline = readBaseline(*bytes, parser.value(baseline), &error);
        if (!options.baseline)
            return usage(error);
    }
    if (parser.isSet(report) && !reportFormatOf(parser.value(report)))
        return usage(QStringLiteral("--report writes FILE.html or FILE.pdf"));
    if (parser.isSet(sample)) {
        bool ok = false;
        const double s = parser.value(sample).toDouble(&ok);
        if (!ok || s < 0.1 || s > 3600)
            return usage(QStringLiteral("--sample takes seconds from 0.1 to 3600"));
        options.sampleSeconds = s;
    }

    RdmaBwOptions rdmaOptions;
    bool rdmaAsked = false, ncclAsked = false;
    if (parser.isSet(active)) {
        for (const QString& what : parser.value(active).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (what == QLatin1String("rdma"))
                rdmaAsked = true;
            else if (what == QLatin1String("nccl"))
                ncclAsked = true;
            else
                return usage(QStringLiteral("--active takes nccl and rdma, not %1").arg(what));
        }
        if (!remote.wanted(parser))
            return usage(QStringLiteral("--active measures servers over SSH: give --hosts"));
    }
    {
        bool ok = false, okPort = false, okTolerance = false;
        rdmaOptions.durationS = parser.value(rdmaSeconds).toInt(&ok);
        rdmaOptions.tcpPort = parser.value(rdmaPort).toInt(&okPort);
        options.tolerance = parser.value(tolerance).toDouble(&okTolerance) / 100;
        if (!ok || rdmaOptions.durationS < 1 || rdmaOptions.durationS > 600)
            return usage(QStringLiteral("--rdma-seconds takes 1 to 600"));
        if (!okPort || rdmaOptions.tcpPort < 1024 || rdmaOptions.tcpPort > 65535)
            return usage(QStringLiteral("--rdma-port takes 1024 to 65535"));
        if (!okTolerance || options.tolerance < 0 || options.tolerance >= 1)
            return usage(QStringLiteral("--tolerance takes a percentage from 0 to 99"));
    }

    RunRequest ncclRequest;
    {
        NcclRunSpec& spec = ncclRequest.spec;
        spec.binaryDir = parser.value(ncclBinaryDir);
        spec.maxBytes = parser.value(ncclMaxBytes);
        if (!parseByteSize(spec.maxBytes))
            return usage(QStringLiteral("--nccl-max-bytes takes a size (bytes, K, M, G)"));
        if (!setLauncher(spec, parser.value(launcher)))
            return usage(QStringLiteral("--launcher is mpirun or srun"));
        spec.launcherArgs = parser.values(launcherArg);
        if (const QString bad = addEnvironment(spec, parser.values(ncclEnv)); !bad.isEmpty())
            return usage(QStringLiteral("--nccl-env takes NAME=VALUE, not '%1'").arg(bad));
        ncclRequest.resultsDirectory = parser.value(results);
    }

    Workspace ws;
    const ServerInputs in = readServers(parser, remote, files, parser.isSet(local), ws);
    if (!in.error.isEmpty())
        return usage(in.error);
    if (ws.servers().empty())
        return usage(QStringLiteral("no server could be read"));
    if (options.sampleSeconds) {
        if (remote.wanted(parser))
            sampleCounters(parser, remote, *options.sampleSeconds, options);
        for (const InspectedHost& h : ws.hosts())
            if (!h.host.source.location.startsWith(QLatin1String("ssh://")))
                options.unsampled[h.host.name] =
                    QStringLiteral("not sampled: counters are sampled over SSH (--hosts) only");
    }

    if (ncclAsked)
        measureNccl(ws, ncclRequest, options);
    if (rdmaAsked)
        if (const QString e = measureRdma(parser, remote, ws, rdmaOptions, options); !e.isEmpty())
            return usage(e);

    const RackCheck rack = checkRack(ws, options);
    QStringList written;
    const auto write = [&](const QCommandLineOption& option, const QByteArray& bytes) {
        if (!parser.isSet(option))
            return true;
        if (const QString e = writeFile(parser.value(option), bytes); !e.isEmpty()) {
            fprintf(stderr, "rackscope-cli check: %s\n", qPrintable(e));
            return false;
        }
        written << parser.value(option);
        return true;
    };
    bool ok = write(saveBaseline, baselineToJson(rack.facts, rack.measured, rack.checkedAt)) &&
              write(junit, rackCheckJUnit(rack));
    if (ok && parser.isSet(report)) {
        if (const QString e = writeRackReport(rack, ws, parser.value(report)); !e.isEmpty()) {
            fprintf(stderr, "rackscope-cli check: %s\n", qPrintable(e));
            ok = false;
        } else {
            written << parser.value(report);
        }
    }

    QTextStream out(stdout);
    if (parser.isSet(json))
        out << QJsonDocument(rackCheckJson(rack)).toJson(QJsonDocument::Indented);
    else
        out << rackCheckText(rack);
    out.flush();
    for (const QString& w : written)
        fprintf(stderr, "rackscope-cli check: wrote %s\n", qPrintable(w));
    return ok && in.failed.empty() ? rack.exitStatus() : 2;
}

} // namespace rackscope::cli
