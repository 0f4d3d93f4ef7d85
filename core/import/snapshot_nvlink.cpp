#include "snapshot_nvlink.h"

#include "nvlink_text_readers.h"

#include <QJsonArray>

namespace rackscope {
namespace {

QString text(const QJsonValue& v) {
    return v.isString() ? v.toString() : QString();
}

void readGpus(const QJsonObject& gpus, const QString& host, const QString& source, NvlinkFabric* out) {
    for (const QJsonValue& value : gpus.value("gpus").toArray()) {
        const QJsonObject g = value.toObject();
        const QString gpu = QStringLiteral("GPU%1").arg(g.value("index").toInt());
        const QJsonObject fabric = g.value("fabric").toObject();
        if (fabric.value("available").toBool(true) && !fabric.isEmpty()) {
            GpuFabricState f;
            f.host = host;
            f.gpu = gpu;
            f.busId = gpuBusId(text(g.value("pci")));
            f.uuid = text(g.value("uuid"));
            f.model = text(g.value("name"));
            f.state = text(fabric.value("state"));
            f.status = text(fabric.value("status"));
            f.clusterUuid = text(fabric.value("cluster_uuid")).toLower();
            if (fabric.value("clique_id").isDouble())
                f.cliqueId = quint64(fabric.value("clique_id").toDouble());
            f.health = text(fabric.value("health_summary"));
            if (fabric.value("health_mask").isDouble()) {
                f.healthMask = quint32(fabric.value("health_mask").toDouble());
                f.healthConditions = fabricHealthConditions(*f.healthMask);
                f.healthDetails << QStringLiteral("health mask 0x%1").arg(*f.healthMask, 0, 16);
            }
            f.source = QStringLiteral("%1 (%2)").arg(source, text(fabric.value("source")));
            out->gpus.push_back(std::move(f));
        }
        for (const QJsonValue& l : g.value("nvlinks").toArray()) {
            const QJsonObject link = l.toObject();
            NvlinkLinkState s;
            s.host = host;
            s.gpu = gpu;
            s.gpuUuid = text(g.value("uuid"));
            s.link = link.value("link").toInt();
            s.state = link.value("active").toBool() ? QStringLiteral("active") : QStringLiteral("inactive");
            s.remote = text(link.value("remote_type"));
            if (link.value("speed_mbps").isDouble()) // NVML's MBps are nvidia-smi's GB/s times 1000
                s.gbPerSecond = link.value("speed_mbps").toDouble() / 1000;
            const QJsonObject errors = link.value("errors").toObject();
            for (auto it = errors.begin(); it != errors.end(); ++it)
                if (it.value().isDouble())
                    s.errors[it.key()] = quint64(it.value().toDouble());
            s.source = source;
            out->links.push_back(std::move(s));
        }
    }
}

void readImex(const QJsonObject& imex, const QString& host, const QString& source, NvlinkFabric* out) {
    if (imex.isEmpty() || !imex.value("installed").toBool())
        return; // no IMEX here: nothing to say of its peers
    const std::optional<bool> channel = imex.value("channel_device").isBool()
                                            ? std::optional(imex.value("channel_device").toBool())
                                            : std::nullopt;
    if (!imex.value("available").toBool()) {
        ImexView v;
        v.host = host;
        v.unavailable = text(imex.value("reason"));
        v.channelDevice = channel;
        v.source = source;
        out->imex.push_back(std::move(v));
        return;
    }
    std::vector<SourceLine> lines;
    const QStringList all = text(imex.value("text")).split(QLatin1Char('\n'));
    for (int i = 0; i < all.size(); ++i)
        lines.push_back({i + 1, all[i]});
    NvlinkTextRead read;
    readImexCtl(lines, host, source + QStringLiteral(" nvidia-imex-ctl -N"), &read);
    for (ImexView& v : read.fabric.imex) {
        v.channelDevice = channel;
        out->imex.push_back(std::move(v));
    }
}

} // namespace

NvlinkFabric nvlinkFromSnapshot(const QJsonObject& snapshot, const QString& name) {
    const QString host = name.isEmpty() ? text(snapshot.value("host")) : name;
    const QString source = QStringLiteral("agent on %1").arg(host);
    NvlinkFabric out;
    readGpus(snapshot.value("gpus").toObject(), host, source, &out);
    readImex(snapshot.value("imex").toObject(), host, source, &out);
    out.sources << source;
    return out;
}

} // namespace rackscope
