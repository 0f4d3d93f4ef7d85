#include "hwloc_importer.h"

#include "device_facts.h"
#include "hwloc_reader.h"
#include "hwloc_xml_v3.h"
#include "input_file.h"

#include <QRegularExpression>
#include <QXmlStreamReader>
#include <hwloc.h>
#include <memory>

namespace rackscope {
namespace {

using TopologyPtr = std::unique_ptr<hwloc_topology, decltype(&hwloc_topology_destroy)>;

QString infoOf(hwloc_obj_t obj, const char* name) {
    const char* v = hwloc_obj_get_info_by_name(obj, name);
    return v ? QString::fromUtf8(v) : QString();
}

PciAddress pciOf(hwloc_obj_t obj) {
    const auto& p = obj->attr->pcidev;
    return {p.domain, p.bus, p.dev, p.func};
}

QString bitmapList(hwloc_const_bitmap_t set) {
    char* text = nullptr;
    if (hwloc_bitmap_list_asprintf(&text, set) < 0 || !text)
        return {};
    QString out = QString::fromUtf8(text);
    free(text);
    return out;
}

class Converter {
public:
    Converter(hwloc_topology_t topo, Source source) : topo_(topo) { host_.source = std::move(source); }

    HostTopology run() {
        hwloc_obj_t root = hwloc_get_root_obj(topo_);
        host_.name = infoOf(root, "HostName");
        host_.arch = infoOf(root, "Architecture");
        walk(root, -1);
        numberDevices(host_);
        readNvlinkBandwidth();
        return std::move(host_);
    }

private:
    int addNode(NodeKind kind, int parent, hwloc_obj_t obj) {
        TopoNode n{kind, parent, {}, {}, {}};
        if (kind == NodeKind::Package)
            n.osIndex = obj->os_index;
        if (obj->type == HWLOC_OBJ_PCI_DEVICE || obj->type == HWLOC_OBJ_BRIDGE) {
            if (obj->type == HWLOC_OBJ_PCI_DEVICE || obj->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI)
                n.pci = pciOf(obj);
        }
        host_.nodes.push_back(n);
        return int(host_.nodes.size()) - 1;
    }

    // CPU side: keep the levels I/O can hang from; skip cores, caches, PUs.
    void walk(hwloc_obj_t obj, int parent) {
        int here = parent;
        switch (obj->type) {
        case HWLOC_OBJ_MACHINE:
            here = addNode(NodeKind::Machine, parent, obj);
            break;
        case HWLOC_OBJ_PACKAGE:
            here = addNode(NodeKind::Package, parent, obj);
            break;
        case HWLOC_OBJ_GROUP:
        case HWLOC_OBJ_DIE:
            here = addNode(NodeKind::Group, parent, obj);
            break;
        default:
            break;
        }
        for (hwloc_obj_t io = obj->io_first_child; io; io = io->next_sibling)
            walkIo(io, here, PortRole::None);
        for (hwloc_obj_t child = obj->first_child; child; child = child->next_sibling)
            walk(child, here);
    }

    // PCIe side, top-down. A host bridge's bridge children are root ports; a
    // bridge under a root port or a switch's downstream port is a switch's
    // upstream port (a new switch); a bridge under an upstream port is one
    // of that switch's downstream ports (the same switch).
    enum class PortRole { None, Host, RootPort, Upstream, Downstream };

    void walkIo(hwloc_obj_t obj, int parent, PortRole parentRole) {
        if (obj->type == HWLOC_OBJ_BRIDGE) {
            PortRole role;
            int node = parent;
            if (obj->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
                role = PortRole::Host;
                node = addNode(NodeKind::HostBridge, parent, obj);
            } else if (parentRole == PortRole::Host || parentRole == PortRole::None) {
                role = PortRole::RootPort;
                node = addNode(NodeKind::RootPort, parent, obj);
            } else if (parentRole == PortRole::Upstream) {
                role = PortRole::Downstream; // folded into the switch node
            } else {
                role = PortRole::Upstream;
                node = addNode(NodeKind::PciSwitch, parent, obj);
            }
            for (hwloc_obj_t c = obj->io_first_child; c; c = c->next_sibling)
                walkIo(c, node, role);
            return;
        }
        if (obj->type == HWLOC_OBJ_PCI_DEVICE)
            addPciDevice(obj, addNode(NodeKind::PciDevice, parent, obj));
    }

