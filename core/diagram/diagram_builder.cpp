// Builds and lays out a Diagram. Servers are measured bottom-up (a device's
// box, then each container around its children, wrapped into rows), then
// placed top-down, as lstopo does; fabric_layout.h places the servers and
// switches of a cluster and routes its cables.
#include "analysis/findings.h"
#include "diagram.h"

#include "analysis/nvlink_findings.h"
#include "fabric_layout.h"
#include "model/hostlist.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace rackscope {
namespace {

constexpr double kDeviceW = 112, kDeviceH = 46, kGap = 10, kPad = 8, kHeader = 22;
constexpr double kCollapsedW = 160, kCollapsedH = 66;  // a closed server: name, counts, badges
constexpr double kMinSwitchW = 140, kMaxSwitchW = 320; // wide enough for the longest name, up to a point
constexpr double kBandH = kDeviceH;

// A fact's name, marked for translation (QT_TRANSLATE_NOOP at each use); the inspector shows it in the
// reader's language.
QString factName(const char* name) {
    return QString::fromLatin1(name);
}

struct Box {
    DiagramItem item;
    std::vector<Box> children;
};

QString sourceText(const HostTopology& h) {
    return sourceFormatId(h.source.format) + QStringLiteral(": ") + h.source.location;
}

QString linkText(const PcieLink& l) {
    QStringList parts;
    if (l.width)
        parts << QStringLiteral("x%1").arg(*l.width);
    if (l.gts)
        parts << QStringLiteral("%1 GT/s").arg(*l.gts);
    if (l.gbps)
        parts << QStringLiteral("%1 GB/s").arg(*l.gbps);
    return parts.join(QLatin1Char(' '));
}

QString yesNo(const std::optional<bool>& v) {
    return !v ? QStringLiteral("unknown") : *v ? QStringLiteral("yes") : QStringLiteral("no");
}

DiagramItem deviceItem(const HostTopology& h, const Device& d) {
    DiagramItem it;
    it.kind = d.kind == DeviceKind::Gpu        ? ItemKind::Gpu
              : d.kind == DeviceKind::Nic      ? ItemKind::Nic
              : d.kind == DeviceKind::NvSwitch ? ItemKind::NvSwitch
                                               : ItemKind::Other;
    it.id = h.name + QLatin1Char('/') + d.id;
    it.host = h.name;
    it.label = d.id.isEmpty() ? d.name : d.id;
    it.pci = d.pci ? d.pci->toString() : QString();
    if (it.kind == ItemKind::Nic) {
        QStringList names = d.rdmaDevices + d.netdevs;
        names.removeDuplicates();
        if (d.speedMbps)
            names << QStringLiteral("%1 Gb/s").arg(*d.speedMbps / 1000.0);
        it.detail = names.isEmpty() ? d.name : names.join(QStringLiteral(" · "));
        for (const QString& netdev : d.netdevs)
            it.ports.push_back({netdev, std::nullopt}); // until the fabric names its ports
    } else {
        it.detail = !d.name.isEmpty()               ? d.name
                    : it.kind == ItemKind::NvSwitch ? QStringLiteral("NVSwitch ") + it.pci
                                                    : it.pci;
    }
    it.rect = QRectF(0, 0, kDeviceW, kDeviceH);
    auto fact = [&](const QString& name, const QString& value) {
        if (!value.isEmpty())
            it.facts.emplace_back(name, value);
    };
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "source")), sourceText(h));
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "name")), d.name);
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "PCI address")), it.pci);
    if (d.vendorId)
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "PCI vendor:device")),
             QStringLiteral("%1:%2")
                 .arg(*d.vendorId, 4, 16, QLatin1Char('0'))
                 .arg(d.deviceId.value_or(0), 4, 16, QLatin1Char('0')));
    if (d.pciClass)
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "PCI class")),
             QStringLiteral("%1").arg(*d.pciClass, 6, 16, QLatin1Char('0')));
    if (d.numa)
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "NUMA node")), QString::number(*d.numa));
    if (d.socket)
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "socket")), QString::number(*d.socket));
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "CPU affinity")), d.cpuAffinity);
    if (d.cudaDevice)
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "CUDA device")), QString::number(*d.cudaDevice));
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "PCIe link now")), linkText(d.linkCurrent));
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "PCIe link capable")), linkText(d.linkMax));
    if (it.kind == ItemKind::Nic) {
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "RDMA")),
             yesNo(d.rdma) +
                 (d.rdmaEvidence.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(d.rdmaEvidence)));
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "RDMA devices")),
             d.rdmaDevices.join(QStringLiteral(", ")));
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "net devices")), d.netdevs.join(QStringLiteral(", ")));
        if (d.speedMbps)
            fact(factName(QT_TRANSLATE_NOOP("rackscope", "speed")),
                 QStringLiteral("%1 Mb/s").arg(*d.speedMbps));
    }
    if (d.c2cLinks) {
        it.c2c = d.c2cGBps ? QStringLiteral("C2C %1 GB/s").arg(*d.c2cGBps, 0, 'f', 1) : QStringLiteral("C2C");
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "NVLink-C2C to its CPU")),
             QCoreApplication::translate("rackscope", "%1 links, %2 GB/s in all")
                 .arg(*d.c2cLinks)
                 .arg(d.c2cGBps ? QString::number(*d.c2cGBps, 'f', 1) : QStringLiteral("?")));
    }
    if (d.ncclGdr)
        fact(factName(QT_TRANSLATE_NOOP("rackscope", "NCCL gdr attribute")),
             *d.ncclGdr ? QStringLiteral("1") : QStringLiteral("0"));
    fact(factName(QT_TRANSLATE_NOOP("rackscope", "ACS redirection above")),
         d.acsBridges.join(QStringLiteral(", ")));
    return it;
}

// A closed server's card: its name whole, a line for each line of its detail, a line of badges.
QRectF closedRect(const QString& name, const QString& detail) {
    return {0, 0, std::clamp(labelWidth(name, 12) + 12, kCollapsedW, kMaxSwitchW),
            kCollapsedH + 12.0 * double(std::max<qsizetype>(detail.count(QLatin1Char('\n')), 0))};
}

bool visible(const Device& d, const DiagramOptions& o) {
    if (d.kind != DeviceKind::Other)
        return true;
    if (o.onlyGpusAndNics)
        return false;
    return !(o.hideStorage && d.pciClass && (*d.pciClass >> 16) == 0x01);
}

