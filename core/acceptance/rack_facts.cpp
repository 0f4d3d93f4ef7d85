#include "rack_facts.h"

#include "workspace/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace rackscope {

namespace {

// A section's reason for saying nothing, or empty when it has its facts.
QString silence(const QJsonObject& section, const QString& name) {
    if (section.isEmpty())
        return QStringLiteral("the snapshot has no %1 section").arg(name);
    if (section.value("available").toBool(true))
        return {};
    return section.value("reason").toString(QStringLiteral("%1 not available").arg(name));
}

// A versions entry: its string, or nothing where the agent said why not ({"available": false}).
QString versionText(const QJsonValue& v) {
    if (v.isString())
        return v.toString();
    const QJsonObject o = v.toObject();
    if (o.contains(QLatin1String("mlx5_core")))
        return o.value("mlx5_core").toString();
    return {};
}

void add(HostFacts& f, const QString& key, QStringList values) {
    values.removeAll(QString());
    if (values.isEmpty())
        return;
    f.facts.push_back({factKind(key).check, key, std::move(values)});
}

void fromGpus(HostFacts& f, const QJsonObject& gpus) {
    if (const QString why = silence(gpus, QStringLiteral("gpus")); !why.isEmpty()) {
        for (const char* check : {"gpu-inventory", "nvlink"})
            f.silent[QLatin1String(check)] = QStringLiteral("NVML: ") + why;
        return;
    }
    const QJsonArray list = gpus.value("gpus").toArray();
    add(f, QStringLiteral("gpu.count"), {QString::number(list.size())});
    QStringList names, widths, links;
    for (const QJsonValue& v : list) {
        const QJsonObject g = v.toObject();
        names << g.value("name").toString();
        const QJsonValue width = g.value("pcie").toObject().value("current_width");
        widths << (width.isDouble() ? QStringLiteral("x%1").arg(width.toInt()) : QString());
        const QJsonArray nvlinks = g.value("nvlinks").toArray();
        if (!nvlinks.isEmpty()) {
            const auto active = std::count_if(nvlinks.begin(), nvlinks.end(), [](const QJsonValue& l) {
                return l.toObject().value("active").toBool();
            });
            links << QStringLiteral("%1 of %2 active").arg(active).arg(nvlinks.size());
        }
    }
    add(f, QStringLiteral("gpu.model"), names);
    add(f, QStringLiteral("gpu.pcie_width"), widths);
    add(f, QStringLiteral("nvlink.active"), links);
    add(f, QStringLiteral("version.nvidia_driver"), {gpus.value("driver_version").toString()});
    add(f, QStringLiteral("version.cuda_driver"), {gpus.value("cuda_driver_version").toString()});
}

void fromRdma(HostFacts& f, const QJsonObject& rdma) {
    if (const QString why = silence(rdma, QStringLiteral("rdma")); !why.isEmpty()) {
        if (why.startsWith(QLatin1String("not collected"))) {
            f.silent[QStringLiteral("nic-inventory")] = why;
            f.silent[QStringLiteral("rdma-ports")] = why;
        } else { // the agent looked and found no RDMA device: that is a count
            add(f, QStringLiteral("nic.count"), {QStringLiteral("0")});
            f.silent[QStringLiteral("rdma-ports")] = why;
        }
        return;
    }
    const QJsonArray devices = rdma.value("devices").toArray();
    add(f, QStringLiteral("nic.count"), {QString::number(devices.size())});
    QStringList models, firmware, states, rates, layers, mtus;
    for (const QJsonValue& v : devices) {
        const QJsonObject d = v.toObject();
        models << d.value("hca_type").toString(d.value("name").toString());
        firmware << d.value("fw_ver").toString();
        for (const QJsonValue& pv : d.value("ports").toArray()) {
            const QJsonObject p = pv.toObject();
            states << p.value("state").toObject().value("name").toString();
            rates << p.value("rate").toString();
            layers << p.value("link_layer").toString();
            const QJsonValue mtu = p.value("active_mtu");
            mtus << (mtu.isDouble() ? QString::number(mtu.toInt()) : mtu.toString());
        }
    }
    add(f, QStringLiteral("nic.model"), models);
    add(f, QStringLiteral("nic.firmware"), firmware);
    add(f, QStringLiteral("port.state"), states);
    add(f, QStringLiteral("port.rate"), rates);
    add(f, QStringLiteral("port.link_layer"), layers);
    add(f, QStringLiteral("port.active_mtu"), mtus);
}

void fromNet(HostFacts& f, const QJsonObject& net) {
    if (const QString why = silence(net, QStringLiteral("net")); !why.isEmpty()) {
        f.silent[QStringLiteral("mtu")] = why;
        return;
    }
    for (const QJsonValue& v : net.value("interfaces").toArray()) {
        const QJsonObject i = v.toObject();
        constexpr int kLoopback = 772; // ARPHRD_LOOPBACK
        if (i.value("type").toInt() == kLoopback || i.value("operstate").toString() != QLatin1String("up"))
            continue;
        if (i.value("mtu").isDouble())
            add(f, QStringLiteral("mtu.") + i.value("name").toString(),
                {QString::number(i.value("mtu").toInt())});
    }
}

void fromRoceQos(HostFacts& f, const QJsonObject& qos) {
    if (const QString why = silence(qos, QStringLiteral("roce_qos")); !why.isEmpty()) {
        f.silent[QStringLiteral("roce-qos")] = why;
        return;
    }
    const auto exposed = [](const QJsonValue& v) {
        return v.isString() && v.toString() != QLatin1String("not exposed") ? v.toString().trimmed()
                                                                            : QString();
    };
    for (const QJsonValue& v : qos.value("interfaces").toArray()) {
        const QJsonObject i = v.toObject();
        const QString prefix = QStringLiteral("qos.") + i.value("interface").toString();
        add(f, prefix + QStringLiteral(".trust"), {exposed(i.value("trust"))});
        add(f, prefix + QStringLiteral(".pfc"), {exposed(i.value("pfc"))});
        const QJsonValue ecn = i.value("ecn_roce_np");
        if (ecn.isObject()) {
            QStringList on;
            const QJsonObject prios = ecn.toObject();
            for (auto it = prios.begin(); it != prios.end(); ++it)
                if (it.value().toBool())
                    on << it.key();
            std::sort(on.begin(), on.end());
            add(f, prefix + QStringLiteral(".ecn"), {on.isEmpty() ? QStringLiteral("none") : on.join(u',')});
        }
    }
}

void fromVersions(HostFacts& f, const QJsonObject& versions) {
    if (versions.isEmpty()) {
        f.silent[QStringLiteral("versions")] = QStringLiteral("the snapshot has no versions section");
        return;
    }
    add(f, QStringLiteral("version.kernel"), {versionText(versions.value("kernel"))});
    add(f, QStringLiteral("version.os"), {versionText(versions.value("os"))});
    if (!f.find(QStringLiteral("version.nvidia_driver"))) {
        // /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  ..."
        const QString proc = versionText(versions.value("nvidia_driver"));
        const QStringList words = proc.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const qsizetype module = words.indexOf(QStringLiteral("Module"));
        add(f, QStringLiteral("version.nvidia_driver"), {module >= 0 ? words.value(module + 1) : proc});
    }
    if (!f.find(QStringLiteral("version.cuda_driver")))
        add(f, QStringLiteral("version.cuda_driver"), {versionText(versions.value("cuda_driver"))});
    add(f, QStringLiteral("version.nccl"), {versionText(versions.value("nccl"))});
    add(f, QStringLiteral("version.rdma_core"), {versionText(versions.value("rdma_core"))});
    add(f, QStringLiteral("version.ofed"), {versionText(versions.value("ofed"))});
}

// What each interface's LLDP neighbour calls itself and the port: "leaf-rail0-a Ethernet1/7". Not shared
// across a rack (each server has its own ports), so only an expectation judges it.
void fromLldp(HostFacts& f, const QJsonObject& lldp) {
    if (const QString why = silence(lldp, QStringLiteral("lldp")); !why.isEmpty()) {
        f.silent[QStringLiteral("cabling")] = QStringLiteral("LLDP: ") + why;
        return;
    }
    for (const QJsonValue& v : lldp.value("neighbors").toArray()) {
        const QJsonObject nb = v.toObject();
        const QString sw = nb.value("system_name").toString().isEmpty() ? nb.value("chassis_id").toString()
                                                                        : nb.value("system_name").toString();
        const QString port = nb.value("port_descr").toString().isEmpty() ? nb.value("port_id").toString()
                                                                         : nb.value("port_descr").toString();
        add(f, QStringLiteral("lldp.") + nb.value("interface").toString(),
            {QStringLiteral("%1 %2").arg(sw, port).trimmed()});
    }
}

// A topology file states devices, not drivers: the counts and models are its facts.
void fromTopology(HostFacts& f, const HostTopology& t) {
    add(f, QStringLiteral("gpu.count"), {QString::number(t.gpus.size())});
    QStringList names;
    for (const Device& g : t.gpus)
        names << g.name;
    add(f, QStringLiteral("gpu.model"), names);
    const QString why = QStringLiteral("a %1 file does not say").arg(sourceFormatId(t.source.format));
    for (const char* check :
         {"nic-inventory", "rdma-ports", "mtu", "roce-qos", "versions", "nvlink", "cabling"})
        f.silent[QLatin1String(check)] = why;
}

} // namespace

