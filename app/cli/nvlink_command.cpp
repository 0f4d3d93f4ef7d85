// rackscope-cli nvlink: a rack's multi-node NVLink fabric from what people already have (nvidia-smi -q,
// nvidia-smi nvlink --status, nvidia-imex-ctl -N, NCCL logs; pasted through pdsh or not): the domains, the
// GPUs in none, the IMEX peers, and what is wrong.
#include "nvlink_command.h"

#include "analysis/nvlink_findings.h"
#include "import/fabric_loader.h"
#include "import/nvlink_inputs.h"
#include "report/nvlink_report.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <cstdio>

namespace rackscope::cli {

int runNvlink(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads a rack's NVLink fabric from nvidia-smi -q, nvidia-smi nvlink --status, nvidia-imex-ctl -N and "
        "NCCL_DEBUG=INFO logs, chosen by content, one server's or many through pdsh (\"node7: ...\"): the "
        "NVLink domains (ClusterUUID and CliqueId), GPUs outside them, IMEX peers, links, and findings. "
        "Exits 1 when a finding is an error."));
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
    parser.addOptions({json, host, racks});
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
    if (inputs.empty()) {
        fputs("rackscope-cli nvlink: give at least one FILE\n", stderr);
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
    const std::vector<Finding> findings = nvlinkFindings(fabric, rackBlocks);
    if (parser.isSet(json))
        fputs(QJsonDocument(nvlinkToJson(fabric, findings)).toJson().constData(), stdout);
    else
        fputs(qPrintable(nvlinkToText(fabric, findings)), stdout);
    const bool error = std::any_of(findings.begin(), findings.end(),
                                   [](const Finding& f) { return f.severity == Severity::Error; });
    return error ? 1 : 0;
}

} // namespace rackscope::cli
