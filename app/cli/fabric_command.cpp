#include "fabric_command.h"

#include "analysis/fabric_placement.h"
#include "analysis/slurm_topology_check.h"
#include "import/fabric_file.h"
#include "import/fabric_loader.h"
#include "import/nvlink_inputs.h"
#include "import/slurm_topology_conf.h"
#include "model/hostlist.h"
#include "protocol/protocol.h"
#include "remote_hosts.h"
#include "report/fabric_file_writer.h"
#include "report/fabric_report.h"
#include "report/finding_json.h"
#include "report/slurm_topology_writer.h"
#include "transport/local_agent.h"
#include "workspace/workspace.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {
namespace {

const QStringList kExportFormats{QStringLiteral("topology.conf"), QStringLiteral("topology.yaml"),
                                 QStringLiteral("dot"), QStringLiteral("json"), QStringLiteral("fabric")};

// The NVLink fabric from --nvlink files; nothing and false when one cannot be read.
bool readNvlink(const QStringList& files, NvlinkFabric* out) {
    for (const QString& file : files) {
        NvlinkInput in = loadNvlinkFile(file);
        if (!in.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(file), qPrintable(in.error));
            return false;
        }
        out->append(std::move(in.fabric));
    }
    return true;
}

int verifySlurm(const QString& path, const FabricAnalysis* analysis, const NvlinkFabric& nvlink, bool json,
                QTextStream& out) {
    const FabricLoad declared = loadFabricFile(path);
    if (!declared.fabric) {
        fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(path), qPrintable(declared.error));
        return 2;
    }
    const std::vector<Finding> findings =
        checkSlurmTopology(*declared.fabric, analysis, nvlink.empty() ? nullptr : &nvlink);
    if (json) {
        out << QJsonDocument(QJsonObject{{"topology", path}, {"findings", findingsToJson(findings)}})
                   .toJson(QJsonDocument::Indented);
    } else {
        out << path << ": " << (findings.empty() ? "agrees with what was discovered" : "disagrees") << "\n";
        for (const Finding& f : findings)
            out << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
    }
    return findings.empty() ? 0 : 1;
}

int printHops(const Fabric& f, const FabricAnalysis& a, const QString& pair, bool json, QTextStream& out) {
    const QStringList hosts = pair.split(QLatin1Char(','));
    if (hosts.size() != 2) {
        fputs("rackscope-cli fabric: --hops takes two hosts: A,B\n", stderr);
        return 2;
    }
    const auto hops = FabricDistances(f, a).switchHops(hosts[0], hosts[1]);
    if (json)
        out << QJsonDocument(switchHopsToJson(hosts[0], hosts[1], hops)).toJson(QJsonDocument::Indented);
    else if (hops)
        out << hosts[0] << " - " << hosts[1] << ": " << *hops << " switch hop(s)\n";
    else
        out << hosts[0] << " - " << hosts[1] << ": no path on this fabric\n";
    return hops ? 0 : 1;
}

int printGroups(const Fabric& f, const FabricAnalysis& a, const QString& sizeText, const QString& hostlist,
                const NvlinkFabric& nvlink, bool json, QTextStream& out) {
    bool ok = false;
    const int size = sizeText.toInt(&ok);
    if (!ok || size <= 0) {
        fputs("rackscope-cli fabric: --groups takes a group size\n", stderr);
        return 2;
    }
    QStringList hosts;
    if (hostlist.isEmpty()) {
        for (const FabricHost& h : a.hosts)
            hosts << h.name;
        for (const auto& [host, domain] : hostDomains(nvlink))
            if (!hosts.contains(host))
                hosts << host;
    } else {
        const HostlistResult r = expandHostlist(hostlist);
        if (!r.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli fabric: --of: %s\n", qPrintable(r.error));
            return 2;
        }
        hosts = r.hosts;
    }
    const Placement p = proposeGroups(f, a, hosts, size, hostDomains(nvlink));
    if (json) {
        out << QJsonDocument(placementToJson(size, p)).toJson(QJsonDocument::Indented);
    } else {
        for (const PlacementGroup& g : p.groups)
            out << compressHostlist(g.hosts) << "  "
                << (g.nvlinkDomain.isEmpty() ? QString()
                                             : QStringLiteral("in NVLink domain %1, ").arg(g.nvlinkDomain))
                << (g.sharedLeaves.isEmpty()
                        ? QStringLiteral("no shared leaf")
                        : QStringLiteral("under ") + g.sharedLeaves.join(QStringLiteral(", ")))
                << ", at most " << (g.maxHops ? QString::number(*g.maxHops) : QStringLiteral("?"))
                << " switch hop(s)\n";
        if (!p.unplaced.isEmpty())
            out << "not placed: " << compressHostlist(p.unplaced) << "\n";
    }
    return 0;
}

} // namespace