    void addPciDevice(hwloc_obj_t obj, int node) {
        const auto& p = obj->attr->pcidev;
        Device d;
        d.pci = pciOf(obj);
        d.vendorId = p.vendor_id;
        d.deviceId = p.device_id;
        d.pciClass = unsigned(p.class_id) << 8; // hwloc keeps class and subclass; NCCL's form adds prog-if
        d.kind = obj->subtype && QLatin1String(obj->subtype) == QLatin1String("NVSwitch")
                     ? DeviceKind::NvSwitch
                     : deviceKindFromClass(*d.pciClass, d.vendorId);
        d.node = node;
        if (p.linkspeed > 0)
            d.linkCurrent.gbps = double(p.linkspeed);
        setLocality(d, obj);

        bool anyOsdev = false;
        for (hwloc_obj_t os = obj->io_first_child; os; os = os->next_sibling) {
            if (os->type != HWLOC_OBJ_OS_DEVICE || !os->name)
                continue;
            anyOsdev = true;
            const QString name = QString::fromUtf8(os->name);
            if (os->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS)
                d.rdmaDevices << name;
            if (os->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK)
                d.netdevs << name;
            if (d.name.isEmpty())
                d.name = infoOf(os, "GPUModel");
        }
        if (d.name.isEmpty())
            d.name = infoOf(obj, "PCIDevice");
        // A function with a netdev or an RDMA device is a NIC whatever its class says.
        if (d.kind == DeviceKind::Other && (!d.rdmaDevices.isEmpty() || !d.netdevs.isEmpty()))
            d.kind = DeviceKind::Nic;
        if (d.kind == DeviceKind::Nic) {
            if (!d.rdmaDevices.isEmpty()) {
                d.rdma = true;
                d.name = d.rdmaDevices.first();
                d.rdmaEvidence =
                    QStringLiteral("hwloc found RDMA device %1").arg(d.rdmaDevices.join(QLatin1Char(',')));
            } else if (anyOsdev) {
                d.rdma = false;
                d.name = d.netdevs.value(0, d.name);
                d.rdmaEvidence = QStringLiteral("hwloc found %1 but no RDMA (OpenFabrics) device")
                                     .arg(d.netdevs.join(QLatin1Char(',')));
            } else {
                const auto fact = rdmaFromPciIds(d.vendorId, d.deviceId, d.pciClass);
                d.rdma = fact.rdma;
                d.rdmaEvidence = fact.evidence;
            }
        }
        osdevToPci_[obj] = obj;
        for (hwloc_obj_t os = obj->io_first_child; os; os = os->next_sibling)
            osdevToPci_[os] = obj;
        pciObj_[obj] = *d.pci;
        (d.kind == DeviceKind::Gpu   ? host_.gpus
         : d.kind == DeviceKind::Nic ? host_.nics
                                     : host_.others)
            .push_back(d);
    }

    // NUMA node and package from the CPU-side object the device hangs from.
    void setLocality(Device& d, hwloc_obj_t obj) const {
        hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topo_, obj);
        if (!local)
            return;
        if (local->nodeset && hwloc_bitmap_weight(local->nodeset) == 1)
            d.numa = hwloc_bitmap_first(local->nodeset);
        if (local->cpuset) {
            d.cpuAffinity = bitmapList(local->cpuset);
            hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo_, HWLOC_OBJ_PACKAGE, local);
            if (!pkg && local->type == HWLOC_OBJ_PACKAGE)
                pkg = local;
            if (!pkg) { // attached above the packages: one package still holds all its CPUs?
                hwloc_obj_t only = nullptr;
                int count = 0;
                for (hwloc_obj_t p = nullptr; (p = hwloc_get_next_obj_by_type(topo_, HWLOC_OBJ_PACKAGE, p));)
                    if (hwloc_bitmap_intersects(p->cpuset, local->cpuset)) {
                        only = p;
                        ++count;
                    }
                if (count == 1)
                    pkg = only;
            }
            if (pkg)
                d.socket = int(pkg->os_index);
        }
    }

