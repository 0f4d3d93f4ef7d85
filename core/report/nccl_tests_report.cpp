#include "nccl_tests_report.h"

#include "runs/run_findings.h"

#include "finding_json.h"
#include "model/json_values.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace rackscope {
namespace {

QJsonObject passJson(const NcclTestsPass& p, bool errorColumn) {
    QJsonObject o{{"time_us", p.timeUs}, {"algbw", p.algbw}, {"busbw", p.busbw}, {"wrong", orNull(p.wrong)}};
    if (errorColumn)
        o.insert("max_error", orNull(p.maxError));
    return o;
}

QJsonObject rowJson(const NcclTestsRow& row, bool errorColumn) {
    return {{"size", row.size},
            {"count", row.count},
            {"type", row.type},
            {"redop", row.redop.isEmpty() ? QJsonValue() : QJsonValue(row.redop)},
            {"root", orNull(row.root)},
            {"oop", passJson(row.outOfPlace, errorColumn)},
            {"ip", passJson(row.inPlace, errorColumn)}};
}

QJsonObject withoutRows(const NcclTestsRun& r, const QString& source,
                        const std::map<QString, HostTopology>& topologies) {
    QJsonObject header;
    for (const auto& [k, v] : r.header) {
        bool ok = false;
        const qlonglong n = v.toLongLong(&ok);
        header.insert(QString(k).replace(QLatin1Char(' '), QLatin1Char('_')),
                      ok ? QJsonValue(n) : QJsonValue(v));
    }
    if (!r.ncclVersion.isEmpty())
        header.insert("nccl_version", r.ncclVersion);
    QJsonArray ranks, diagnostics;
    for (const NcclTestsRank& k : r.ranks)
        ranks.append(QJsonObject{{"rank", k.rank},
                                 {"host", k.host},
                                 {"device", k.device},
                                 {"pci", k.pci},
                                 {"gpu", k.gpu},
                                 {"pid", k.pid},
                                 {"group", orNull(k.group)}});
    for (const auto& d : r.diagnostics)
        diagnostics.append(QJsonObject{{"line", d.line}, {"text", d.text}, {"message", d.message}});
    const NcclTransport transport = readNcclTransport(r.ncclInfo);
    const bool anyWrongKnown = std::any_of(r.rows.begin(), r.rows.end(), [](const NcclTestsRow& x) {
        return x.outOfPlace.wrong || x.inPlace.wrong;
    });
    return {
        {"source", source},
        {"header", header},
        {"ranks", ranks},
        {"avg_busbw", orNull(r.avgBusbw)},
        {"out_of_bounds", orNull(r.outOfBounds)},
        {"wrong_total", anyWrongKnown ? QJsonValue(r.wrongTotal()) : QJsonValue()},
        {"error_column", r.errorColumn},
        {"nccl_info_lines", int(r.ncclInfo.size())},
        {"diagnostics", diagnostics},
        {"findings", findingsToJson(resultFindings(source, r))},
        {"transport", ncclTransportToJson(transport, ncclTransportFindings(transport, r.ranks, topologies))}};
}

} // namespace

QJsonObject ncclTransportToJson(const NcclTransport& t, const std::vector<Finding>& findings) {
    QJsonObject hosts;
    auto hostEntry = [&](const QString& h) { return hosts.value(h).toObject(); };
    for (const auto& [host, devices] : t.devices) {
        QJsonArray list;
        for (const NcclNetDevice& d : devices)
            list.append(QJsonObject{{"index", d.index}, {"name", d.name}, {"link", d.link}});
        QJsonObject o = hostEntry(host);
        o.insert("devices", list);
        hosts.insert(host, o);
    }
    for (const auto& [host, network] : t.network) {
        QJsonObject o = hostEntry(host);
        o.insert("network", network);
        hosts.insert(host, o);
    }
    for (const auto& [host, notes] : t.gdrNotes) {
        QJsonObject o = hostEntry(host);
        o.insert("gpudirect_notes", QJsonArray::fromStringList(notes));
        hosts.insert(host, o);
    }
    QJsonArray ranks;
    for (const NcclRankNetwork& r : t.ranks) {
        QStringList transports(r.transports.begin(), r.transports.end());
        transports.sort();
        QJsonObject channels;
        for (const auto& [transport, n] : r.channels)
            channels.insert(transport, n);
        ranks.append(QJsonObject{{"host", r.host},
                                 {"rank", r.rank},
                                 {"cuda_device", orNull(r.cudaDevice)},
                                 {"bus_id", r.busId.isEmpty() ? QJsonValue() : QJsonValue(r.busId)},
                                 {"channels", channels},
                                 {"nics", QJsonArray::fromStringList(r.nics)},
                                 {"transports", QJsonArray::fromStringList(transports)},
                                 {"net_connections", r.netConnections},
                                 {"gdr_connections", r.gdrConnections}});
    }
    QJsonArray mnnvl;
    for (const GpuFabricState& g : t.mnnvl)
        mnnvl.append(QJsonObject{{"host", g.host},
                                 {"bus_id", g.busId},
                                 {"cluster_uuid", g.clusterUuid},
                                 {"clique_id", g.cliqueId ? QJsonValue(qint64(*g.cliqueId)) : QJsonValue()},
                                 {"state", g.state},
                                 {"health_conditions", QJsonArray::fromStringList(g.healthConditions)}});
    return {{"hosts", hosts},
            {"ranks", ranks},
            {"mnnvl", mnnvl},
            {"channel_lines", t.channelLines},
            {"findings", findingsToJson(findings)}};
}

QJsonObject ncclTestsToJson(const NcclTestsRun& r, const QString& source,
                            const std::map<QString, HostTopology>& topologies) {
    QJsonArray rows;
    for (const NcclTestsRow& row : r.rows)
        rows.append(rowJson(row, r.errorColumn));
    QJsonObject doc = withoutRows(r, source, topologies);
    doc.insert("rows", rows);
    return doc;
}

QByteArray ncclTestsJsonText(const NcclTestsRun& r, const QString& source,
                             const std::map<QString, HostTopology>& topologies) {
    static const QByteArray kPlaceholder = "\"rackscope:rows\"";
    QJsonObject doc = withoutRows(r, source, topologies);
    doc.insert("rows", QString::fromLatin1(kPlaceholder.mid(1, kPlaceholder.size() - 2)));
    const QByteArray text = QJsonDocument(doc).toJson(QJsonDocument::Indented);
    const qsizetype at = text.indexOf(kPlaceholder);
    QByteArray out = text.left(at) + "[\n";
    out.reserve(text.size() + qsizetype(r.rows.size()) * 200);
    for (size_t i = 0; i < r.rows.size(); ++i) {
        out += "        " + QJsonDocument(rowJson(r.rows[i], r.errorColumn)).toJson(QJsonDocument::Compact);
        out += i + 1 < r.rows.size() ? ",\n" : "\n";
    }
    out += "    ]" + text.mid(at + kPlaceholder.size());
    return out;
}

} // namespace rackscope
