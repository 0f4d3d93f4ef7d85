// rackscope-cli nccl-log: what NCCL_DEBUG=INFO logs of a real job say each rank used (its NICs, each
// channel's transport, GPUDirect RDMA or not), and with --topology, whether that is what the hardware allows.
#include "nccl_log_command.h"

#include "analysis/nvlink_findings.h"
#include "import/input_file.h"
#include "job/ras_json.h"
#include "nccl_tests_command.h"
#include "report/nccl_tests_report.h"
#include "runs/nccl_ras.h"
#include "runs/nccl_transport.h"
#include "runs/torch_watchdog.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rackscope::cli {

namespace {

QJsonObject watchdogJson(const TorchWatchdog& w) {
    const auto orNull = [](const std::optional<qint64>& v) { return v ? QJsonValue(*v) : QJsonValue(); };
    QJsonArray failures;
    for (const TorchWorkFailure& f : w.failures)
        failures.append(
            QJsonObject{{"rank", f.rank},
                        {"process_group", f.processGroup},
                        {"kind", f.kind == TorchWorkFailure::Kind::Timeout ? "timeout" : "async_error"},
                        {"seq_num", orNull(f.seqNum)},
                        {"op_type", f.opType},
                        {"numel_in", orNull(f.numelIn)},
                        {"numel_out", orNull(f.numelOut)},
                        {"timeout_ms", orNull(f.timeoutMs)},
                        {"ran_for_ms", orNull(f.ranForMs)},
                        {"error", f.error.isEmpty() ? QJsonValue() : QJsonValue(f.error)},
                        {"remote_error", f.remoteError}});
    QJsonArray progress;
    for (const TorchWatchdogProgress& p : w.progress)
        progress.append(QJsonObject{{"rank", p.rank},
                                    {"process_group", p.processGroup},
                                    {"at_work", p.atWork},
                                    {"last_enqueued", p.lastEnqueued},
                                    {"last_completed", p.lastCompleted}});
    return {{"failures", failures},
            {"progress", progress},
            {"remote_peers", QJsonArray::fromStringList(w.remotePeers)}};
}

QJsonObject rasJson(const QString& file, const NcclRasReport& r) {
    QJsonObject o = rasReportJson(r);
    o.insert("source", file);
    return o;
}

} // namespace