    // hwloc's "NVLinkBandwidth" matrix holds MB/s, 20000 per NVLink 1.0 link
    // and 25000 per link of later versions (hwloc's NVML backend). A P100 has
    // at most 4 links, so a multiple of 25000 is read as NVLink >= 2.
    static std::optional<int> linksFromBandwidth(hwloc_uint64_t mbps) {
        if (mbps > 0 && mbps % 25000 == 0)
            return int(mbps / 25000);
        if (mbps > 0 && mbps % 20000 == 0 && mbps <= 80000)
            return int(mbps / 20000);
        return std::nullopt;
    }

    void readNvlinkBandwidth() {
        unsigned nr = 1;
        hwloc_distances_s* dist = nullptr;
        if (hwloc_distances_get_by_name(topo_, "NVLinkBandwidth", &nr, &dist, 0) != 0 || nr == 0 || !dist)
            return;
        host_.nvlinkStated = true;
        const unsigned n = dist->nbobjs;
        std::map<PciAddress, int> gpuByBus;
        for (int i = 0; i < int(host_.gpus.size()); ++i)
            gpuByBus[*host_.gpus[i].pci] = i;
        auto gpuIndex = [&](hwloc_obj_t o) -> int {
            const auto it = osdevToPci_.find(o);
            if (it == osdevToPci_.end())
                return -1;
            const auto g = gpuByBus.find(pciObj_.at(it->second));
            return g == gpuByBus.end() ? -1 : g->second;
        };
        auto isSwitch = [](hwloc_obj_t o) {
            return o->type == HWLOC_OBJ_PCI_DEVICE && o->subtype &&
                   QLatin1String(o->subtype) == QLatin1String("NVSwitch");
        };
        std::map<int, std::map<PciAddress, int>> viaSwitch; // gpu -> switch -> links
        std::vector<std::pair<PciAddress, PciAddress>> switchLinks;
        for (unsigned i = 0; i < n; ++i) {
            if (isSwitch(dist->objs[i])) { // switches joined to switches: one NVLink fabric
                for (unsigned j = i + 1; j < n; ++j)
                    if (isSwitch(dist->objs[j]) && dist->values[i * n + j] > 0)
                        switchLinks.emplace_back(pciOf(dist->objs[i]), pciOf(dist->objs[j]));
                continue;
            }
            const int gi = gpuIndex(dist->objs[i]);
            if (gi < 0)
                continue;
            for (unsigned j = 0; j < n; ++j) {
                if (i == j)
                    continue;
                const auto links = linksFromBandwidth(dist->values[i * n + j]);
                if (!links) {
                    if (dist->values[i * n + j] > 0)
                        host_.notes << QStringLiteral(
                                           "NVLink bandwidth %1 MB/s from %2 is not a whole number of links")
                                           .arg(dist->values[i * n + j])
                                           .arg(host_.gpus[gi].id);
                    continue;
                }
                const int gj = gpuIndex(dist->objs[j]);
                if (gj > gi)
                    host_.nvlinks[{gi, gj}] = *links;
                else if (isSwitch(dist->objs[j]))
                    viaSwitch[gi][pciOf(dist->objs[j])] = *links;
            }
        }
        addNvlinksThroughSwitches(host_, viaSwitch, switchLinks);
        hwloc_distances_release(topo_, dist);
    }

    hwloc_topology_t topo_;
    HostTopology host_;
    std::map<hwloc_obj_t, hwloc_obj_t> osdevToPci_;
    std::map<hwloc_obj_t, PciAddress> pciObj_;
};

TopologyPtr newTopology() {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0)
        return {nullptr, &hwloc_topology_destroy};
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_OS_DEVICE, HWLOC_TYPE_FILTER_KEEP_ALL);
    return {t, &hwloc_topology_destroy};
}