// Children in rows: filled greedily up to a width that keeps the box about
// twice as wide as high, so a server with many devices stays compact.
std::vector<std::pair<std::size_t, std::size_t>> rowsOf(const std::vector<Box>& children) {
    double area = 0, widest = 0;
    for (const Box& c : children) {
        area += (c.item.rect.width() + kGap) * (c.item.rect.height() + kGap);
        widest = std::max(widest, c.item.rect.width());
    }
    const double target = std::max(widest, std::sqrt(area * 2.5));
    std::vector<std::pair<std::size_t, std::size_t>> rows;
    std::size_t start = 0;
    double width = 0;
    for (std::size_t i = 0; i < children.size(); ++i) {
        const double w = children[i].item.rect.width();
        if (i > start && width + kGap + w > target + 0.5) {
            rows.emplace_back(start, i);
            start = i;
            width = 0;
        }
        width += (i > start ? kGap : 0) + w;
    }
    if (start < children.size())
        rows.emplace_back(start, children.size());
    return rows;
}

// Sizes a box from its children, measured first (bottom-up).
void measure(Box& b) {
    if (b.item.closed)
        return; // sized as a card
    if (b.children.empty()) {
        if (b.item.container())
            b.item.rect = QRectF(0, 0, std::max(kDeviceW, b.item.rect.width()), kHeader + kPad + 12);
        return;
    }
    for (Box& c : b.children)
        measure(c);
    double width = 0, height = kHeader;
    for (const auto& [from, to] : rowsOf(b.children)) {
        double rowW = 0, rowH = 0;
        for (std::size_t i = from; i < to; ++i) {
            rowW += (i > from ? kGap : 0) + b.children[i].item.rect.width();
            rowH = std::max(rowH, b.children[i].item.rect.height());
        }
        width = std::max(width, rowW);
        height += (height > kHeader ? kGap : 0) + rowH;
    }
    const double named = labelWidth(b.item.label, 12) + 12; // its name whole in its header
    b.item.rect = QRectF(0, 0, std::max({width + 2 * kPad, kDeviceW, named}), height + kPad);
}

// Then places them (top-down), row by row as measured.
void place(Box& b, QPointF at) {
    b.item.rect.moveTopLeft(at);
    double y = at.y() + kHeader;
    for (const auto& [from, to] : rowsOf(b.children)) {
        double x = at.x() + kPad, rowH = 0;
        for (std::size_t i = from; i < to; ++i) {
            place(b.children[i], QPointF(x, y));
            x += b.children[i].item.rect.width() + kGap;
            rowH = std::max(rowH, b.children[i].item.rect.height());
        }
        y += rowH + kGap;
    }
}

// Drops containers left without a device once devices are filtered out.
bool prune(Box& b) {
    std::erase_if(b.children, [](Box& c) { return !prune(c); });
    return !b.item.container() || b.item.kind == ItemKind::Host || !b.children.empty();
}

class Builder {
public:
    Builder(const DiagramInput& in, const DiagramOptions& o) : in_(in), o_(o) {}

    Diagram run() {
        if (in_.fabric)
            fabric_ = analyseFabric(*in_.fabric);
        collectRails();
        std::vector<Box> hosts = hostBoxes();
        layOut(hosts);
        fabricLinks();
        portsDown();
        routeCables();
        mergeCableRuns();
        nvlinks();
        gpuNicPaths();
        hostHighlights();
        fabricHighlights();
        nvlinkDomains();
        giveShortLabels(d_);
        for (const DiagramItem& it : d_.items)
            d_.bounds = d_.bounds.united(it.rect);
        for (const DiagramGroup& g :
             d_.groups) // a caption's line; the room under it serves only when far out
            d_.bounds = d_.bounds.united(QRectF(g.rect.topLeft(), QSizeF(g.rect.width(), 24)));
        for (const NvlinkBand& b : d_.nvlinkBands)
            for (const QRectF& r : b.pieces)
                d_.bounds = d_.bounds.united(r);
        for (const DiagramLink& l : d_.links) // cables run in lanes beside the pods
            for (const QPointF& p : l.route)
                d_.bounds = d_.bounds.united(QRectF(p, QSizeF(1, 1)));
        d_.bounds.adjust(-20, -20, 20, 20);
        d_.title = !in_.title.isEmpty()                                       ? in_.title
                   : hosts.size() == 1 && !hosts.front().item.label.isEmpty() ? hosts.front().item.label
                   : hosts.size() == 1
                       ? QCoreApplication::translate("rackscope", "1 server")
                       : QCoreApplication::translate("rackscope", "%1 servers").arg(hosts.size());
        return std::move(d_);
    }

private:
    const DiagramInput& in_;
    const DiagramOptions& o_;
    std::optional<FabricAnalysis> fabric_;
    Diagram d_;
    std::map<QString, int> byId_;
    std::map<QString, int> railOfLeaf_; // switch id -> rail

    bool wanted(const QString& host) const { return o_.onlyHosts.isEmpty() || o_.onlyHosts.contains(host); }
    bool expanded(const QString& host) const {
        return o_.open == ServersOpen::All || (o_.open == ServersOpen::ByScale && serversOpenByScale(in_)) ||
               (o_.open == ServersOpen::Listed && o_.expanded.contains(host));
    }
    int item(const QString& id) const {
        auto it = byId_.find(id);
        return it == byId_.end() ? -1 : it->second;
    }

    void commit(Box& b, int parent) {
        b.item.parent = parent;
        d_.items.push_back(b.item);
        const int index = int(d_.items.size()) - 1;
        byId_[b.item.id] = index;
        for (Box& c : b.children)
            commit(c, index);
    }

    void collectRails() {
        if (!fabric_)
            return;
        for (const Rail& r : fabric_->rails)
            d_.rails << r.device;
        for (const FabricNode& n : in_.fabric->nodes)
            for (std::size_t i = 0; i < fabric_->rails.size(); ++i)
                if (n.kind == FabricNodeKind::Switch && fabric_->rails[i].leaves.contains(switchName(n)))
                    railOfLeaf_[n.id] = int(i);
    }