QString Fact::text() const {
    QStringList distinct = values;
    distinct.removeDuplicates();
    std::sort(distinct.begin(), distinct.end());
    return distinct.join(QStringLiteral(", "));
}

const Fact* HostFacts::find(const QString& key) const {
    for (const Fact& f : facts)
        if (f.key == key)
            return &f;
    return nullptr;
}

HostFacts factsOf(const InspectedHost& host, const QJsonObject& snapshot) {
    HostFacts f;
    f.host = host.host.name;
    f.fromAgent = !snapshot.isEmpty();
    if (!f.fromAgent) {
        f.source =
            QStringLiteral("%1 %2").arg(sourceFormatId(host.host.source.format), host.host.source.location);
        fromTopology(f, host.host);
        return f;
    }
    f.source = QStringLiteral("agent snapshot (%1)").arg(host.host.source.location);
    fromGpus(f, snapshot.value("gpus").toObject());
    fromRdma(f, snapshot.value("rdma").toObject());
    fromNet(f, snapshot.value("net").toObject());
    fromRoceQos(f, snapshot.value("roce_qos").toObject());
    fromVersions(f, snapshot.value("versions").toObject());
    fromLldp(f, snapshot.value("lldp").toObject());
    return f;
}

FactKind factKind(const QString& key) {
    static const std::map<QString, FactKind> fixed = {
        {QStringLiteral("gpu.count"), {QStringLiteral("gpu-inventory"), QStringLiteral("have %1 GPUs")}},
        {QStringLiteral("gpu.model"), {QStringLiteral("gpu-inventory"), QStringLiteral("have GPUs %1")}},
        {QStringLiteral("gpu.pcie_width"),
         {QStringLiteral("pcie-links"), QStringLiteral("have GPU links %1")}},
        {QStringLiteral("nvlink.active"), {QStringLiteral("nvlink"), QStringLiteral("have NVLinks %1")}},
        {QStringLiteral("nic.count"), {QStringLiteral("nic-inventory"), QStringLiteral("have %1 RDMA NICs")}},
        {QStringLiteral("nic.model"), {QStringLiteral("nic-inventory"), QStringLiteral("have RDMA NICs %1")}},
        {QStringLiteral("nic.firmware"), {QStringLiteral("versions"), QStringLiteral("run NIC firmware %1")}},
        {QStringLiteral("port.state"), {QStringLiteral("rdma-ports"), QStringLiteral("have RDMA ports %1")}},
        {QStringLiteral("port.rate"),
         {QStringLiteral("rdma-ports"), QStringLiteral("have RDMA ports at %1")}},
        {QStringLiteral("port.link_layer"),
         {QStringLiteral("rdma-ports"), QStringLiteral("have RDMA ports on %1")}},
        {QStringLiteral("port.active_mtu"),
         {QStringLiteral("rdma-ports"), QStringLiteral("have RDMA ports at active MTU %1")}},
        {QStringLiteral("version.kernel"), {QStringLiteral("versions"), QStringLiteral("run kernel %1")}},
        {QStringLiteral("version.os"), {QStringLiteral("versions"), QStringLiteral("run %1")}},
        {QStringLiteral("version.nvidia_driver"),
         {QStringLiteral("versions"), QStringLiteral("run NVIDIA driver %1")}},
        {QStringLiteral("version.cuda_driver"),
         {QStringLiteral("versions"), QStringLiteral("run CUDA driver %1")}},
        {QStringLiteral("version.nccl"), {QStringLiteral("versions"), QStringLiteral("have NCCL %1")}},
        {QStringLiteral("version.rdma_core"),
         {QStringLiteral("versions"), QStringLiteral("have rdma-core %1")}},
        {QStringLiteral("version.ofed"), {QStringLiteral("versions"), QStringLiteral("run MLNX_OFED %1")}},
    };
    if (auto it = fixed.find(key); it != fixed.end())
        return it->second;
    // Interface names may hold dots (a VLAN's "eth0.100"): the interface is all between the first and last.
    if (key.startsWith(QLatin1String("lldp.")))
        return {QStringLiteral("cabling"), QStringLiteral("see %1 over LLDP on ") + key.mid(5)};
    if (key.startsWith(QLatin1String("mtu.")))
        return {QStringLiteral("mtu"), QStringLiteral("have MTU %1 on ") + key.mid(4)};
    if (key.startsWith(QLatin1String("qos.")) && key.count(QLatin1Char('.')) >= 2) {
        const qsizetype last = key.lastIndexOf(QLatin1Char('.'));
        const QString itf = key.mid(4, last - 4), what = key.mid(last + 1);
        if (what == QLatin1String("trust"))
            return {QStringLiteral("roce-qos"), QStringLiteral("trust %1 on ") + itf};
        if (what == QLatin1String("pfc"))
            return {QStringLiteral("roce-qos"), QStringLiteral("have PFC %1 on ") + itf};
        if (what == QLatin1String("ecn"))
            return {QStringLiteral("roce-qos"), QStringLiteral("have ECN on priorities %1 on ") + itf};
    }
    return {};
}

} // namespace rackscope
