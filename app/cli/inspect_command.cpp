#include "inspect_command.h"

#include "import/agent_snapshot_importer.h"
#include "import/topology_loader.h"
#include "report/inspect_report.h"
#include "transport/local_agent.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {

int runInspect(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads server topologies (hwloc XML, NCCL topology XML, nvidia-smi topo -m, agent snapshots) and reports, for every GPU "
        "and NIC, the path between them, GPUDirect RDMA, socket crossings, NCCL's NIC choice and findings."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("inspect"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Topology files, of any supported kind."),
                                 QStringLiteral("FILE..."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption local(QStringLiteral("local"),
                                   QStringLiteral("Inspect this machine through its rackscope-agent (RACKSCOPE_AGENT "
                                                  "overrides where it is found)."));
    parser.addOptions({json, local});
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli inspect: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() && !parser.isSet(local)) {
        fputs("rackscope-cli inspect: give topology files, or --local for this machine\n", stderr);
        return 2;
    }

    std::vector<InspectedHost> hosts;
    std::vector<FailedInput> failed;
    auto take = [&](const QString& input, ImportResult r) {
        if (r.host) {
            HostAnalysis analysis = analyzeHost(*r.host);
            hosts.push_back({std::move(*r.host), std::move(analysis)});
        } else {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(input), qPrintable(r.error));
            failed.push_back({input, r.error});
        }
    };
    if (parser.isSet(local)) {
        const AgentCollect c = collectWithLocalAgent(findLocalAgent());
        take(QStringLiteral("local machine"), c.snapshot ? importAgentSnapshot(*c.snapshot, QStringLiteral("rackscope-agent on this machine"))
                                                         : ImportResult::fail(c.error));
    }
    for (const QString& f : files) take(f, loadTopologyFile(f));

    QTextStream out(stdout);
    if (parser.isSet(json))
        out << QJsonDocument(inspectToJson(hosts, failed)).toJson(QJsonDocument::Indented);
    else
        out << inspectToText(hosts);
    out.flush();
    return failed.empty() ? 0 : 2;
}

} // namespace rackscope::cli