// The topology element's version attribute, read before hwloc sees the file
// so a newer format gets a message that says so.
QString xmlFormatVersion(const QByteArray& xml, QString* error) {
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        if (r.readNext() == QXmlStreamReader::StartElement) {
            if (r.name() != QLatin1String("topology")) {
                *error = QStringLiteral("root element is <%1>, not hwloc's <topology>")
                             .arg(r.name().toString().left(40));
                return {};
            }
            const QString v = r.attributes().value(QLatin1String("version")).toString();
            return v.isEmpty() ? QStringLiteral("1.0") : v;
        }
    }
    *error = r.hasError()
                 ? QStringLiteral("malformed XML at line %1: %2").arg(r.lineNumber()).arg(r.errorString())
                 : QStringLiteral("no XML element found");
    return {};
}

} // namespace

QString hwlocRuntimeVersion() {
    const unsigned v = hwloc_get_api_version();
    return QStringLiteral("%1.%2.%3").arg(v >> 16).arg((v >> 8) & 0xff).arg(v & 0xff);
}

namespace {

// Refuses what this hwloc cannot read, before anything is started for it.
QString formatProblem(const QByteArray& xml, QString* version) {
    QString error;
    *version = xmlFormatVersion(xml, &error);
    if (!error.isEmpty())
        return error;
    const int major = version->section(QLatin1Char('.'), 0, 0).toInt();
    const int supported = int(hwloc_get_api_version() >> 16);
    if (major <= supported || (major == 3 && supported == 2)) // 3.0 is rewritten for 2.x (hwloc_xml_v3.h)
        return {};
    return QStringLiteral("hwloc XML format %1 needs hwloc %2.x or newer to read, and "
                          "rackscope runs with hwloc API %3; "
                          "export it again with hwloc %4.x's lstopo (`lstopo --of "
                          "xml`), or build rackscope with hwloc %2")
        .arg(*version)
        .arg(major)
        .arg(hwlocRuntimeVersion())
        .arg(supported);
}

} // namespace

ImportResult importHwlocXml(const QByteArray& xml, const QString& location) {
    QString version;
    if (const QString problem = formatProblem(xml, &version); !problem.isEmpty())
        return ImportResult::fail(problem);
    // libhwloc trusts its XML more than a file from elsewhere deserves (2.9 dereferences a
    // missing complete_cpuset): a helper process reads it.
    return readInHwlocReader(xml, location);
}

ImportResult readHwlocXmlHere(const QByteArray& original, const QString& location) {
    QString version;
    if (const QString problem = formatProblem(original, &version); !problem.isEmpty())
        return ImportResult::fail(problem);
    QByteArray xml = original;
    const bool rewritten = version.startsWith(QLatin1String("3.")) && hwloc_get_api_version() >> 16 == 2;
    if (rewritten) {
        QString error;
        xml = hwlocXmlV3AsV2(original, &error);
        if (!error.isEmpty())
            return ImportResult::fail(error);
    }
    TopologyPtr topo = newTopology();
    if (!topo)
        return ImportResult::fail(QStringLiteral("hwloc could not be initialised"));
    if (hwloc_topology_set_xmlbuffer(topo.get(), xml.constData(), int(xml.size())) != 0 ||
        hwloc_topology_load(topo.get()) != 0) {
        // Say where the XML breaks when it does: checked only after a refusal,
        // it costs more than hwloc's own parse.
        const QString broken = xmlParseError(xml);
        return ImportResult::fail(
            !broken.isEmpty()
                ? broken
                : QStringLiteral("hwloc (API %1) rejected the XML (format %2): %3")
                      .arg(hwlocRuntimeVersion(), version, QString::fromLocal8Bit(strerror(errno))));
    }
    HostTopology host = Converter(topo.get(), {SourceFormat::HwlocXml, location}).run();
    if (rewritten)
        host.notes << QStringLiteral(
                          "hwloc XML format %1, read by hwloc %2 after rewriting its 3.0 spellings "
                          "(OS device types, object ids, the root's infos)")
                          .arg(version, hwlocRuntimeVersion());
    return ImportResult::ok(std::move(host));
}

} // namespace rackscope
