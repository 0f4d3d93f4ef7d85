#include "inspect_command.h"

#include "protocol/protocol.h"
#include "remote_hosts.h"
#include "report/inspect_report.h"
#include "transport/local_agent.h"
#include "workspace/workspace.h"

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
    std::vector<FailedInput> failed;
    auto fail = [&](const QString& input, const QString& message) {
        fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(input), qPrintable(message));
        failed.push_back({input, message});
    };
    if (parser.isSet(local)) {
        const AgentCollect c = collectWithLocalAgent(findLocalAgent());
        const QString error =
            c.snapshot ? ws.takeAgentAnswer(kLocalAgentLocation, *c.snapshot, Workspace::Mode::Add) : c.error;
        if (!error.isEmpty())
            fail(QStringLiteral("local machine"), error);
    }
    for (const FailedInput& f : ws.open(files, Workspace::Mode::Add))
        fail(f.input, f.message);

    // Servers over SSH, in the order given, whatever order they answer in; one that fails is listed with
    // the stage that failed.
    if (remote.wanted(parser)) {
        const RemoteAnswers answers =
            askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kCollect));
        if (!answers.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli inspect: %s\n", qPrintable(answers.error));
            return 2;
        }
        QStringList order;
        for (const HostResult& r : answers.results)
            order << r.host;
        ws.setServerOrder(order);
        for (const HostResult& r : answers.results) {
            const QString location = QStringLiteral("ssh://") + r.host;
            UnreachableServer failure{r.host, location, QStringLiteral("import"), {}};
            if (r.error)
                failure.stage = stageName(r.error->stage), failure.message = r.error->message;
            else if (!r.result)
                failure.message = QStringLiteral("no answer");
            else
                failure.message = ws.takeAgentAnswer(location, *r.result, Workspace::Mode::Add);
            if (failure.message.isEmpty())
                continue;
            if (!r.error) // the fleet has said its own
                fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(r.host), qPrintable(failure.message));
            ws.takeUnreachable(std::move(failure));
        }
    }

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
