#include "inspect_command.h"

#include "report/inspect_report.h"
#include "server_inputs.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {

int runInspect(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads server topologies (hwloc XML, NCCL topology XML, nvidia-smi topo -m, agent snapshots), fabric "
        "sources, "
        "cluster files and sessions, and reports, for every GPU and NIC, the path between them, GPUDirect "
        "RDMA, socket "
        "crossings, NCCL's NIC choice and findings, with the fabric's findings when a source gives one."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("inspect"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("Inputs of any supported kind, as the window opens them."),
                                 QStringLiteral("FILE..."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption local(
        QStringLiteral("local"),
        QStringLiteral("Inspect this machine through its rackscope-agent (RACKSCOPE_AGENT "
                       "overrides where it is found)."));
    parser.addOptions({json, local});
    const RemoteOptions remote;
    remote.addTo(parser);
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli inspect: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() && !parser.isSet(local) && !remote.wanted(parser)) {
        fputs("rackscope-cli inspect: give topology files, --local for this machine, or --hosts for servers "
              "over SSH\n",
              stderr);
        return 2;
    }

    Workspace ws;
    const ServerInputs in = readServers(parser, remote, files, parser.isSet(local), ws);
    if (!in.error.isEmpty()) {
        fprintf(stderr, "rackscope-cli inspect: %s\n", qPrintable(in.error));
        return 2;
    }
    const std::vector<FailedInput>& failed = in.failed;

    const FabricAnalysis* fabricAnalysis = ws.fabricAnalysis() ? &*ws.fabricAnalysis() : nullptr;
    QTextStream out(stdout);
    if (parser.isSet(json))
        out << QJsonDocument(inspectToJson(ws.servers(), failed, ws.fabric() ? &*ws.fabric() : nullptr,
                                           fabricAnalysis, ws.runs(), ws.loadRuns()))
                   .toJson(QJsonDocument::Indented);
    else
        out << inspectToText(ws.hosts(), fabricAnalysis, ws.runs(), ws.loadRuns());
    out.flush();
    return !failed.empty() ? 2 : !ws.unreachable().empty() ? 1 : 0;
}

} // namespace rackscope::cli