int runFabric(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Reads the fabric above the servers from every SOURCE, merged into one: switches with "
                       "their tiers, links, hosts, rails, "
                       "leaf oversubscription and findings."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("fabric"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("SOURCE"),
                                 QStringLiteral("ibnetdiscover output, a Slurm topology.conf or "
                                                "topology.yaml, a rackscope fabric file or an agent "
                                                "snapshot."),
                                 QStringLiteral("SOURCE..."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption local(
        QStringLiteral("local"),
        QStringLiteral("Add this machine's LLDP neighbours and RDMA ports, through its agent."));
    const QCommandLineOption exportAs(
        QStringLiteral("export"),
        QStringLiteral(
            "Write the fabric as topology.conf, topology.yaml, dot, json or fabric (rackscope's file)."),
        QStringLiteral("FORMAT"));
    const QCommandLineOption hops(QStringLiteral("hops"), QStringLiteral("Switch hops between two hosts."),
                                  QStringLiteral("A,B"));
    const QCommandLineOption groups(QStringLiteral("groups"),
                                    QStringLiteral("Propose groups of SIZE hosts that stay under one leaf."),
                                    QStringLiteral("SIZE"));
    const QCommandLineOption of(QStringLiteral("of"),
                                QStringLiteral("The hosts to group (a hostlist); all when absent."),
                                QStringLiteral("LIST"));
    const QCommandLineOption nvlinkFiles(
        QStringLiteral("nvlink"),
        QStringLiteral(
            "NVLink fabric state (anything `nvlink` reads): --groups keeps a group in one NVLink domain, "
            "--export topology.yaml writes the domains as blocks, --verify-slurm checks blocks (repeat)."),
        QStringLiteral("FILE"));
    const QCommandLineOption verify(
        QStringLiteral("verify-slurm"),
        QStringLiteral(
            "Check a Slurm topology.conf or topology.yaml against what was discovered; exits 1 when "
            "they disagree."),
        QStringLiteral("FILE"));
    parser.addOptions({json, local, exportAs, hops, groups, of, nvlinkFiles, verify});
    const RemoteOptions remote;
    remote.addTo(parser);
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli fabric: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList paths = parser.positionalArguments().mid(1);
    const QString format = parser.value(exportAs);
    if ((paths.isEmpty() && !parser.isSet(local) && !remote.wanted(parser) && !parser.isSet(nvlinkFiles)) ||
        (parser.isSet(exportAs) && !kExportFormats.contains(format))) {
        fputs("rackscope-cli fabric: give SOURCE files, --local, --hosts or --nvlink; --export takes "
              "topology.conf, topology.yaml, dot, json or fabric\n",
              stderr);
        return 2;
    }
    NvlinkFabric nvlink;
    if (!readNvlink(parser.values(nvlinkFiles), &nvlink))
        return 2;
    Workspace ws;
    bool failed = false, remoteFailed = false;
    for (const FailedInput& f : ws.open(paths, Workspace::Mode::Add)) {
        fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(f.input), qPrintable(f.message));
        failed = true;
    }
    if (parser.isSet(local)) {
        const AgentCollect c = collectWithLocalAgent(findLocalAgent());
        const QString error =
            c.snapshot ? ws.takeAgentAnswer(kLocalAgentLocation, *c.snapshot, Workspace::Mode::Add) : c.error;
        if (!error.isEmpty()) {
            fprintf(stderr, "rackscope-cli: local machine: %s\n", qPrintable(error));
            failed = true;
        }
    }
    if (remote.wanted(parser)) {
        // Each server's LLDP neighbours and RDMA ports, from its agent.
        const RemoteAnswers answers =
            askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kCollect),
                     {{"sections",
                       QJsonArray{QStringLiteral("rdma"), QStringLiteral("net"), QStringLiteral("lldp")}}});
        if (!answers.error.isEmpty()) {
            fprintf(stderr, "rackscope-cli fabric: %s\n", qPrintable(answers.error));
            return 2;
        }
        for (const HostResult& r : answers.results)
            if (!r.result ||
                !ws.takeAgentAnswer(QStringLiteral("ssh://") + r.host, *r.result, Workspace::Mode::Add)
                     .isEmpty())
                remoteFailed = true;
    }
    QTextStream out(stdout);
    if (!ws.fabric() && !nvlink.empty()) { // the NVLink domains alone: blocks, groups, a check of blocks
        Fabric blocks;
        blocks.source = nvlink.sources.join(QStringLiteral(", "));
        blocks.blocks = nvlinkDomainBlocks(nvlink);
        if (parser.isSet(verify))
            return std::max(failed ? 2 : 0,
                            verifySlurm(parser.value(verify), nullptr, nvlink, parser.isSet(json), out));
        if (parser.isSet(groups))
            return printGroups(blocks, analyseFabric(blocks), parser.value(groups), parser.value(of), nvlink,
                               parser.isSet(json), out);
        if (format == QLatin1String("topology.yaml") || format == QLatin1String("topology.conf")) {
            out << (format == QLatin1String("topology.yaml") ? writeSlurmTopologyYaml(blocks)
                                                             : writeSlurmTopology(blocks));
            return failed ? 2 : 0;
        }
        fputs("rackscope-cli fabric: --nvlink alone gives --groups, --verify-slurm or --export topology.yaml "
              "or "
              "topology.conf\n",
              stderr);
        return 2;
    }
    if (!ws.fabric()) {
        if (!failed)
            fputs("rackscope-cli fabric: no source gave a fabric\n", stderr);
        return 2;
    }
    const Fabric& fabric = *ws.fabric();
    const FabricAnalysis& analysis = *ws.fabricAnalysis();
    int code = failed ? 2 : remoteFailed ? 1 : 0;
    if (parser.isSet(verify))
        code = std::max(code, verifySlurm(parser.value(verify), &analysis, nvlink, parser.isSet(json), out));
    else if (parser.isSet(hops))
        code = std::max(code, printHops(fabric, analysis, parser.value(hops), parser.isSet(json), out));
    else if (parser.isSet(groups))
        code = std::max(code, printGroups(fabric, analysis, parser.value(groups), parser.value(of), nvlink,
                                          parser.isSet(json), out));
    else if (format == QLatin1String("topology.conf") || format == QLatin1String("topology.yaml")) {
        Fabric scheduled = fabric; // the NVLink domains are the blocks, where they are known
        if (!nvlink.empty())
            scheduled.blocks = nvlinkDomainBlocks(nvlink);
        out << (format == QLatin1String("topology.yaml") ? writeSlurmTopologyYaml(scheduled)
                                                         : writeSlurmTopology(scheduled));
    } else if (format == QLatin1String("fabric"))
        out << writeFabricFile(fabric);
    else if (format == QLatin1String("dot"))
        out << fabricToDot(fabric, analysis);
    else if (parser.isSet(json) || format == QLatin1String("json"))
        out << QJsonDocument(fabricToJson(fabric, analysis)).toJson(QJsonDocument::Indented);
    else
        out << fabricToText(fabric, analysis);
    out.flush();
    return code;
}

} // namespace rackscope::cli
