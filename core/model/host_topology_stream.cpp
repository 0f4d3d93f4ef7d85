#include "host_topology_stream.h"

namespace rackscope {
namespace {

template <class T> void put(QDataStream& s, const std::optional<T>& v) {
    s << v.has_value();
    if (v)
        s << *v;
}
template <class T> void get(QDataStream& s, std::optional<T>& v) {
    bool has = false;
    s >> has;
    v.reset();
    if (has) {
        T x{};
        s >> x;
        v = x;
    }
}

void put(QDataStream& s, const std::optional<PciAddress>& a) {
    s << a.has_value();
    if (a)
        s << a->domain << a->bus << a->device << a->function;
}
void get(QDataStream& s, std::optional<PciAddress>& a) {
    bool has = false;
    s >> has;
    a.reset();
    if (has) {
        PciAddress p;
        s >> p.domain >> p.bus >> p.device >> p.function;
        a = p;
    }
}

void put(QDataStream& s, const PcieLink& l) {
    put(s, l.gts), put(s, l.width), put(s, l.gbps);
}
void get(QDataStream& s, PcieLink& l) {
    get(s, l.gts), get(s, l.width), get(s, l.gbps);
}

void put(QDataStream& s, const Device& d) {
    s << int(d.kind) << d.id << d.name << d.cpuAffinity << d.node << d.rdmaEvidence << d.rdmaDevices
      << d.netdevs;
    put(s, d.pci), put(s, d.vendorId), put(s, d.deviceId), put(s, d.pciClass), put(s, d.numa),
        put(s, d.socket);
    put(s, d.cudaDevice), put(s, d.rdma), put(s, d.speedMbps), put(s, d.ncclGdr);
    put(s, d.linkCurrent), put(s, d.linkMax);
    s << d.acsBridges;
    put(s, d.c2cLinks), put(s, d.c2cGBps);
}
void get(QDataStream& s, Device& d) {
    int kind = 0;
    s >> kind >> d.id >> d.name >> d.cpuAffinity >> d.node >> d.rdmaEvidence >> d.rdmaDevices >> d.netdevs;
    d.kind = DeviceKind(kind);
    get(s, d.pci), get(s, d.vendorId), get(s, d.deviceId), get(s, d.pciClass), get(s, d.numa),
        get(s, d.socket);
    get(s, d.cudaDevice), get(s, d.rdma), get(s, d.speedMbps), get(s, d.ncclGdr);
    get(s, d.linkCurrent), get(s, d.linkMax);
    s >> d.acsBridges;
    get(s, d.c2cLinks), get(s, d.c2cGBps);
}

void putDevices(QDataStream& s, const std::vector<Device>& list) {
    s << quint32(list.size());
    for (const Device& d : list)
        put(s, d);
}
void getDevices(QDataStream& s, std::vector<Device>& list) {
    quint32 n = 0;
    s >> n;
    list.clear();
    for (quint32 i = 0; i < n && s.status() == QDataStream::Ok; ++i)
        get(s, list.emplace_back());
}

} // namespace

QDataStream& operator<<(QDataStream& s, const HostTopology& h) {
    s << h.name << int(h.source.format) << h.source.location << h.hostHash << h.arch << h.notes;
    put(s, h.peerMemoryLoaded), put(s, h.kernelSupportsDmabuf);
    s << h.nvlinkStated << quint32(h.nvlinkUnstated.size());
    for (const auto& [a, b] : h.nvlinkUnstated)
        s << a << b;
    put(s, h.nvmlGpuCount);
    s << h.nvmlMissing << h.rdmaMissing;
    s << quint32(h.nodes.size());
    for (const TopoNode& n : h.nodes) {
        s << int(n.kind) << n.parent;
        put(s, n.osIndex), put(s, n.pci), put(s, n.numa);
    }
    putDevices(s, h.gpus), putDevices(s, h.nics), putDevices(s, h.others);
    s << quint32(h.nvlinks.size());
    for (const auto& [k, v] : h.nvlinks)
        s << k.first << k.second << v;
    s << quint32(h.statedPaths.size());
    for (const auto& [k, v] : h.statedPaths) {
        s << k.first << k.second << int(v.first);
        put(s, v.second);
    }
    return s;
}

QDataStream& operator>>(QDataStream& s, HostTopology& h) {
    h = HostTopology{};
    int format = 0;
    quint32 n = 0;
    s >> h.name >> format >> h.source.location >> h.hostHash >> h.arch >> h.notes;
    get(s, h.peerMemoryLoaded), get(s, h.kernelSupportsDmabuf);
    quint32 unstated = 0;
    s >> h.nvlinkStated >> unstated;
    for (quint32 i = 0; i < unstated && s.status() == QDataStream::Ok; ++i) {
        int a = 0, b = 0;
        s >> a >> b;
        h.nvlinkUnstated.emplace(a, b);
    }
    get(s, h.nvmlGpuCount);
    s >> h.nvmlMissing >> h.rdmaMissing;
    h.source.format = SourceFormat(format);
    s >> n;
    for (quint32 i = 0; i < n && s.status() == QDataStream::Ok; ++i) {
        TopoNode& t = h.nodes.emplace_back();
        int kind = 0;
        s >> kind >> t.parent;
        t.kind = NodeKind(kind);
        get(s, t.osIndex), get(s, t.pci), get(s, t.numa);
    }
    getDevices(s, h.gpus), getDevices(s, h.nics), getDevices(s, h.others);
    s >> n;
    for (quint32 i = 0; i < n && s.status() == QDataStream::Ok; ++i) {
        int a = 0, b = 0, links = 0;
        s >> a >> b >> links;
        h.nvlinks[{a, b}] = links;
    }
    s >> n;
    for (quint32 i = 0; i < n && s.status() == QDataStream::Ok; ++i) {
        QString a, b;
        int type = 0;
        std::optional<int> links;
        s >> a >> b >> type;
        get(s, links);
        h.statedPaths[{a, b}] = {PathType(type), links};
    }
    return s;
}

} // namespace rackscope
