#include "snapshot_fabric.h"

#include <QJsonArray>
#include <map>

namespace rackscope {
namespace {

// sysfs writes node GUIDs as "e09d:7303:007a:4bd8"; ibnetdiscover as 0xe09d7303007a4bd8.
QString guidOf(const QString& sysfs) {
    QString hex = sysfs;
    hex.remove(QLatin1Char(':'));
    return hex.isEmpty() ? QString() : QStringLiteral("0x") + hex.toLower();
}

QString speedOf(const QJsonValue& mbps) {
    if (!mbps.isDouble() || mbps.toDouble() <= 0)
        return {};
    const double g = mbps.toDouble() / 1000.0;
    return QStringLiteral("%1G").arg(g, 0, 'g', 4);
}

// lldpd reports a MAC as port id on switches that name ports only in the description.
bool looksLikeMac(const QString& s) {
    return s.count(QLatin1Char(':')) == 5 && s.size() == 17;
}

} // namespace

Fabric fabricFromSnapshot(const QJsonObject& s, const QString& location) {
    Fabric f;
    f.source = location;
    const QString host = s.value("host").toString();
    std::map<QString, QString> rdmaOfNetdev;
    for (const QJsonValue& v : s.value("rdma").toObject().value("devices").toArray()) {
        const QJsonObject d = v.toObject();
        FabricNode n;
        n.kind = FabricNodeKind::ChannelAdapter;
        n.host = host;
        n.device = d.value("name").toString();
        n.id = host + QLatin1Char('/') + n.device;
        n.guid = guidOf(d.value("node_guid").toString());
        const QJsonArray ports = d.value("ports").toArray();
        n.ports = int(ports.size());
        for (const QJsonValue& p : ports) {
            const QString state = p.toObject().value("state").toObject().value("name").toString();
            if (!state.isEmpty() && state != QLatin1String("ACTIVE"))
                n.downPorts << QStringLiteral("%1 (%2)").arg(p.toObject().value("port").toString(), state);
        }
        for (const QJsonValue& nd : d.value("netdevs").toArray())
            rdmaOfNetdev[nd.toString()] = n.id;
        f.nodes.push_back(n);
    }
    std::map<QString, QJsonObject> netdev;
    for (const QJsonValue& v : s.value("net").toObject().value("interfaces").toArray())
        netdev[v.toObject().value("name").toString()] = v.toObject();
    std::map<QString, bool> haveSwitch;
    for (const QJsonValue& v : s.value("lldp").toObject().value("neighbors").toArray()) {
        const QJsonObject nb = v.toObject();
        const QString itf = nb.value("interface").toString();
        const QString sw = nb.value("system_name").toString().isEmpty() ? nb.value("chassis_id").toString()
                                                                        : nb.value("system_name").toString();
        if (itf.isEmpty() || sw.isEmpty())
            continue;
        if (!haveSwitch[sw]) {
            haveSwitch[sw] = true;
            FabricNode n;
            n.kind = FabricNodeKind::Switch;
            n.id = sw;
            f.nodes.push_back(n);
        }
        QString end = rdmaOfNetdev.count(itf) ? rdmaOfNetdev[itf] : QString();
        if (end.isEmpty()) { // an Ethernet port without RDMA: still a server's NIC
            FabricNode n;
            n.kind = FabricNodeKind::ChannelAdapter;
            n.host = host;
            n.device = itf;
            n.id = end = host + QLatin1Char('/') + itf;
            n.ports = 1;
            f.nodes.push_back(n);
        }
        QString port = nb.value("port_id").toString();
        if ((port.isEmpty() || looksLikeMac(port)) && !nb.value("port_descr").toString().isEmpty())
            port = nb.value("port_descr").toString();
        const QJsonObject nd = netdev[itf];
        FabricLink l = linkBetween(end, itf, sw, port);
        l.speed = speedOf(nd.value("speed_mbps"));
        l.state = nd.value("operstate").toString();
        if (nd.value("mtu").isDouble())
            l.aMtu = nd.value("mtu").toInt();
        if (const QJsonValue mfs = nb.value("mfs"); mfs.isDouble() && mfs.toInt() > kEthernetFrameOverhead)
            l.bMtu = mfs.toInt() - kEthernetFrameOverhead;
        f.links.push_back(l);
    }
    return f;
}

} // namespace rackscope
