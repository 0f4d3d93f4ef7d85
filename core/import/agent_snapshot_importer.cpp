#include "agent_snapshot_importer.h"

#include "hwloc_importer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace rackscope {
namespace {

// "16.0 GT/s PCIe" -> 16.0; "Unknown" -> nothing.
std::optional<double> gts(const QJsonValue& v) {
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*GT/s"));
    const auto m = re.match(v.toString());
    return m.hasMatch() ? std::optional<double>(m.captured(1).toDouble()) : std::nullopt;
}
std::optional<int> width(const QJsonValue& v) {
    return v.isDouble() && v.toInt() > 0 ? std::optional<int>(v.toInt()) : std::nullopt;
}

Device* byPci(HostTopology& h, const QString& text) {
    const auto pci = PciAddress::parse(text);
    if (!pci)
        return nullptr;
    for (auto* list : {&h.gpus, &h.nics, &h.others})
        for (Device& d : *list)
            if (d.pci == pci)
                return &d;
    return nullptr;
}

bool acsRedirects(const QJsonObject& acs) {
    for (const QJsonValue& flag : acs.value("enabled").toArray())
        if (flag.toString() == QLatin1String("ReqRedir") || flag.toString() == QLatin1String("CmpltRedir"))
            return true;
    return false;
}

void enrichPcie(HostTopology& h, const QJsonObject& pcie) {
    std::map<QString, bool> redirecting;
    for (const QJsonValue& b : pcie.value("bridges").toArray())
        redirecting[b["pci"].toString()] = acsRedirects(b["acs"].toObject());
    for (const QJsonValue& v : pcie.value("devices").toArray()) {
        const QJsonObject o = v.toObject();
        Device* d = byPci(h, o.value("pci").toString());
        if (!d)
            continue;
        const QJsonObject link = o.value("link").toObject();
        d->linkCurrent.gts = gts(link.value("current_speed"));
        d->linkCurrent.width = width(link.value("current_width"));
        d->linkMax.gts = gts(link.value("max_speed"));
        d->linkMax.width = width(link.value("max_width"));
        for (const QJsonValue& b : o.value("upstream_bridges").toArray())
            if (redirecting[b.toString()])
                d->acsBridges << b.toString();
    }
}

void enrichRdma(HostTopology& h, const QJsonObject& rdma) {
    for (const QJsonValue& v : rdma.value("devices").toArray()) {
        const QJsonObject o = v.toObject();
        Device* d = byPci(h, o.value("pci").toString());
        const QString name = o.value("name").toString();
        if (!d || d->kind != DeviceKind::Nic || name.isEmpty())
            continue;
        if (!d->rdmaDevices.contains(name))
            d->rdmaDevices << name;
        d->rdma = true;
        d->rdmaEvidence = QStringLiteral("agent found RDMA device %1 in /sys/class/infiniband").arg(name);
        if (d->name.isEmpty() || d->netdevs.contains(d->name))
            d->name = name;
        // The line rate of its active ports, as the kernel states it: "400 Gb/sec (4X NDR)".
        double gbps = 0;
        for (const QJsonValue& p : o.value("ports").toArray()) {
            const QJsonObject port = p.toObject();
            if (port.value("state").toObject().value("name").toString() != QLatin1String("ACTIVE"))
                continue;
            bool ok = false;
            const double rate = port.value("rate").toString().section(QLatin1Char(' '), 0, 0).toDouble(&ok);
            if (ok && rate > 0)
                gbps += rate;
        }
        if (gbps > 0)
            d->speedMbps = gbps * 1000;
    }
}

void enrichGpus(HostTopology& h, const QJsonObject& gpus) {
    for (const QJsonValue& v : gpus.value("gpus").toArray()) {
        const QJsonObject o = v.toObject();
        if (Device* d = byPci(h, o.value("pci").toString()); d && !o.value("name").toString().isEmpty())
            d->name = o.value("name").toString();
    }
}

// What the agent says of the drivers. It looked at this server's /sys itself, so a NIC that the PCI ids
// call RDMA-capable but that has no RDMA device has none: its driver is not there.
void driverFacts(HostTopology& h, const QJsonObject& gpus, const QJsonObject& rdma) {
    // A section that is not there (a snapshot cut down to some sections) says nothing.
    if (gpus.value("available").toBool())
        h.nvmlGpuCount = int(gpus.value("gpus").toArray().size());
    else if (!gpus.isEmpty())
        h.nvmlMissing = gpus.value("reason").toString(QStringLiteral("the agent could not use NVML"));
    if (rdma.isEmpty())
        return;
    const bool rdmaRead = rdma.value("available").toBool();
    if (!rdmaRead)
        h.rdmaMissing = rdma.value("reason").toString(QStringLiteral("the agent found no RDMA device"));
    for (Device& nic : h.nics)
        if (nic.rdma == true && nic.rdmaDevices.isEmpty()) {
            nic.rdma = false;
            nic.rdmaEvidence =
                QStringLiteral("the agent found no RDMA device for it (%1)")
                    .arg(rdmaRead ? QStringLiteral("none in /sys/class/infiniband is on its PCI "
                                                   "function")
                                  : h.rdmaMissing);
        }
}

} // namespace

bool looksLikeAgentSnapshot(const QByteArray& content) {
    // Anywhere: the agent writes its "type" first, but a snapshot written again by Qt (a session, the window)
    // has its keys sorted, and "type" comes after the hwloc XML.
    return content.contains("\"rackscope-snapshot\"");
}

ImportResult importAgentSnapshot(const QByteArray& json, const QString& location) {
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return ImportResult::fail(
            QStringLiteral("malformed JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return ImportResult::fail(QStringLiteral("a snapshot is a JSON object"));
    return importAgentSnapshot(doc.object(), location);
}

ImportResult importAgentSnapshot(const QJsonObject& s, const QString& location) {
    if (s.value("type").toString() != QLatin1String("rackscope-snapshot"))
        return ImportResult::fail(
            QStringLiteral("not a rackscope-agent snapshot (no \"type\":\"rackscope-snapshot\")"));
    if (s.value("format").toInt() != 1)
        return ImportResult::fail(QStringLiteral("snapshot format %1; this rackscope reads format 1")
                                      .arg(s.value("format").toVariant().toString()));
    const QJsonObject topo = s.value("topology").toObject();
    if (!topo.value("available").toBool())
        return ImportResult::fail(
            QStringLiteral("the snapshot has no topology: %1").arg(topo.value("reason").toString()));
    ImportResult r = importHwlocXml(topo.value("hwloc_xml").toString().toUtf8(), location);
    if (!r.host)
        return ImportResult::fail(QStringLiteral("its hwloc XML: %1").arg(r.error));
    HostTopology& h = *r.host;
    h.source = {SourceFormat::AgentSnapshot, location};
    if (const QString host = s.value("host").toString(); !host.isEmpty())
        h.name = host;
    enrichPcie(h, s.value("pcie").toObject());
    enrichRdma(h, s.value("rdma").toObject());
    enrichGpus(h, s.value("gpus").toObject());
    driverFacts(h, s.value("gpus").toObject(), s.value("rdma").toObject());
    const QJsonObject gdr = s.value("gpudirect").toObject();
    if (gdr.value("available").toBool()) {
        h.peerMemoryLoaded = gdr["peer_memory"].toObject().value("usable").toBool();
        const QJsonValue dmabuf = gdr["dmabuf"].toObject().value("kernel_supports_rdma_dmabuf");
        if (dmabuf.isBool())
            h.kernelSupportsDmabuf = dmabuf.toBool();
    }
    return r;
}

} // namespace rackscope