int runNcclLog(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads NCCL_DEBUG=INFO logs (any NCCL version, several processes' lines interleaved, one "
        "file or several): per rank the NICs and the transport of each channel, and whether "
        "GPUDirect RDMA was on."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("nccl-log"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("Logs with NCCL's INFO lines (repeat)."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document."));
    const QCommandLineOption topology(
        QStringLiteral("topology"),
        QStringLiteral("HOST=FILE: that host's topology (any format inspect reads), to say whether each rank "
                       "used the NIC and GPUDirect RDMA its GPU allows (repeat it)."),
        QStringLiteral("HOST=FILE"));
    parser.addOptions({json, topology});
    if (!parser.parse(args)) {
        fprintf(stderr, "rackscope-cli nccl-log: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty()) {
        fputs("rackscope-cli nccl-log: give at least one FILE\n", stderr);
        return 2;
    }
    const auto topologies = topologiesByHost(parser.values(topology), "nccl-log");
    if (!topologies)
        return 2;
    QStringList lines;
    std::vector<std::pair<QString, NcclRasReport>> ras; // the files that are ncclras output, read as such
    for (const QString& file : files) {
        QByteArray text;
        if (const QString error = readInputFile(file, 256 << 20, &text); !error.isEmpty()) {
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(file), qPrintable(error));
            return 2;
        }
        if (looksLikeNcclRas(text)) {
            QString why;
            std::optional<NcclRasReport> report = readNcclRas(text, &why);
            if (!report) {
                fprintf(stderr, "rackscope-cli: %s: ncclras output that cannot be read: %s\n",
                        qPrintable(file), qPrintable(why));
                return 2;
            }
            if (!report->repaired.isEmpty())
                fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(file), qPrintable(report->repaired));
            ras.push_back({file, std::move(*report)});
        }
        lines += QString::fromUtf8(text).split(QLatin1Char('\n'));
    }
    const NcclTransport t = readNcclTransport(lines);
    const TorchWatchdog watchdog = readTorchWatchdog(lines);
    if (t.ranks.empty() && t.devices.empty() && t.mnnvl.empty() && watchdog.lines == 0 && ras.empty()) {
        fprintf(stderr,
                "rackscope-cli nccl-log: %s: no NCCL_DEBUG=INFO lines about ranks, NICs or channels, no "
                "PyTorch watchdog lines and no ncclras output\n",
                qPrintable(files.join(QStringLiteral(", "))));
        return 2;
    }
    std::vector<Finding> findings = ncclTransportFindings(t, ranksFromInitLines(t), *topologies);
    for (Finding& f : torchWatchdogFindings(watchdog))
        findings.push_back(std::move(f));
    for (const auto& [file, report] : ras)
        for (Finding& f : ncclRasFindings(report))
            findings.push_back(std::move(f));
    NvlinkFabric mnnvl;
    mnnvl.gpus = t.mnnvl;
    for (Finding& f : nvlinkFindings(mnnvl)) // a GPU NCCL found outside its NVLink domain, or unhealthy
        findings.push_back(std::move(f));
    QTextStream out(stdout);
    if (parser.isSet(json)) {
        QJsonObject doc = ncclTransportToJson(t, findings);
        doc.insert("sources", QJsonArray::fromStringList(files));
        doc.insert("watchdog", watchdogJson(watchdog));
        QJsonArray reports;
        for (const auto& [file, report] : ras)
            reports.append(rasJson(file, report));
        doc.insert("ras", reports);
        out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
        return 0;
    }
    QSet<QString> hosts;
    for (const NcclRankNetwork& r : t.ranks)
        hosts.insert(r.host);
    if (!t.ranks.empty())
        out << t.ranks.size() << " ranks on " << hosts.size() << " hosts, " << t.channelLines
            << " channel lines\n";
    QString host;
    for (const NcclRankNetwork& r : t.ranks) {
        if (r.host != host) {
            host = r.host;
            out << host << ":";
            if (t.network.count(host))
                out << " network " << t.network.at(host) << ";";
            if (t.devices.count(host)) {
                out << " NICs";
                for (const NcclNetDevice& d : t.devices.at(host))
                    out << " [" << d.index << "]" << d.name << " (" << d.link << ")";
            }
            out << "\n";
            if (t.gdrNotes.count(host))
                for (const QString& note : t.gdrNotes.at(host))
                    out << "  NCCL said: " << note << "\n";
        }
        out << "  rank " << r.rank;
        QStringList where;
        if (r.cudaDevice)
            where << QStringLiteral("CUDA device %1").arg(*r.cudaDevice);
        if (!r.busId.isEmpty())
            where << r.busId;
        if (!where.isEmpty())
            out << " (" << where.join(QStringLiteral(", ")) << ")";
        QStringList channels;
        for (const auto& [transport, n] : r.channels)
            channels << QStringLiteral("%1 x%2").arg(transport).arg(n);
        out << ": "
            << (channels.isEmpty() ? QStringLiteral("no channel lines")
                                   : channels.join(QStringLiteral(", ")));
        if (r.netConnections > 0)
            out << "; NICs " << r.nics.join(QStringLiteral(", ")) << ", GPUDirect RDMA on "
                << r.gdrConnections << " of " << r.netConnections << " network connections";
        out << "\n";
    }
    for (const auto& [file, report] : ras) {
        out << "ncclras (" << report.format
            << (report.ncclVersion.isEmpty() ? QString() : QStringLiteral(", NCCL ") + report.ncclVersion)
            << ") " << file << ": " << report.problems.size() << " problems";
        for (const NcclRasReport::Group& g : report.groups)
            out << "; group " << g.group << ": " << g.comms << " communicators of " << g.ranksPerComm
                << " ranks, " << g.status << " " << g.errors;
        out << "\n";
    }
    if (watchdog.lines > 0) {
        out << "PyTorch watchdog: " << watchdog.failures.size() << " failed collectives reported";
        if (!watchdog.remotePeers.isEmpty())
            out << "; NCCL said the connection was closed by "
                << watchdog.remotePeers.join(QStringLiteral(", "));
        out << "\n";
        for (const TorchWatchdogProgress& p : watchdog.progress)
            out << "  rank " << p.rank << " (process group " << p.processGroup << "): at collective "
                << p.atWork << ", last enqueued " << p.lastEnqueued << ", last completed " << p.lastCompleted
                << "\n";
    }
    for (const GpuFabricState& g : t.mnnvl)
        out << "MNNVL " << g.label() << ": clique "
            << (g.cliqueId ? QString::number(*g.cliqueId) : QStringLiteral("?")) << " of cluster "
            << g.clusterUuid << ", state " << g.state << ", health "
            << (g.healthConditions.isEmpty() ? QStringLiteral("no condition set")
                                             : g.healthConditions.join(QStringLiteral(", ")))
            << "\n";
    for (const Finding& f : findings)
        out << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
    return 0;
}

} // namespace rackscope::cli
