#include "nccl_xml_importer.h"

#include "device_facts.h"

#include <QRegularExpression>
#include <QXmlStreamReader>

namespace rackscope {
namespace {

constexpr size_t kMaxDevices = 4096;

std::optional<unsigned> hexAttr(const QXmlStreamAttributes& a, const char* name) {
    bool ok = false;
    const unsigned n = a.value(QLatin1String(name)).toString().toUInt(&ok, 16);
    return ok ? std::optional<unsigned>(n) : std::nullopt;
}

std::optional<int> intAttr(const QXmlStreamAttributes& a, const char* name) {
    bool ok = false;
    const int n = a.value(QLatin1String(name)).toInt(&ok);
    return ok ? std::optional<int>(n) : std::nullopt;
}

// "32.0 GT/s PCIe", "16 GT/s", "" -> 32.0, 16, unknown.
std::optional<double> linkSpeedGts(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*GT/s"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double v = m.captured(1).toDouble();
    return v > 0 ? std::optional<double>(v) : std::nullopt;
}

struct NvlinkEntry {
    PciAddress gpu, target;
    bool toSwitch;
    int count;
};

class Reader {
public:
    // `onlyHost`: the host_hash whose CPUs are read, where a dump holds several.
    Reader(const QByteArray& xml, const QString& location, const QString& onlyHost = {})
        : xml_(xml), onlyHost_(onlyHost) {
        host_.source = {SourceFormat::NcclTopoXml, location};
        host_.hostHash = onlyHost;
        host_.nodes.push_back({NodeKind::Machine, -1, {}, {}, {}});
    }

    ImportResult run() {
        bool sawSystem = false;
        while (!xml_.atEnd() && error_.isEmpty()) {
            const auto token = xml_.readNext();
            if (token == QXmlStreamReader::StartElement) {
                if (sawSystem) {
                    startElement();
                } else if (xml_.name() == QLatin1String("system")) {
                    sawSystem = true;
                    stack_.push_back(0);
                } else {
                    return ImportResult::fail(QStringLiteral("root element is <%1>, not NCCL's <system>")
                                                  .arg(xml_.name().toString().left(40)));
                }
            } else if (token == QXmlStreamReader::EndElement && !stack_.empty()) {
                if (xml_.name() == QLatin1String("gpu"))
                    gpuBus_.reset();
                if (xml_.name() == QLatin1String("nic"))
                    nic_.reset();
                stack_.pop_back();
            }
        }
        if (!error_.isEmpty())
            return ImportResult::fail(error_);
        if (xml_.hasError())
            return ImportResult::fail(QStringLiteral("malformed XML at line %1: %2")
                                          .arg(xml_.lineNumber())
                                          .arg(xml_.errorString()));
        if (!sawSystem)
            return ImportResult::fail(QStringLiteral("no <system> element"));
        for (Device& d : devices_)
            (d.kind == DeviceKind::Gpu   ? host_.gpus
             : d.kind == DeviceKind::Nic ? host_.nics
                                         : host_.others)
                .push_back(std::move(d));
        numberDevices(host_);
        resolveNvlinks();
        return ImportResult::ok(std::move(host_));
    }

private:
    int parentNode() const { return stack_.back(); }
    void pushSame() { stack_.push_back(stack_.back()); }

