#include "inspect_report.h"

#include "finding_json.h"
#include "model/json_values.h"
#include "run_report.h"

#include "analysis/device_paths.h"
#include "runs/load_json.h"

#include <QHash>
#include <QJsonArray>
#include <QTextStream>

namespace rackscope {
namespace {

// Said of every GPU pair whose source does not state NVLink.
constexpr char kNvlinkNotDescribed[] = "PCIe path; NVLink not described by this source";

bool nvlinkDescribed(const HostTopology& t, const GpuPair& p) {
    if (!t.nvlinkStated)
        return false;
    const auto index = [&](const QString& id) {
        for (size_t i = 0; i < t.gpus.size(); ++i)
            if (t.gpus[i].id == id)
                return int(i);
        return -1;
    };
    return !t.nvlinkUnstated.count(std::minmax(index(p.a), index(p.b)));
}

QJsonValue pathJson(const std::optional<PathType>& p, const std::optional<int>& nv = {}) {
    return p ? QJsonValue(pathTypeName(*p, nv)) : QJsonValue();
}

QJsonObject deviceJson(const Device& d) {
    QJsonObject o{{"id", d.id},
                  {"pci", d.pci ? QJsonValue(d.pci->toString()) : QJsonValue()},
                  {"name", orNull(d.name)},
                  {"numa", orNull(d.numa)},
                  {"socket", orNull(d.socket)}};
    if (d.kind == DeviceKind::Nic) {
        o.insert("rdma", orNull(d.rdma));
        o.insert("rdma_evidence", d.rdmaEvidence);
        o.insert("speed_mbps", orNull(d.speedMbps));
    }
    return o;
}

} // namespace

QJsonObject hostToJson(const InspectedHost& h) {
    const HostTopology& t = h.host;
    QJsonArray gpus, nics, gpuGpu, gpuNic, findings;
    for (const Device& d : t.gpus)
        gpus.append(deviceJson(d));
    for (const Device& d : t.nics)
        nics.append(deviceJson(d));
    for (const GpuPair& p : h.analysis.gpuGpu) {
        QJsonObject pair{{"a", p.a}, {"b", p.b}, {"path", pathJson(p.path, p.nvlinks)}};
        if (!nvlinkDescribed(t, p))
            pair.insert("note", QLatin1String(kNvlinkNotDescribed));
        gpuGpu.append(pair);
    }
    for (const GpuNicPair& p : h.analysis.gpuNic) {
        QJsonObject pair{{"gpu", p.gpu},
                         {"nic", p.nic},
                         {"path", pathJson(p.path)},
                         {"gpudirect", orNull(p.gpudirect)},
                         {"gpudirect_reason", p.gpudirectReason},
                         {"cross_socket", orNull(p.crossSocket)},
                         {"cross_socket_evidence", orNull(p.crossSocketEvidence)}};
        if (p.ncclPath) // NCCL's own path where it differs from the PCIe one (P2C, PXN)
            pair.insert("nccl_path", pathJson(p.ncclPath));
        if (!p.relayGpu.isEmpty())
            pair.insert("relay_gpu", p.relayGpu);
        gpuNic.append(pair);
    }
    QJsonObject ncclNic;
    for (const auto& [gpu, nic] : h.analysis.ncclNic)
        ncclNic.insert(gpu, nic);
    for (const Finding& f : h.analysis.findings)
        findings.append(findingToJson(f));
    return {
        {"name", orNull(t.name)},
        {"source", QJsonObject{{"format", sourceFormatId(t.source.format)}, {"location", t.source.location}}},
        {"gpus", gpus},
        {"nics", nics},
        {"gpu_gpu", gpuGpu},
        {"gpu_nic", gpuNic},
        {"nccl_nic", ncclNic},
        {"findings", findings}};
}

QJsonObject inspectToJson(const std::vector<ServerEntry>& servers, const std::vector<FailedInput>& failed,
                          const Fabric* fabric, const FabricAnalysis* fabricAnalysis,
                          const std::vector<JudgedRun>& runs, const std::vector<SavedLoadRun>& loadRuns) {
    QJsonArray list, errors;
    for (const ServerEntry& e : servers)
        if (e.host)
            list.append(hostToJson(*e.host));
        else if (e.unreachable)
            list.append(QJsonObject{{"name", e.unreachable->name},
                                    {"error", QJsonObject{{"stage", e.unreachable->stage},
                                                          {"message", e.unreachable->message}}}});
    for (const auto& f : failed)
        errors.append(QJsonObject{{"input", f.input}, {"message", f.message}});
    QJsonObject doc{{"hosts", list}};
    if (fabric && fabricAnalysis)
        doc.insert("fabric", QJsonObject{{"source", fabric->source},
                                         {"findings", findingsToJson(fabricAnalysis->findings)}});
    if (!runs.empty()) {
        QJsonArray saved;
        for (const JudgedRun& r : runs) {
            QJsonObject run = recordSummaryToJson(r.record.path, r.record);
            run.insert("command", r.record.meta.command);
            run.insert("findings", findingsToJson(r.findings));
            saved.append(run);
        }
        doc.insert("runs", saved);
    }
    if (!loadRuns.empty()) { // each step's summary.json as saved (vLLM's field names), and the findings
        QJsonArray saved;
        for (const SavedLoadRun& r : loadRuns) {
            QJsonArray steps;
            for (const LoadResults& step : r.steps)
                steps.append(toQtJson(step.summary));
            saved.append(QJsonObject{
                {"location", r.location}, {"steps", steps}, {"findings", findingsToJson(r.findings)}});
        }
        doc.insert("load_runs", saved);
    }
    if (!errors.isEmpty())
        doc.insert("errors", errors);
    return doc;
}

QJsonObject inspectToJson(const std::vector<InspectedHost>& hosts, const std::vector<FailedInput>& failed) {
    std::vector<ServerEntry> servers;
    for (const InspectedHost& h : hosts)
        servers.push_back({&h, nullptr});
    return inspectToJson(servers, failed);
}

namespace {

QString cell(const std::optional<PathType>& p, const std::optional<int>& nv = {}) {
    return p ? pathTypeName(*p, nv) : QStringLiteral("?");
}

void writeMatrix(QTextStream& out, const InspectedHost& h) {
    const HostTopology& t = h.host;
    std::vector<const Device*> devs;
    for (const Device& d : t.gpus)
        devs.push_back(&d);
    for (const Device& d : t.nics)
        devs.push_back(&d);
    if (devs.empty())
        return;
    // Each pair's cell once, both ways round: a 1000-device matrix is a million lookups.
    QHash<QPair<QString, QString>, QString> cells;
    const auto remember = [&](const QString& a, const QString& b, const QString& text) {
        cells.insert(qMakePair(a, b), text);
        cells.insert(qMakePair(b, a), text);
    };
    for (const GpuNicPair& p : h.analysis.gpuNic)
        remember(p.gpu, p.nic, cell(p.path));
    for (const GpuPair& p : h.analysis.gpuGpu)
        remember(p.a, p.b, cell(p.path, p.nvlinks));
    auto path = [&](const Device* a, const Device* b) -> QString {
        if (a == b)
            return QStringLiteral("X");
        if (const auto it = cells.constFind(qMakePair(a->id, b->id)); it != cells.cend())
            return *it;
        const DevicePath p = pathBetween(t, *a, *b); // NIC to NIC: not a verdict, shown for reference
        return cell(p.type, p.nvlinks);
    };
    out << qSetFieldWidth(7) << Qt::left << "";
    for (const Device* d : devs)
        out << d->id;
    out << qSetFieldWidth(0) << "\n";
    for (const Device* a : devs) {
        out << qSetFieldWidth(7) << a->id;
        for (const Device* b : devs)
            out << path(a, b);
        out << qSetFieldWidth(0) << "\n";
    }
}

void writeFindings(QTextStream& out, const std::vector<Finding>& findings) {
    if (findings.empty())
        out << "No findings.\n";
    for (const Finding& f : findings)
        out << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
}

QString opt(const std::optional<int>& v) {
    return v ? QString::number(*v) : QStringLiteral("?");
}

} // namespace

QString inspectToText(const std::vector<InspectedHost>& hosts, const FabricAnalysis* fabricAnalysis,
                      const std::vector<JudgedRun>& runs, const std::vector<SavedLoadRun>& loadRuns) {
    QString text;
    QTextStream out(&text);
    for (const auto& h : hosts) {
        const HostTopology& t = h.host;
        out << "== " << (t.name.isEmpty() ? QStringLiteral("(unnamed host)") : t.name) << "  ["
            << sourceFormatId(t.source.format) << ": " << t.source.location << "]\n";
        out << t.gpus.size() << " GPUs, " << t.nics.size() << " NICs\n\n";
        writeMatrix(out, h);
        out << "\nLegend: X self, NV# NVLinks, PIX one PCIe switch, PXB several switches, PHB host bridge,\n"
               "        NODE between host bridges of a NUMA node, SYS across NUMA nodes/sockets, ? "
               "unknown\n";
        if (t.gpus.size() > 1 && !t.nvlinkStated)
            out << "GPU to GPU: " << kNvlinkNotDescribed << "\n";
        else if (!t.nvlinkUnstated.empty())
            out << "GPU to GPU across NVSwitches not known to meet: " << kNvlinkNotDescribed << "\n";
        out << "\n";
        if (!t.gpus.empty()) {
            QHash<QString, QString> ncclNicOf;
            for (const auto& [gpu, nic] : h.analysis.ncclNic)
                ncclNicOf.insert(gpu, nic);
            out << "GPU     NUMA  socket  NCCL NIC          path  NCCL's path   GPUDirect  cross-socket\n";
            for (const Device& g : t.gpus) {
                QString nicId, nicName, path = QStringLiteral("-"), ncclPath = QStringLiteral("-"),
                                        gdr = QStringLiteral("-"), cross = QStringLiteral("-");
                if (const auto it = ncclNicOf.constFind(g.id); it != ncclNicOf.cend())
                    nicId = *it;
                if (const GpuNicPair* p = h.analysis.pair(g.id, nicId)) {
                    nicName = t.findDevice(nicId)->name;
                    path = cell(p->path);
                    if (p->ncclPath)
                        ncclPath =
                            pathTypeName(*p->ncclPath) +
                            (p->relayGpu.isEmpty() ? QString() : QStringLiteral(" via ") + p->relayGpu);
                    gdr = p->gpudirect ? (*p->gpudirect ? QStringLiteral("yes") : QStringLiteral("no"))
                                       : QStringLiteral("unknown");
                    cross = p->crossSocket ? (*p->crossSocket ? QStringLiteral("yes") : QStringLiteral("no"))
                                           : QStringLiteral("unknown");
                }
                const QString nic = nicId.isEmpty()
                                        ? QStringLiteral("-")
                                        : (nicName.isEmpty() ? nicId : nicId + QLatin1Char(' ') + nicName);
                out << qSetFieldWidth(8) << g.id << qSetFieldWidth(6) << opt(g.numa) << qSetFieldWidth(8)
                    << opt(g.socket) << qSetFieldWidth(18) << nic << qSetFieldWidth(6) << path
                    << qSetFieldWidth(14) << ncclPath << qSetFieldWidth(11) << gdr << qSetFieldWidth(0)
                    << cross << "\n";
            }
            out << "\n";
        }
        writeFindings(out, h.analysis.findings);
        out << "\n";
    }
    if (fabricAnalysis) {
        out << "== the fabric\n";
        writeFindings(out, fabricAnalysis->findings);
    }
    for (const JudgedRun& r : runs) {
        out << "\n== saved run: " << r.record.meta.label << "  [" << r.record.path << "]\n"
            << recordEnding(r.record);
        if (const std::optional<double> peak = peakBusbw(r.record.run))
            out << ", peak bus bandwidth " << QString::number(*peak, 'f', 2) << " GB/s";
        out << "\n";
        writeFindings(out, r.findings);
    }
    for (const SavedLoadRun& r : loadRuns) {
        out << "\n== saved inference load run  [" << r.location << "]\n" << compareLoadResults(r.steps);
        writeFindings(out, r.findings);
    }
    return text;
}

} // namespace rackscope