    Box hostBox(const InspectedHost& ih) {
        const HostTopology& h = ih.host;
        Box host;
        host.item.kind = ItemKind::Host;
        host.item.id = QStringLiteral("host:") + h.name;
        host.item.host = h.name;
        host.item.label = h.name;
        host.item.detail = QCoreApplication::translate("rackscope", "%1 GPUs · %2 NICs")
                               .arg(h.gpus.size())
                               .arg(h.nics.size());
        host.item.facts = {{factName(QT_TRANSLATE_NOOP("rackscope", "source")), sourceText(h)}};
        // What the server lacks to be of use is said on its card, not only among the findings.
        static const std::pair<const char*, const char*> kLacks[] = {
            {codes::kGpuDriverMissing, QT_TRANSLATE_NOOP("rackscope", "no GPU driver")},
            {codes::kRdmaDriverMissing, QT_TRANSLATE_NOOP("rackscope", "no RDMA driver")},
            {codes::kGpuDirectPrerequisiteMissing, QT_TRANSLATE_NOOP("rackscope", "no GPUDirect")},
            {codes::kHostNoGpu, QT_TRANSLATE_NOOP("rackscope", "no GPU")}};
        QStringList lacks;
        for (const auto& [code, words] : kLacks)
            for (const Finding& f : ih.analysis.findings)
                if (f.code == QLatin1String(code)) {
                    if (!lacks.contains(QCoreApplication::translate("rackscope", words)))
                        lacks << QCoreApplication::translate("rackscope", words);
                    host.item.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "problem")),
                                                 findingText(f));
                }
        if (!lacks.isEmpty()) // a closed card gives each its own line, under its name
            host.item.detail = lacks.join(expanded(h.name) ? QStringLiteral(", ") : QStringLiteral("\n"));
        if (!h.arch.isEmpty())
            host.item.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "architecture")), h.arch);
        for (const QString& n : h.notes)
            host.item.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "note")), n);
        d_.sources << sourceText(h);
        if (!expanded(h.name)) {
            host.item.rect = closedRect(h.name, host.item.detail);
            host.item.closed = true;
            return host;
        }
        std::map<int, std::vector<const Device*>> onNode;
        std::vector<const Device*> loose;
        for (const auto* list : {&h.gpus, &h.nics, &h.others})
            for (const Device& d : *list) {
                if (!visible(d, o_))
                    continue;
                if (d.node >= 0 && d.node < int(h.nodes.size()))
                    onNode[d.node].push_back(&d);
                else
                    loose.push_back(&d);
            }
        std::map<int, std::vector<int>> kids;
        for (std::size_t i = 0; i < h.nodes.size(); ++i)
            kids[h.nodes[i].parent].push_back(int(i));
        int groups = 0;
        // Root ports and the device nodes fold into the nearest drawn container.
        std::function<void(int, Box&)> walk = [&](int n, Box& into) {
            const TopoNode& node = h.nodes[n];
            Box* target = &into;
            Box made;
            switch (node.kind) {
            case NodeKind::Package:
                made.item.kind = ItemKind::Package;
                made.item.label =
                    QCoreApplication::translate("rackscope", "Package %1")
                        .arg(node.osIndex ? QString::number(*node.osIndex) : QStringLiteral("?"));
                break;
            case NodeKind::Group:
            case NodeKind::Cpu:
                made.item.kind = ItemKind::Numa;
                made.item.label =
                    node.kind == NodeKind::Cpu && node.numa
                        ? QCoreApplication::translate("rackscope", "CPU, NUMA %1").arg(*node.numa)
                        : QCoreApplication::translate("rackscope", "Group %1").arg(++groups);
                break;
            case NodeKind::HostBridge: // root ports fold into it, as NCCL counts them
                made.item.kind = ItemKind::HostBridge;
                made.item.label = QCoreApplication::translate("rackscope", "Host bridge");
                break;
            case NodeKind::PciSwitch:
                made.item.kind = ItemKind::PciSwitch;
                made.item.label = QCoreApplication::translate("rackscope", "PCIe switch");
                made.item.pci = node.pci ? node.pci->toString() : QString();
                made.item.detail = made.item.pci;
                break;
            default:
                break;
            }
            if (made.item.kind != ItemKind::Other) {
                made.item.id = QStringLiteral("%1/node%2").arg(h.name).arg(n);
                made.item.host = h.name;
                made.item.facts = {{factName(QT_TRANSLATE_NOOP("rackscope", "source")), sourceText(h)}};
                if (!made.item.pci.isEmpty())
                    made.item.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "PCI address")),
                                                 made.item.pci);
                into.children.push_back(made);
                target = &into.children.back();
            }
            for (const Device* d : onNode[n])
                target->children.push_back({deviceItem(h, *d), {}});
            for (int c : kids[n])
                walk(c, *target);
        };
        for (int root : kids[-1])
            walk(root, host);
        addLoose(host, loose, ih);
        if (o_.onlyGpusAndNics || o_.hideStorage)
            prune(host);
        return host;
    }

    // Devices of no tree (nvidia-smi topo -m, an NCCL dump without one) in a box for each NUMA node a source
    // gives them, each NIC after the GPUs it reaches at PIX or PXB, so a GPU sits beside its NIC. A NIC the
    // source gives no NUMA node is drawn in its nearest GPU's where their path stays within one (PIX to
    // NODE); its own NUMA fact stays unknown.
    void addLoose(Box& host, const std::vector<const Device*>& loose, const InspectedHost& ih) {
        const HostTopology& h = ih.host;
        std::vector<const Device*> ordered;
        const auto placed = [&](const Device* d) {
            return std::find(ordered.begin(), ordered.end(), d) != ordered.end();
        };
        const auto near = [&](const Device& gpu, const Device& nic) {
            const GpuNicPair* p = ih.analysis.pair(gpu.id, nic.id);
            return p && p->path && (*p->path == PathType::PIX || *p->path == PathType::PXB);
        };
        for (const Device* g : loose) {
            if (g->kind != DeviceKind::Gpu)
                continue;
            ordered.push_back(g);
            for (const Device* n : loose) { // a NIC once every GPU near it is in
                if (n->kind != DeviceKind::Nic || placed(n) || !near(*g, *n))
                    continue;
                if (std::none_of(loose.begin(), loose.end(), [&](const Device* other) {
                        return other->kind == DeviceKind::Gpu && !placed(other) && near(*other, *n);
                    }))
                    ordered.push_back(n);
            }
        }
        for (const Device* d : loose)
            if (!placed(d))
                ordered.push_back(d);
        const auto numaOf = [&](const Device* d) -> std::optional<int> {
            if (d->numa || d->kind != DeviceKind::Nic)
                return d->numa;
            std::optional<int> numa;
            int best = 1 << 20;
            for (const Device* g : loose)
                if (const GpuNicPair* p =
                        g->kind == DeviceKind::Gpu ? ih.analysis.pair(g->id, d->id) : nullptr;
                    p && p->path && g->numa && *p->path <= PathType::NODE && int(*p->path) < best) {
                    best = int(*p->path);
                    numa = g->numa;
                }
            return numa;
        };
        std::map<int, Box> byNuma;
        std::vector<Box> unplaced; // after the NUMA nodes
        for (const Device* d : ordered) {
            const std::optional<int> numa = numaOf(d);
            if (!numa) {
                unplaced.push_back({deviceItem(h, *d), {}});
                continue;
            }
            Box& group = byNuma[*numa];
            if (group.item.id.isEmpty()) {
                group.item.kind = ItemKind::Numa;
                group.item.id = QStringLiteral("%1/numa%2").arg(h.name).arg(*numa);
                group.item.host = h.name;
                group.item.label = QCoreApplication::translate("rackscope", "NUMA node %1").arg(*numa);
                group.item.facts = {{factName(QT_TRANSLATE_NOOP("rackscope", "source")), sourceText(h)}};
            }
            if (group.item.detail.isEmpty() && !d->cpuAffinity.isEmpty()) {
                group.item.detail = QCoreApplication::translate("rackscope", "CPUs %1").arg(d->cpuAffinity);
                group.item.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "CPU affinity")),
                                              d->cpuAffinity);
            }
            group.children.push_back({deviceItem(h, *d), {}});
        }
        for (auto& [numa, group] : byNuma)
            host.children.push_back(std::move(group));
        for (Box& b : unplaced)
            host.children.push_back(std::move(b));
    }

    std::vector<Box> hostBoxes() {
        std::vector<Box> boxes;
        QSet<QString> names;
        for (const InspectedHost& h : in_.hosts)
            if (wanted(h.host.name)) {
                boxes.push_back(hostBox(h));
                names.insert(h.host.name);
            }
        if (fabric_)
            for (const FabricHost& fh : fabric_->hosts)
                if (!names.contains(fh.name) && wanted(fh.name)) { // known only from the fabric
                    Box b;
                    b.item.kind = ItemKind::Host;
                    b.item.id = QStringLiteral("host:") + fh.name;
                    b.item.host = b.item.label = fh.name;
                    b.item.detail =
                        QCoreApplication::translate("rackscope", "%1 fabric ports").arg(fh.ports.size());
                    b.item.facts = {{factName(QT_TRANSLATE_NOOP("rackscope", "source")), in_.fabric->source}};
                    b.item.rect = closedRect(fh.name, b.item.detail);
                    b.item.closed = true;
                    boxes.push_back(b);
                }
        return boxes;
    }

    QStringList leavesOf(const QString& host) const {
        const FabricHost* fh = fabric_ ? fabric_->host(host) : nullptr;
        return fh ? fh->leaves : QStringList();
    }

    int tierOf(const FabricNode& n) const {
        const auto it = fabric_->tiers.find(n.id);
        return it == fabric_->tiers.end() ? 0 : it->second;
    }

    std::vector<LayoutServer> layoutServers_;
    std::vector<LayoutSwitch> layoutSwitches_;
    std::optional<FabricLayout> layout_;
    std::map<QString, int> layoutServerOf_; // host name -> index into layoutServers_
    std::map<int, int> layoutSwitchOf_;     // switch item -> index into layoutSwitches_

    // Measures every server, lays the servers and switches out (fabric_layout.h), then commits them.
    void layOut(std::vector<Box>& hosts) {
        for (Box& h : hosts) {
            measure(h);
            place(h, QPointF(0, 0));
            addNvlinkBand(h);
            layoutServerOf_[h.item.host] = int(layoutServers_.size());
            layoutServers_.push_back({h.item.host, h.item.rect.size(), leavesOf(h.item.host), {}, -1, -1});
        }
        std::vector<const FabricNode*> switches;
        if (fabric_)
            for (const FabricNode& n : in_.fabric->nodes) {
                if (n.kind != FabricNodeKind::Switch)
                    continue;
                const int tier = std::max(tierOf(n), 1);
                if (!o_.onlyHosts.isEmpty() && tier == 1 && !servesDrawnHost(n))
                    continue;
                const auto rail = railOfLeaf_.find(n.id);
                layoutSwitches_.push_back(
                    {n.id, switchName(n), tier, rail == railOfLeaf_.end() ? -1 : rail->second, {}, -1, -1});
                switches.push_back(&n);
            }
        double switchW = kMinSwitchW;
        for (const LayoutSwitch& s : layoutSwitches_)
            switchW = std::max(switchW, labelWidth(s.name, 12) + 12);
        layout_.emplace(layoutServers_, layoutSwitches_, std::min(switchW, kMaxSwitchW));
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            moveBy(hosts[i], layoutServers_[i].at - hosts[i].item.rect.topLeft());
            commit(hosts[i], -1);
        }
        for (std::size_t i = 0; i < switches.size(); ++i) {
            d_.items.push_back(switchItem(*switches[i], layoutSwitches_[i]));
            byId_[d_.items.back().id] = int(d_.items.size()) - 1;
            layoutSwitchOf_[int(d_.items.size()) - 1] = int(i);
        }
        std::map<QString, std::size_t> gpusOf; // of the servers inspected
        for (const InspectedHost& h : in_.hosts)
            gpusOf[h.host.name] = h.host.gpus.size();
        for (const PodCaption& c : layout_->captions()) {
            DiagramGroup g{c.rect, c.pod, podCaptions(c.servers, gpusOf), {}, {}};
            for (int s : c.servers)
                g.servers << layoutServers_[std::size_t(s)].name;
            for (int l : c.leaves)
                g.leaves << layoutSwitches_[std::size_t(l)].name;
            d_.groups.push_back(std::move(g));
        }
    }

    // A pod's caption, from the most words to the fewest: its servers as a hostlist with how many servers and
    // (where every one was inspected) GPUs; the hostlist alone; the first and the last; how many.
    QStringList podCaptions(const std::vector<int>& servers,
                            const std::map<QString, std::size_t>& gpusOf) const {
        QStringList names;
        std::size_t gpus = 0;
        bool everyGpuKnown = true;
        for (int s : servers) {
            names << layoutServers_[std::size_t(s)].name;
            const auto h = gpusOf.find(names.back());
            everyGpuKnown &= h != gpusOf.end();
            gpus += h == gpusOf.end() ? 0 : h->second;
        }
        QString count = names.size() == 1
                            ? QCoreApplication::translate("rackscope", "1 server")
                            : QCoreApplication::translate("rackscope", "%1 servers").arg(names.size());
        if (everyGpuKnown && gpus > 0)
            count += QStringLiteral(" · ") + QCoreApplication::translate("rackscope", "%1 GPUs").arg(gpus);
        const QString list = compressHostlist(names);
        QStringList out{list + QStringLiteral(" · ") + count, list};
        if (names.size() > 2)
            out << names.front() + QStringLiteral(" – ") + names.back();
        out << count;
        return out;
    }

    static void moveBy(Box& b, QPointF delta) {
        b.item.rect.translate(delta);
        for (Box& c : b.children)
            moveBy(c, delta);
    }

    DiagramItem switchItem(const FabricNode& n, const LayoutSwitch& at) const {
        DiagramItem it;
        it.kind = at.tier >= 3                 ? ItemKind::Core
                  : at.tier == 2               ? ItemKind::Spine
                  : fabric_->tiers.count(n.id) ? ItemKind::Leaf
                                               : ItemKind::Switch;
        it.id = QStringLiteral("switch:") + n.id;
        it.label = switchName(n);
        it.detail = QCoreApplication::translate("rackscope", "%1 ports").arg(n.ports);
        it.rail = at.rail;
        it.rect = QRectF(at.at, QSizeF(layout_->switchWidth(), FabricLayout::kSwitchH));
        it.facts = {{factName(QT_TRANSLATE_NOOP("rackscope", "source")), in_.fabric->source},
                    {factName(QT_TRANSLATE_NOOP("rackscope", "GUID")), n.guid},
                    {factName(QT_TRANSLATE_NOOP("rackscope", "description")), n.description}};
        if (n.lid)
            it.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "LID")), QString::number(*n.lid));
        it.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "tier")),
                              fabric_->tiers.count(n.id) ? QString::number(tierOf(n))
                                                         : QStringLiteral("unknown"));
        if (!n.downPorts.isEmpty())
            it.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "ports not active")),
                                  n.downPorts.join(QStringLiteral(", ")));
        return it;
    }

    bool servesDrawnHost(const FabricNode& sw) const {
        for (const FabricHost& h : fabric_->hosts)
            if (h.leaves.contains(sw.id) && layoutServerOf_.count(h.name))
                return true;
        return false;
    }

    // A cable's end: its switch, or the NIC or server of a CA (fabricNodeItemId).
    int endOf(const FabricNode& n) {
        const QString id = fabricNodeItemId(n, in_.hosts, [this](const QString& i) { return item(i) >= 0; });
        return id.isEmpty() ? -1 : item(id);
    }

    std::map<std::size_t, int> linkOfFabricLink_;
    std::set<int> portsFromFabric_; // NICs whose ports the fabric named: its names replace the net devices'

    // The index of a NIC's port the fabric names, added as the fabric first names it.
    int fabricPort(int nic, const QString& name, std::optional<bool> up) {
        std::vector<DiagramPort>& ports = d_.items[nic].ports;
        if (portsFromFabric_.insert(nic).second)
            ports.clear();
        for (std::size_t i = 0; i < ports.size(); ++i)
            if (ports[i].name == name) {
                if (up)
                    ports[i].up = up;
                return int(i);
            }
        ports.push_back({name, up});
        return int(ports.size()) - 1;
    }

    // A CA's ports the fabric saw down ("1 (DOWN)") are drawn down on its NIC; then each NIC's ports are a
    // fact.
    void portsDown() {
        if (in_.fabric)
            for (const FabricNode& n : in_.fabric->nodes) {
                if (n.kind == FabricNodeKind::Switch || n.downPorts.isEmpty())
                    continue;
                const int nic = endOf(n);
                if (nic < 0 || d_.items[nic].kind != ItemKind::Nic)
                    continue;
                for (const QString& p : n.downPorts)
                    fabricPort(nic, p.section(QLatin1Char(' '), 0, 0), false);
            }
        for (DiagramItem& it : d_.items) {
            if (it.ports.empty())
                continue;
            QStringList said;
            for (const DiagramPort& p : it.ports)
                said << (p.up ? QStringLiteral("%1 %2").arg(p.name, *p.up ? QStringLiteral("up")
                                                                          : QStringLiteral("down"))
                              : p.name);
            it.facts.emplace_back(factName(QT_TRANSLATE_NOOP("rackscope", "ports")),
                                  said.join(QStringLiteral(", ")));
        }
    }

    // Where a cable lands: its NIC's port, the NIC's top, or a closed server's top at its rail's place.
    QPointF landingOf(const DiagramLink& l) const {
        const DiagramItem& b = d_.items[l.b];
        if (b.kind == ItemKind::Nic && l.bPort >= 0 && l.bPort < int(b.ports.size())) {
            const QRectF port = portRect(b, l.bPort);
            return {port.center().x(), port.top()};
        }
        if (b.kind != ItemKind::Host || l.rail < 0)
            return {b.rect.center().x(), b.rect.top()};
        const int places = int(d_.rails.size()) + 1; // rails are known where a cable has one
        return {b.rect.left() + b.rect.width() * (l.rail % (places - 1) + 1) / places, b.rect.top()};
    }

    // Every cable's path, once the ports it lands on are known (fabric_layout.h routes them).
    void routeCables() {
        for (DiagramLink& l : d_.links) {
            if (l.kind != LinkKind::Fabric)
                continue;
            const QPointF landing = landingOf(l);
            const auto upper = layoutSwitchOf_.find(l.a), lower = layoutSwitchOf_.find(l.b);
            const auto server = layoutServerOf_.find(d_.items[l.b].host);
            if (upper != layoutSwitchOf_.end() && lower != layoutSwitchOf_.end())
                l.route = layout_->switchRoute(upper->second, lower->second);
            else if (upper != layoutSwitchOf_.end() && server != layoutServerOf_.end())
                l.route = layout_->serverRoute(upper->second, server->second, landing, l.rail);
            else
                l.route = {QPointF(d_.items[l.a].rect.center().x(), d_.items[l.a].rect.bottom()), landing};
        }
    }

    // The routes' straight runs by rail, weight and line; overlapping runs on one line merged.
    void mergeCableRuns() {
        // key: rail, weight, vertical?, the fixed coordinate (rounded to a tenth)
        std::map<std::tuple<int, bool, bool, qint64>, std::vector<std::pair<double, double>>> onLine;
        for (const DiagramLink& l : d_.links)
            for (std::size_t k = 1; k < l.route.size(); ++k) {
                const QPointF a = l.route[k - 1], b = l.route[k];
                const bool vertical = std::abs(a.x() - b.x()) < 1e-6,
                           horizontal = std::abs(a.y() - b.y()) < 1e-6;
                if (!vertical && !horizontal) {
                    d_.cableRuns.push_back({l.rail, l.count > 1, QLineF(a, b)});
                    continue;
                }
                const double fixed = vertical ? a.x() : a.y();
                const double from = vertical ? a.y() : a.x(), to = vertical ? b.y() : b.x();
                onLine[{l.rail, l.count > 1, vertical, qRound64(fixed * 10)}].emplace_back(
                    std::min(from, to), std::max(from, to));
            }
        for (auto& [key, spans] : onLine) {
            const auto& [rail, parallel, vertical, fixed10] = key;
            std::sort(spans.begin(), spans.end());
            const double fixed = double(fixed10) / 10;
            const auto add = [&](double from, double to) {
                d_.cableRuns.push_back(
                    {rail, parallel,
                     vertical ? QLineF(fixed, from, fixed, to) : QLineF(from, fixed, to, fixed)});
            };
            double from = spans.front().first, to = spans.front().second;
            for (const auto& [a, b] : spans) {
                if (a > to + 1e-6) {
                    add(from, to);
                    from = a;
                }
                to = std::max(to, b);
            }
            add(from, to);
        }
    }

    void fabricLinks() {
        if (!fabric_)
            return;
        std::map<std::pair<int, int>, int> merged;
        const FabricNodeIndex node(*in_.fabric);
        for (std::size_t i = 0; i < in_.fabric->links.size(); ++i) {
            const FabricLink& l = in_.fabric->links[i];
            const FabricNode *na = node(l.a), *nb = node(l.b);
            if (!na || !nb)
                continue;
            int a = endOf(*na), b = endOf(*nb);
            if (a < 0 || b < 0 || a == b)
                continue;
            if (d_.items[a].rect.top() > d_.items[b].rect.top())
                std::swap(a, b);
            const FabricNode& ca = na->kind == FabricNodeKind::Switch ? *nb : *na;
            const QString caPort = &ca == na ? l.aPort : l.bPort;
            const int port =
                d_.items[b].kind == ItemKind::Nic && !caPort.isEmpty()
                    ? fabricPort(b, caPort,
                                 l.state.isEmpty() ? std::nullopt
                                                   : std::optional(l.state == QLatin1String("up")))
                    : -1;
            int rail = -1;
            if (ca.kind != FabricNodeKind::Switch && !ca.device.isEmpty())
                rail = int(d_.rails.indexOf(ca.device));
            if (rail >= 0 && d_.items[b].kind == ItemKind::Nic)
                d_.items[b].rail = rail;
            const auto key = std::make_pair(a, b);
            if (const auto it = merged.find(key); it != merged.end()) {
                ++d_.links[it->second].count;
                linkOfFabricLink_[i] = it->second;
                continue;
            }
            DiagramLink dl;
            dl.a = a;
            dl.b = b;
            dl.kind = LinkKind::Fabric;
            dl.label = (l.width + QLatin1Char(' ') + l.speed).trimmed();
            dl.rail = rail;
            dl.bPort = port;
            d_.links.push_back(dl);
            merged[key] = int(d_.links.size()) - 1;
            linkOfFabricLink_[i] = int(d_.links.size()) - 1;
        }
    }

    // NVLink between every pair of a server's GPUs (an NVSwitch system): one band
    // below the GPUs, each GPU joined to it, rather than n(n-1)/2 arcs.
    // GPUs joined pair by pair in groups of three or more (an NVSwitch system, each board of a DGX-2): one
    // band below the server for each, every GPU of it joined to it, rather than n(n-1)/2 arcs.
    struct MeshedGroup {
        std::vector<int> gpus;
        int least = 0; // the fewest links between two of them
    };
    static std::vector<MeshedGroup> meshedGroups(const HostTopology& h) {
        const int n = int(h.gpus.size());
        const auto links = [&](int a, int b) {
            const auto it = h.nvlinks.find({std::min(a, b), std::max(a, b)});
            return it == h.nvlinks.end() ? 0 : it->second;
        };
        std::vector<int> group(std::size_t(n), -1);
        std::vector<MeshedGroup> out;
        for (int g = 0; g < n; ++g) {
            if (group[std::size_t(g)] >= 0)
                continue;
            MeshedGroup m{{g}, 1 << 30};
            for (int o = g + 1; o < n; ++o)
                if (links(g, o) > 0 &&
                    std::all_of(m.gpus.begin(), m.gpus.end(), [&](int in) { return links(in, o) > 0; }))
                    m.gpus.push_back(o);
            const auto outside = [&](int in) { // a link to a GPU not in the group: not one domain
                for (int o = 0; o < n; ++o)
                    if (links(in, o) > 0 && std::find(m.gpus.begin(), m.gpus.end(), o) == m.gpus.end())
                        return true;
                return false;
            };
            if (m.gpus.size() < 3 || std::any_of(m.gpus.begin(), m.gpus.end(), outside))
                continue;
            for (std::size_t i = 0; i < m.gpus.size(); ++i) {
                group[std::size_t(m.gpus[i])] = int(out.size());
                for (std::size_t j = i + 1; j < m.gpus.size(); ++j)
                    m.least = std::min(m.least, links(m.gpus[i], m.gpus[j]));
            }
            out.push_back(std::move(m));
        }
        return out;
    }

    static QString bandId(const QString& host, std::size_t group) {
        return host + (group ? QStringLiteral("/nvlink-%1").arg(group + 1) : QStringLiteral("/nvlink"));
    }

    void addNvlinkBand(Box& host) {
        for (const InspectedHost& ih : in_.hosts) {
            if (QStringLiteral("host:") + ih.host.name != host.item.id || host.children.empty())
                continue;
            const std::vector<MeshedGroup> groups = meshedGroups(ih.host);
            for (std::size_t i = 0; i < groups.size(); ++i) {
                const MeshedGroup& m = groups[i];
                const bool all = m.gpus.size() == ih.host.gpus.size();
                Box band;
                band.item.kind = ItemKind::NvSwitch;
                band.item.id = bandId(ih.host.name, i);
                band.item.host = ih.host.name;
                band.item.label = QCoreApplication::translate("rackscope", "NVLink");
                band.item.detail =
                    all ? QCoreApplication::translate("rackscope", "every GPU pair, NV%1 or more")
                              .arg(m.least)
                        : QCoreApplication::translate("rackscope", "%1 to %2: every pair, NV%3 or more")
                              .arg(ih.host.gpus[std::size_t(m.gpus.front())].id,
                                   ih.host.gpus[std::size_t(m.gpus.back())].id)
                              .arg(m.least);
                band.item.facts = {{factName(QT_TRANSLATE_NOOP("rackscope", "source")), sourceText(ih.host)},
                                   {factName(QT_TRANSLATE_NOOP("rackscope", "NVLink")),
                                    QStringLiteral("all %1 pairs of %2 GPUs joined, at least %3 links each")
                                        .arg(m.gpus.size() * (m.gpus.size() - 1) / 2)
                                        .arg(m.gpus.size())
                                        .arg(m.least)}};
                QRectF& r = host.item.rect;
                band.item.rect = QRectF(r.left() + kPad, r.bottom() + kGap, r.width() - 2 * kPad, kBandH);
                r.setBottom(band.item.rect.bottom() + kPad);
                host.children.push_back(band);
            }
            return;
        }
    }

    void nvlinks() {
        for (const InspectedHost& ih : in_.hosts) {
            const std::vector<MeshedGroup> groups = meshedGroups(ih.host);
            std::vector<int> bandOf(ih.host.gpus.size(), -1);
            for (std::size_t i = 0; i < groups.size(); ++i) {
                const int band = item(bandId(ih.host.name, i));
                for (int g : groups[i].gpus) {
                    bandOf[std::size_t(g)] = int(i);
                    if (const int a = item(ih.host.name + QLatin1Char('/') + ih.host.gpus[std::size_t(g)].id);
                        a >= 0 && band >= 0)
                        d_.links.push_back({a, band, LinkKind::NvLink, {}, -1, 1, -1, {}});
                }
            }
            for (const auto& [pair, count] : ih.host.nvlinks) {
                if (pair.first >= int(ih.host.gpus.size()) || pair.second >= int(ih.host.gpus.size()))
                    continue;
                if (bandOf[std::size_t(pair.first)] >= 0 &&
                    bandOf[std::size_t(pair.first)] == bandOf[std::size_t(pair.second)])
                    continue; // in the band
                const int a = item(ih.host.name + QLatin1Char('/') + ih.host.gpus[pair.first].id);
                const int b = item(ih.host.name + QLatin1Char('/') + ih.host.gpus[pair.second].id);
                if (a < 0 || b < 0)
                    continue;
                DiagramLink l;
                l.a = a;
                l.b = b;
                l.kind = LinkKind::NvLink;
                l.label = QStringLiteral("NV%1").arg(count);
                l.count = count;
                d_.links.push_back(l);
            }
        }
    }

    // Each GPU's path to the NIC NCCL would give it, where both are drawn and no highlight already draws it
    // (across the socket, without GPUDirect RDMA, through a peer).
    void gpuNicPaths() {
        for (const InspectedHost& ih : in_.hosts)
            for (const auto& [gpu, nic] : ih.analysis.ncclNic) {
                const GpuNicPair* p = ih.analysis.pair(gpu, nic);
                const int a = item(ih.host.name + QLatin1Char('/') + gpu),
                          b = item(ih.host.name + QLatin1Char('/') + nic);
                if (!p || a < 0 || b < 0 || p->crossSocket.value_or(false) || !p->gpudirect.value_or(true) ||
                    p->ncclPath == PathType::PXN)
                    continue;
                DiagramLink l;
                l.a = a;
                l.b = b;
                l.kind = LinkKind::GpuNic;
                l.label = p->viaNccl() ? pathTypeName(*p->viaNccl()) : QStringLiteral("?");
                d_.links.push_back(l);
            }
    }

    // The item that stands for a device: itself when drawn, else its (collapsed) server.
    // The item a GPU of the NVLink fabric is drawn as: by its index, else by its PCI address, else its
    // server.
    int nvlinkGpuItem(const GpuFabricState& g) const {
        if (!g.gpu.isEmpty())
            return standIn(g.host, g.gpu);
        for (const InspectedHost& ih : in_.hosts)
            if (ih.host.name == g.host && !g.busId.isEmpty())
                for (const Device& d : ih.host.gpus)
                    if (d.pci && d.pci->toString().startsWith(g.busId))
                        return standIn(g.host, d.id);
        return item(QStringLiteral("host:") + g.host);
    }

    // Each NVLink domain as a band behind its drawn servers, and each NVLink verdict on its GPU (or server).
    void nvlinkDomains() {
        const std::vector<Finding> findings = nvlinkFindings(in_.nvlink);
        std::map<QString, QStringList> verdicts; // host -> what is wrong there
        for (const Finding& f : findings) {
            if (f.target.host.isEmpty() || item(QStringLiteral("host:") + f.target.host) < 0)
                continue;
            verdicts[f.target.host] << f.message;
            std::vector<int> at;
            for (const QString& device : f.target.devices)
                at.push_back(standIn(f.target.host, device));
            if (at.empty())
                at.push_back(item(QStringLiteral("host:") + f.target.host));
            d_.highlights.push_back({HighlightKind::NvlinkFabric, at, {}, f.code, f.message});
        }
        std::vector<std::pair<double, int>> servers; // every server card drawn, by row then left
        for (std::size_t i = 0; i < d_.items.size(); ++i)
            if (d_.items[i].kind == ItemKind::Host && d_.items[i].parent < 0)
                servers.emplace_back(d_.items[i].rect.top() * 1e6 + d_.items[i].rect.left(), int(i));
        std::sort(servers.begin(), servers.end());
        for (const NvlinkDomain& domain : rackscope::nvlinkDomains(in_.nvlink)) {
            NvlinkBand band;
            band.domain = domain.name();
            QStringList wrong;
            for (const QString& h : domain.hosts) {
                if (item(QStringLiteral("host:") + h) >= 0)
                    band.servers << h;
                wrong << verdicts[h];
            }
            if (band.servers.isEmpty())
                continue;
            // Runs of neighbouring members in a row: a server between two members that is not one breaks it.
            std::optional<QRectF> piece;
            for (const auto& [order, i] : servers) {
                const DiagramItem& it = d_.items[std::size_t(i)];
                const bool member = domain.hosts.contains(it.host);
                if (piece && (!member || std::abs(it.rect.top() - piece->top()) > 0.5)) {
                    band.pieces.push_back(piece->adjusted(-8, -5, 8, 8 + kNvlinkBandFoot));
                    piece.reset();
                }
                if (member)
                    piece = piece ? piece->united(it.rect) : it.rect;
            }
            if (piece)
                band.pieces.push_back(piece->adjusted(-8, -5, 8, 8 + kNvlinkBandFoot));
            band.healthy = wrong.isEmpty();
            band.why = wrong.isEmpty()
                           ? QCoreApplication::translate("rackscope", "NVLink domain %1 (ClusterUUID %2, "
                                                                      "CliqueId %3): every GPU registered")
                                 .arg(domain.name(), domain.clusterUuid)
                                 .arg(domain.cliqueId)
                           : wrong.join(QLatin1Char('\n'));
            const QString serverCount =
                QCoreApplication::translate("rackscope", "%n server(s)", nullptr, int(domain.hosts.size()));
            const QString gpus =
                QCoreApplication::translate("rackscope", "%n GPU(s)", nullptr, int(domain.gpus.size()));
            const QString state = band.healthy ? QString()
                                               : QStringLiteral(" · ") +
                                                     QCoreApplication::translate("rackscope", "%n problem(s)",
                                                                                 nullptr, int(wrong.size()));
            band.labels = {
                QStringLiteral("NVLink %1 · %2 · %3%4").arg(domain.name(), serverCount, gpus, state),
                QStringLiteral("NVLink %1%2").arg(domain.name(), state), QStringLiteral("NVLink")};
            d_.nvlinkBands.push_back(std::move(band));
        }
        // A pod's caption goes under the bands' feet.
        if (!d_.nvlinkBands.empty())
            for (DiagramGroup& g : d_.groups)
                g.rect.translate(0, kNvlinkBandFoot + 6);
    }

    int standIn(const QString& host, const QString& device) const {
        const int i = item(host + QLatin1Char('/') + device);
        return i >= 0 ? i : item(QStringLiteral("host:") + host);
    }

    void hostHighlights() {
        for (const InspectedHost& ih : in_.hosts) {
            const QString& name = ih.host.name;
            if (item(QStringLiteral("host:") + name) < 0)
                continue;
            for (const auto& [gpu, nic] : ih.analysis.ncclNic) {
                const GpuNicPair* p = ih.analysis.pair(gpu, nic);
                if (!p)
                    continue;
                std::vector<int> ends{standIn(name, gpu), standIn(name, nic)};
                if (ends[0] == ends[1])
                    ends.pop_back();
                const QString path = p->path ? pathTypeName(*p->path) : QStringLiteral("unknown");
                if (p->crossSocket.value_or(false))
                    d_.highlights.push_back(
                        {HighlightKind::CrossSocket,
                         ends,
                         {},
                         path,
                         QCoreApplication::translate("rackscope",
                                                     "%1 → %2 (NCCL's NIC for it) crosses the CPU socket: %3")
                             .arg(gpu, nic, p->crossSocketEvidence)});
                if (p->ncclPath == PathType::PXN) {
                    std::vector<int> through{ends.front(), standIn(name, p->relayGpu), ends.back()};
                    through.erase(std::unique(through.begin(), through.end()), through.end());
                    d_.highlights.push_back({HighlightKind::NicThroughPeer,
                                             through,
                                             {},
                                             QStringLiteral("PXN"),
                                             QCoreApplication::translate(
                                                 "rackscope", "%1 → %2 goes over NVLink through %3 (PXN): %1 "
                                                              "has no RDMA NIC within PXB of its own")
                                                 .arg(gpu, nic, p->relayGpu)});
                }
                if (p->gpudirect && !*p->gpudirect)
                    d_.highlights.push_back(
                        {HighlightKind::NoGpuDirect,
                         ends,
                         {},
                         path,
                         QCoreApplication::translate("rackscope", "%1 → %2 cannot use GPUDirect RDMA: %3")
                             .arg(gpu, nic, p->gpudirectReason)});
            }
            for (const Finding& f : ih.analysis.findings)
                if (f.code == QLatin1String(codes::kPcieLinkDegraded) ||
                    f.code == QLatin1String(codes::kPcieLinkBelowPeers)) {
                    std::vector<int> items;
                    for (const QString& s : f.target.devices)
                        if (const int i = standIn(name, s);
                            i >= 0 && std::find(items.begin(), items.end(), i) == items.end())
                            items.push_back(i);
                    if (!items.empty())
                        d_.highlights.push_back({HighlightKind::PcieDegraded, items, {}, {}, findingText(f)});
                }
        }
        // A load run's own account: a rank that went without GPUDirect RDMA (where the topology allowed it,
        // an error), over sockets, or not through its nearest NIC; drawn on its GPU and NIC.
        for (const Finding& f : in_.runFindings) {
            std::vector<int> items;
            for (const QString& d : f.target.devices) // its devices say more than its host
                if (const int i = item(f.target.host + QLatin1Char('/') + d); i >= 0)
                    items.push_back(i);
            if (items.empty())
                if (const int i = item(QStringLiteral("host:") + f.target.host); i >= 0)
                    items.push_back(i);
            if (!items.empty())
                d_.highlights.push_back({HighlightKind::RunTransport, items, {}, {}, findingText(f)});
        }
        for (const CheckMark& m : in_.checkMarks)
            if (const int i = item(QStringLiteral("host:") + m.host); i >= 0)
                d_.highlights.push_back(
                    {m.failed ? HighlightKind::CheckFailed : HighlightKind::CheckWarned, {i}, {}, {}, m.why});
        for (const JobMark& m : in_.jobMarks) {
            std::vector<int> items;
            for (const QString& d : m.devices)
                if (const int i = item(m.host + QLatin1Char('/') + d); i >= 0)
                    items.push_back(i);
            if (items.empty())
                if (const int i = item(QStringLiteral("host:") + m.host); i >= 0)
                    items.push_back(i);
            if (!items.empty())
                d_.highlights.push_back({HighlightKind::JobRank, items, {}, {}, m.why});
        }
        for (const QString& host : in_.flaggedHosts)
            if (const int i = item(QStringLiteral("host:") + host); i >= 0)
                d_.highlights.push_back(
                    {HighlightKind::SlowHost,
                     {i},
                     {},
                     {},
                     QCoreApplication::translate("rackscope", "%1 was flagged slow by the straggler hunt")
                         .arg(host)});
    }

    void fabricHighlights() {
        if (!fabric_)
            return;
        const FabricNodeIndex node(*in_.fabric);
        for (const Finding& f : fabric_->findings) {
            HighlightKind kind;
            if (f.code == QLatin1String(codes::kFabricRailBreak))
                kind = HighlightKind::RailBreak;
            else if (f.code == QLatin1String(codes::kFabricLinkBelowExpected) ||
                     f.code == QLatin1String(codes::kFabricLinkBelowPeers))
                kind = HighlightKind::LinkBelowSpeed;
            else if (f.code == QLatin1String(codes::kFabricPortDown) ||
                     f.code == QLatin1String(codes::kFabricLinkMissing))
                kind = HighlightKind::PortDown;
            else
                continue;
            Highlight h{kind, {}, {}, {}, findingText(f)};
            for (std::size_t l : f.target.links)
                if (const auto dl = linkOfFabricLink_.find(l); dl != linkOfFabricLink_.end()) {
                    h.links.push_back(dl->second);
                    for (int end : {d_.links[dl->second].a, d_.links[dl->second].b})
                        if (d_.items[end].kind != ItemKind::Leaf && d_.items[end].kind != ItemKind::Spine &&
                            d_.items[end].kind != ItemKind::Core)
                            h.items.push_back(end);
                }
            for (const QString& id : f.target.nodes)
                if (const FabricNode* n = node(id))
                    if (const int e = endOf(*n); e >= 0)
                        h.items.push_back(e);
            if (!h.items.empty() || !h.links.empty())
                d_.highlights.push_back(h);
        }
    }
};

} // namespace

bool serversOpenByScale(const DiagramInput& input) {
    return input.hosts.size() <= 1 || (!input.fabric && input.hosts.size() <= 8);
}

Diagram buildDiagram(const DiagramInput& input, const DiagramOptions& options) {
    return Builder(input, options).run();
}

} // namespace rackscope