    void startElement() {
        const auto a = xml_.attributes();
        const auto name = xml_.name();
        if (name == QLatin1String("cpu")) {
            // A dump NCCL fused from several hosts (MNNVL) holds each host's CPUs under its host_hash, with
            // the same bus ids on each: each host is read on its own.
            const QString hash = a.value(QLatin1String("host_hash")).toString();
            if (!onlyHost_.isEmpty() && hash != onlyHost_) {
                xml_.skipCurrentElement();
                return;
            }
            if (!hash.isEmpty())
                host_.hostHash = hash;
            TopoNode n{NodeKind::Cpu, parentNode(), {}, {}, intAttr(a, "numaid")};
            if (n.numa && *n.numa < 0) // NCCL's "-1": the node is unknown
                n.numa.reset();
            if (n.numa)
                n.osIndex = unsigned(*n.numa);
            host_.nodes.push_back(n);
            stack_.push_back(int(host_.nodes.size()) - 1);
            cpuAffinity_[stack_.back()] = a.value(QLatin1String("affinity")).toString();
            if (const QString arch = a.value(QLatin1String("arch")).toString(); !arch.isEmpty())
                host_.arch = arch;
        } else if (name == QLatin1String("pci")) {
            startPci(a);
        } else if (name == QLatin1String("gpu")) {
            const auto it = deviceAt_.find(parentNode());
            if (it == deviceAt_.end() || devices_[it->second].kind != DeviceKind::Gpu)
                return fail(QStringLiteral("<gpu> outside a GPU's <pci>"));
            Device& d = devices_[it->second];
            d.cudaDevice = intAttr(a, "dev");
            if (auto gdr = intAttr(a, "gdr"))
                d.ncclGdr = *gdr != 0;
            gpuBus_ = d.pci;
            pushSame();
        } else if (name == QLatin1String("nvlink")) {
            const auto tclass = hexAttr(a, "tclass");
            const bool toSwitch = tclass && (*tclass >> 8) == 0x0680;
            auto target = PciAddress::parse(a.value(QLatin1String("target")).toString());
            // Where the NVSwitches are not on this host's PCI (HGX B200, GB200/GB300 trays), NCCL names them
            // all "fffffff:ff:ff.0": one switch fabric every GPU reaches.
            if (!target && toSwitch)
                target = PciAddress{0xfffffff, 0xff, 0xff, 0};
            const auto count = intAttr(a, "count");
            if (!gpuBus_ || !target || !count || *count <= 0)
                return fail(QStringLiteral("<nvlink> without a GPU, a target bus id or a link count"));
            nvlinks_.push_back({*gpuBus_, *target, toSwitch, *count});
            pushSame();
        } else if (name == QLatin1String("nic")) {
            const auto it = deviceAt_.find(parentNode());
            nic_ = NicContext{it == deviceAt_.end() ? std::nullopt : std::optional<size_t>(it->second),
                              parentNode(), false};
            pushSame();
        } else if (name == QLatin1String("net")) {
            if (!nic_)
                return fail(QStringLiteral("<net> outside a <nic>"));
            addNet(a);
            pushSame();
        } else if (name == QLatin1String("c2c")) {
            // NVLink-C2C from the GPU to its CPU: bw is MB/s per link (44712 x 5 links: NCCL's C2C[223.6]).
            const auto it = deviceAt_.find(parentNode());
            const auto count = intAttr(a, "count");
            bool ok = false;
            const double bw = a.value(QLatin1String("bw")).toDouble(&ok);
            if (!gpuBus_ || it == deviceAt_.end() || !count || *count <= 0 || !ok || bw <= 0)
                return fail(QStringLiteral("<c2c> without a GPU, a link count or a bandwidth"));
            devices_[it->second].c2cLinks = *count;
            devices_[it->second].c2cGBps = bw * *count / 1000;
            pushSame();
        } else {
            // Elements NCCL may add (nvs...) are noted, not guessed at.
            host_.notes
                << QStringLiteral("line %1: <%2> not modelled").arg(xml_.lineNumber()).arg(name.toString());
            pushSame();
        }
    }

    void startPci(const QXmlStreamAttributes& a) {
        const QString busText = a.value(QLatin1String("busid")).toString();
        const auto bus = PciAddress::parse(busText);
        if (!bus)
            return fail(QStringLiteral("<pci> busid '%1' is not a PCI address").arg(busText.left(40)));
        const auto cls = hexAttr(a, "class");
        const auto vendor = hexAttr(a, "vendor");
        // NCCL already folds each switch's ports into one <pci> node.
        const bool bridge = cls && (*cls >> 8) == 0x0604;
        host_.nodes.push_back(
            {bridge ? NodeKind::PciSwitch : NodeKind::PciDevice, parentNode(), {}, bus, {}});
        const int nodeIndex = int(host_.nodes.size()) - 1;
        stack_.push_back(nodeIndex);
        if (bridge)
            return;
        if (devices_.size() >= kMaxDevices)
            return fail(QStringLiteral("more than %1 devices").arg(kMaxDevices));

        Device d;
        d.kind = cls ? deviceKindFromClass(*cls, vendor) : DeviceKind::Other;
        d.pci = bus;
        d.pciClass = cls;
        d.vendorId = vendor;
        d.deviceId = hexAttr(a, "device");
        d.node = nodeIndex;
        setLocality(d, nodeIndex);
        // NCCL fills link_speed/link_width from max_link_speed/max_link_width.
        d.linkMax.gts = linkSpeedGts(a.value(QLatin1String("link_speed")).toString());
        if (auto w = intAttr(a, "link_width"); w && *w > 0)
            d.linkMax.width = *w;
        if (d.kind == DeviceKind::Nic) {
            const auto fact = rdmaFromPciIds(d.vendorId, d.deviceId, d.pciClass);
            d.rdma = fact.rdma;
            d.rdmaEvidence = fact.evidence;
        }
        if (!cls)
            host_.notes << QStringLiteral("PCI %1 has no class: its kind is unknown").arg(bus->toString());
        deviceAt_[nodeIndex] = devices_.size();
        devices_.push_back(std::move(d));
    }

