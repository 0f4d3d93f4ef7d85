// rackscope-cli nvlink: a rack's multi-node NVLink fabric from what people already have (nvidia-smi -q,
// nvidia-smi nvlink --status, nvidia-imex-ctl -N, NCCL logs; pasted through pdsh or not): the domains, the
// GPUs in none, the IMEX peers, and what is wrong.
#include "nvlink_command.h"

#include "analysis/nvlink_findings.h"
#include "import/fabric_loader.h"
#include "import/nvlink_inputs.h"
#include "import/snapshot_nvlink.h"
#include "protocol/protocol.h"
#include "remote_hosts.h"
#include "report/nvlink_report.h"
#include "transport/local_agent.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>
#include <cstdio>

namespace rackscope::cli {
namespace {

// Each server's GPUs and IMEX view, from its agent (this machine's with --local); false when one could not
// be asked at all.
bool askAgents(const QCommandLineParser& parser, const RemoteOptions& remote, bool local, NvlinkFabric* out) {
    bool ok = true;
    if (local) {
        const AgentCollect c = collectWithLocalAgent(findLocalAgent());
        if (c.snapshot)
            out->append(nvlinkFromSnapshot(*c.snapshot));
        else
            fprintf(stderr, "rackscope-cli: local machine: %s\n", qPrintable(c.error));
        ok = ok && c.snapshot.has_value();
    }
    if (remote.wanted(parser)) {
        const RemoteAnswers answers =
            askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kCollect),
                     {{"sections", QJsonArray{QStringLiteral("gpus"), QStringLiteral("imex")}}});
        if (!answers.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli nvlink: %s\n", qPrintable(answers.error));
            return false;
        }
        for (const HostResult& r : answers.results) {
            if (r.result)
                out->append(nvlinkFromSnapshot(*r.result, r.host));
            else
                ok = false; // askHosts said why
        }
    }
    return ok;
}

} // namespace

int runNvlink(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads a rack's NVLink fabric from nvidia-smi -q, nvidia-smi nvlink --status, nvidia-imex-ctl -N and "
        "NCCL_DEBUG=INFO logs, chosen by content, one server's or many through pdsh (\"node7: ...\"): the "
        "NVLink domains (ClusterUUID and CliqueId), GPUs outside them, IMEX peers, links, and findings. "
        "With --local or --hosts, the agents say it through NVML and nvidia-imex-ctl. Exits 1 when a finding "
        "is an error, 2 when an input could not be read."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("nvlink"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("Outputs of any of those tools (repeat)."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption host(QStringLiteral("host"),
                                  QStringLiteral("NAME=FILE: a file taken on server NAME (repeat)."),
                                  QStringLiteral("NAME=FILE"));
    const QCommandLineOption racks(
        QStringLiteral("racks"),
        QStringLiteral("The design's NVLink racks: a topology.conf/topology.yaml with blocks, or a rackscope "
                       "fabric file; a rack whose servers are in different domains is split."),
        QStringLiteral("FILE"));
    const QCommandLineOption local(QStringLiteral("local"), QStringLiteral("Ask this machine's agent."));
    const QCommandLineOption sample(
        QStringLiteral("sample"),
        QStringLiteral(
            "Read the agents twice, S seconds apart: NVLink error counters that grow are a finding."),
        QStringLiteral("S"));
    parser.addOptions({json, host, racks, local, sample});
    const RemoteOptions remote;
    remote.addTo(parser);
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli nvlink: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    std::vector<std::pair<QString, QString>> inputs; // server, file
    for (const QString& f : parser.positionalArguments().mid(1))
        inputs.emplace_back(QString(), f);
    for (const QString& pair : parser.values(host)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            fprintf(stderr, "rackscope-cli nvlink: --host takes NAME=FILE, not '%s'\n", qPrintable(pair));
            return 2;
        }
        inputs.emplace_back(pair.left(eq), pair.mid(eq + 1));
    }
    const bool agents = parser.isSet(local) || remote.wanted(parser);
    if (inputs.empty() && !agents) {
        fputs("rackscope-cli nvlink: give FILEs, --local or --hosts\n", stderr);
        return 2;
    }
    bool ok = false;
    const double sampleS = parser.value(sample).toDouble(&ok);
    if (parser.isSet(sample) && (!ok || sampleS <= 0 || sampleS > 3600 || !agents)) {
        fputs("rackscope-cli nvlink: --sample takes seconds (up to 3600), with --local or --hosts\n", stderr);
        return 2;
    }
    NvlinkFabric fabric;
    for (const auto& [server, file] : inputs) {
        NvlinkInput in = loadNvlinkFile(file, server);
        if (!in.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(file), qPrintable(in.error));
            return 2;
        }
        for (const QString& note : in.notes)
            fprintf(stderr, "rackscope-cli: %s\n", qPrintable(note));
        fabric.append(std::move(in.fabric));
    }
    int code = 0;
    NvlinkFabric first;
    if (agents && !askAgents(parser, remote, parser.isSet(local), &first))
        code = 2;
    NvlinkFabric second;
    if (parser.isSet(sample)) {
        QThread::msleep(static_cast<unsigned long>(sampleS * 1000));
        if (!askAgents(parser, remote, parser.isSet(local), &second))
            code = 2;
    }
    fabric.append(parser.isSet(sample) ? second : first);
    std::vector<FabricBlock> rackBlocks;
    if (parser.isSet(racks)) {
        const FabricLoad design = loadFabricFile(parser.value(racks));
        if (!design.fabric) {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(parser.value(racks)),
                    qPrintable(design.error));
            return 2;
        }
        rackBlocks = design.fabric->blocks;
        if (rackBlocks.empty()) {
            fprintf(stderr, "rackscope-cli nvlink: %s names no blocks (racks)\n",
                    qPrintable(parser.value(racks)));
            return 2;
        }
    }
    std::vector<Finding> findings = nvlinkFindings(fabric, rackBlocks);
    for (Finding& f : nvlinkErrorFindings(first, second))
        findings.push_back(std::move(f));
    if (parser.isSet(json))
        fputs(QJsonDocument(nvlinkToJson(fabric, findings)).toJson().constData(), stdout);
    else
        fputs(qPrintable(nvlinkToText(fabric, findings)), stdout);
    const bool error = std::any_of(findings.begin(), findings.end(),
                                   [](const Finding& f) { return f.severity == Severity::Error; });
    return std::max(code, error ? 1 : 0);
}

} // namespace rackscope::cli
