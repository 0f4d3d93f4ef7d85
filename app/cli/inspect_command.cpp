#include "inspect_command.h"

#include "protocol/protocol.h"
#include "import/agent_snapshot_importer.h"
#include "import/topology_loader.h"
#include "remote_hosts.h"
#include "report/inspect_report.h"
#include "transport/local_agent.h"

#include <QJsonArray>

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
    QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() && !parser.isSet(local) && !remote.wanted(parser)) {
        fputs("rackscope-cli inspect: give topology files, --local for this machine, or --hosts for servers over SSH\n", stderr);
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
    const size_t fromFiles = hosts.size();

    // Servers over SSH: one entry per host, in the order given; a failed host's entry is its error.
    QJsonArray remoteEntries;
    bool remoteFailed = false;
    if (remote.wanted(parser)) {
        const RemoteAnswers answers = askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kCollect));
        if (!answers.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli inspect: %s\n", qPrintable(answers.error));
            return 2;
        }
        for (const HostResult& r : answers.results) {
            ImportResult imported = r.result ? importAgentSnapshot(*r.result, QStringLiteral("ssh://") + r.host) : ImportResult::fail({});
            if (imported.host) {
                HostAnalysis analysis = analyzeHost(*imported.host);
                hosts.push_back({std::move(*imported.host), std::move(analysis)});
                remoteEntries.append(hostToJson(hosts.back()));
                continue;
            }
            remoteFailed = true;
            const QString stage = r.error ? stageName(r.error->stage) : QStringLiteral("import");
            const QString message = r.error ? r.error->message : imported.error;
            if (!r.error) fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(r.host), qPrintable(message));
            remoteEntries.append(QJsonObject{{"name", r.host}, {"error", QJsonObject{{"stage", stage}, {"message", message}}}});
        }
    }

    QTextStream out(stdout);
    if (parser.isSet(json)) {
        QJsonObject doc = inspectToJson({hosts.begin(), hosts.begin() + qsizetype(fromFiles)}, failed);
        QJsonArray all = doc.value("hosts").toArray();
        for (const QJsonValue& v : remoteEntries) all.append(v);
        doc.insert("hosts", all);
        out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
    } else {
        out << inspectToText(hosts);
    }
    out.flush();
    return !failed.empty() ? 2 : remoteFailed ? 1 : 0;
}

} // namespace rackscope::cli