    // One NIC per NCCL net (an RDMA device or a socket interface), as nvidia-smi lists them.
    void addNet(const QXmlStreamAttributes& a) {
        Device d;
        if (nic_->pciDevice) {
            d = devices_[*nic_->pciDevice];
        } else { // <nic> straight under <cpu>: no PCI address given
            d.node = nic_->node;
            setLocality(d, nic_->node);
        }
        d.kind = DeviceKind::Nic;
        d.name = a.value(QLatin1String("name")).toString().left(64);
        if (auto speed = intAttr(a, "speed"); speed && *speed > 0)
            d.speedMbps = *speed;
        if (auto gdr = intAttr(a, "gdr"))
            d.ncclGdr = *gdr != 0;
        const auto guid = hexAttr(a, "guid");
        if (looksLikeRdmaDeviceName(d.name)) {
            d.rdma = true;
            d.rdmaDevices = {d.name};
            d.rdmaEvidence = QStringLiteral("NCCL net %1 is an RDMA device").arg(d.name);
        } else if (guid && *guid != 0) {
            d.rdma = true;
            d.rdmaEvidence = QStringLiteral("NCCL net %1 has a port GUID (IB/RoCE verbs)").arg(d.name);
        } else if (!d.rdma) {
            d.rdmaEvidence = QStringLiteral("NCCL net %1 has no GUID and no RDMA device name").arg(d.name);
        }
        if (!d.rdma.value_or(false))
            d.netdevs = {d.name};
        if (nic_->pciDevice && !nic_->sawNet) {
            devices_[*nic_->pciDevice] = std::move(d); // the first net stands for the PCI function
        } else if (devices_.size() < kMaxDevices) {
            devices_.push_back(std::move(d));
        }
        nic_->sawNet = true;
    }

    void setLocality(Device& d, int node) const {
        for (int n = node; n >= 0; n = host_.nodes[n].parent)
            if (host_.nodes[n].kind == NodeKind::Cpu) {
                d.numa = host_.nodes[n].numa;
                if (auto it = cpuAffinity_.find(n); it != cpuAffinity_.end())
                    d.cpuAffinity = it->second;
                return;
            }
    }

    // GPU pairs: direct links, and links through the NVSwitches both reach.
    void resolveNvlinks() {
        host_.nvlinkStated = !nvlinks_.empty(); // a vendor's NCCL_TOPO_FILE may leave NVLink out
        std::map<PciAddress, int> gpuByBus;
        for (int i = 0; i < int(host_.gpus.size()); ++i)
            if (host_.gpus[i].pci)
                gpuByBus[*host_.gpus[i].pci] = i;
        std::map<int, std::map<PciAddress, int>> switchLinks; // gpu -> switch -> links
        for (const NvlinkEntry& l : nvlinks_) {
            const int gpu = gpuByBus.at(l.gpu);
            const auto peer = gpuByBus.find(l.target);
            if (l.toSwitch) {
                switchLinks[gpu][l.target] += l.count;
            } else if (peer != gpuByBus.end() && peer->second == gpu) {
                host_.notes << QStringLiteral("%1 lists %2 NVLinks to itself; ignored")
                                   .arg(host_.gpus[gpu].id)
                                   .arg(l.count);
            } else if (peer != gpuByBus.end()) {
                int& links = host_.nvlinks[std::minmax(gpu, peer->second)];
                links = std::max(links, l.count);
            } else {
                host_.notes << QStringLiteral("%1 has NVLinks to %2, which the file does not list")
                                   .arg(host_.gpus[gpu].id, l.target.toString());
            }
        }
        addNvlinksThroughSwitches(host_, switchLinks);
    }

    void fail(const QString& message) {
        if (error_.isEmpty())
            error_ = QStringLiteral("line %1: %2").arg(xml_.lineNumber()).arg(message);
        stack_.push_back(stack_.empty() ? 0 : stack_.back());
    }

    struct NicContext {
        std::optional<size_t> pciDevice; // the <pci> the <nic> sits in, if any
        int node;
        bool sawNet;
    };

    QXmlStreamReader xml_;
    HostTopology host_;
    std::vector<int> stack_;
    std::vector<Device> devices_;
    std::map<int, size_t> deviceAt_; // tree node -> devices_ index
    std::map<int, QString> cpuAffinity_;
    std::vector<NvlinkEntry> nvlinks_;
    const QString onlyHost_;
    std::optional<PciAddress> gpuBus_;
    std::optional<NicContext> nic_;
    QString error_;
};

// The distinct host_hash values of the <cpu> elements, in order; empty for a
// dump that names none or that is not well-formed (the reader reports that).
QStringList hostHashes(const QByteArray& xml) {
    QXmlStreamReader r(xml);
    QStringList hashes;
    while (!r.atEnd() && hashes.size() <= int(kMaxDevices)) {
        if (r.readNext() == QXmlStreamReader::StartElement && r.name() == QLatin1String("cpu")) {
            const QString hash = r.attributes().value(QLatin1String("host_hash")).toString();
            if (!hash.isEmpty() && !hashes.contains(hash))
                hashes << hash;
        }
    }
    return r.hasError() ? QStringList() : hashes;
}

} // namespace

ImportResult importNcclTopoXml(const QByteArray& xml, const QString& location) {
    const QStringList hosts = hostHashes(xml);
    if (hosts.size() <= 1)
        return Reader(xml, location).run();
    ImportResult all;
    for (const QString& hash : hosts) {
        ImportResult one = Reader(xml, location, hash).run();
        if (!one.host)
            return ImportResult::fail(QStringLiteral("host_hash %1: %2").arg(hash, one.error));
        one.host->notes << QStringLiteral("one of %1 hosts NCCL fused into this dump (MNNVL), host_hash %2")
                               .arg(hosts.size())
                               .arg(hash);
        if (!all.host)
            all.host = std::move(one.host);
        else
            all.moreHosts.push_back(std::move(*one.host));
    }
    return all;
}

} // namespace rackscope
