#pragma once
// What the topology canvas and the exported diagrams draw, without a widget:
// the fabric's switches above the servers, each server collapsed or opened
// into its packages, NUMA nodes, PCIe switches, GPUs and NICs, the links with
// their speed and rail, and the highlights (socket crossings, pairs without
// GPUDirect RDMA, degraded links, ports down, rail breaks, slow hosts), each
// with the reason. Laid out once here; the painter and the canvas only read it.
#include "analysis/fabric_analysis.h"
#include "analysis/host_analysis.h"
#include "model/nvlink_fabric.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSet>
#include <QString>
#include <optional>
#include <vector>

namespace rackscope {

enum class ItemKind {
    Core,
    Spine,
    Leaf,
    Switch,
    Host,
    Package,
    Numa,
    HostBridge,
    PciSwitch,
    Gpu,
    Nic,
    NvSwitch,
    Other
};
constexpr int kItemKinds = 13;
QString itemKindName(ItemKind kind); // "gpu", "pcie-switch"...

// A NIC's network port, drawn on its top edge where its cable lands.
struct DiagramPort {
    QString name; // the fabric's port ("1"; LLDP's interface), else the NIC's net device ("ens1np0")
    std::optional<bool> up; // where a source says
};

struct DiagramItem {
    ItemKind kind = ItemKind::Other;
    QString id;      // unique: "host:node01", "node01/GPU0", "switch:S-0x...", "node01/node7"
    QString label;   // "GPU0", "node01", "Package 0"
    QString detail;  // a second line: "NVIDIA H100 80GB HBM3", "mlx5_0 · 400 Gb/s"
    QString host;    // the server it belongs to; empty for fabric switches
    QString pci;     // "0000:18:00.0" where known
    int parent = -1; // the item drawn around it
    int rail = -1;   // index into Diagram::rails, for NICs and their cables
    QRectF rect;
    // Every fact collected about it, each with where it came from, for the inspector.
    std::vector<std::pair<QString, QString>> facts;
    std::vector<DiagramPort> ports; // NICs
    QString c2c;         // GPUs on NVLink-C2C to their CPU (Grace): "C2C 223.6 GB/s", drawn as a tag
    bool closed = false; // a server drawn as a card: name, counts and a badge per verdict
    // Servers and switches: the shortest end of the name, from a separator on, that no other server (or
    // switch) ends in ("01-01" for "A09-P1-IBLEAF-01-01"): what is drawn where the whole name would be too
    // small to read. The whole name where no end tells it apart.
    QString shortLabel;
    bool container() const;
};

// About how wide `text` is drawn in bold at `pixels`, erring wide: the layout sizes boxes by it without a
// font (the painter shrinks what still does not fit).
double labelWidth(const QString& text, double pixels);

// A NIC's network port i: a tab on its top edge, right-aligned (the label keeps the left), narrower when
// there are many; a cable lands on its top.
QRectF portRect(const DiagramItem& nic, int port);

enum class LinkKind {
    NvLink,
    Fabric,
    GpuNic // a GPU to the NIC NCCL would give it, labelled with the path type (pairs not highlighted)
};

struct DiagramLink {
    int a = -1, b = -1; // items; a above b
    LinkKind kind = LinkKind::Fabric;
    QString label; // "4x NDR", "NV18", "x16 16 GT/s"
    int rail = -1;
    int count = 1;  // parallel cables drawn as one
    int bPort = -1; // the port of b (a NIC) it lands on, -1: b's top centre
    // A fabric cable's path, from a's bottom down to where it lands on b: straight runs in the gaps between
    // boxes (fabric_layout.h). Empty for NVLink, drawn as an arc.
    std::vector<QPointF> route;
};

enum class HighlightKind {
    CrossSocket,
    NoGpuDirect,
    PcieDegraded,
    LinkBelowSpeed,
    PortDown,
    RailBreak,
    SlowHost,
    RunTransport,
    NicThroughPeer, // a GPU that reaches its NCCL NIC only through an NVLink peer (PXN)
    NvlinkFabric,   // a GPU outside its NVLink domain, not registered, or unhealthy; an IMEX peer down
    CheckFailed,    // a server the rack check failed
    CheckWarned,    // a server the rack check warned of
    JobRank         // a rank of a running job that NCCL's RAS says is missing, dead or behind
};
constexpr int kHighlightKinds = 13;
QString
highlightKindName(HighlightKind kind); // "cross-socket", "no-gpudirect", ... (--highlight takes these)
std::optional<HighlightKind> highlightKindFromName(const QString& name);

struct Highlight {
    HighlightKind kind = HighlightKind::CrossSocket;
    std::vector<int> items; // a GPU-NIC pair: {gpu, nic}, drawn joined
    std::vector<int> links;
    QString path; // the path type for GPU-NIC pairs ("SYS")
    QString why;
};

// What the fabric's cables are drawn as: every route's segments, those of one rail and weight that lie on one
// line and overlap merged into one run (a bundle is drawn once, not once per cable).
struct CableRun {
    int rail = -1;
    bool parallel = false; // of links with parallel cables: drawn heavier
    QLineF line;
};

// A pod of servers (those cabled to the same leaves): its caption under them, in the words to draw from the
// most to the fewest ("su1-node[0001-0032] · 32 servers · 256 GPUs", then shorter), the first that fits.
struct DiagramGroup {
    QRectF rect; // the caption's
    QRectF pod;  // its leaves and servers: too small to read, the caption is drawn over them
    QStringList captions;
    QStringList servers, leaves; // their names
};

// A multi-node NVLink domain, drawn as a band behind its servers, one piece per run of neighbouring member
// servers in a row; its name and health on the first piece's foot.
struct NvlinkBand {
    QString domain;             // "dc6e40c4/2"
    QStringList servers;        // its servers that are drawn
    std::vector<QRectF> pieces; // each: the member cards' bounds and a foot of kNvlinkBandFoot for the label
    QStringList labels;         // from the most words to the fewest; the first that fits is drawn
    bool healthy = true;        // no NVLink verdict on any of its servers
    QString why;                // what is wrong, or what it is
};
constexpr double kNvlinkBandFoot = 16;

struct Diagram {
    QString title;       // cluster name, or the host for one
    QStringList sources; // where the facts came from
    QStringList rails;   // rail device names ("mlx5_0"), their colour index is their position
    std::vector<DiagramItem> items;
    std::vector<DiagramLink> links;
    std::vector<Highlight> highlights;
    std::vector<CableRun> cableRuns;
    std::vector<DiagramGroup> groups;
    std::vector<NvlinkBand> nvlinkBands;
    QRectF bounds;

    int find(const QString& id) const; // -1 when absent
    std::vector<int>
    search(const QString& text) const; // host, device id, name or PCI address, case-insensitive
    std::vector<int> children(int item) const;
    // The items a GPU or NIC reaches the network through or serves: its NCCL NIC (or GPUs) and a PXN
    // relay, drawn lit with it when it is selected.
    std::vector<int> pathPartners(int item) const;
    // The highlights that concern an item, for hover text.
    std::vector<const Highlight*> highlightsOf(int item) const;
};

// Gives every server and switch its shortLabel.
void giveShortLabels(Diagram& d);

// A server's worst verdict of the rack check, where it is a fail or a warn, and the checks that gave it.
struct CheckMark {
    QString host;
    bool failed = false; // else warned
    QString why;
};

// A running job's rank that NCCL's RAS names, on its server (and GPUs where known).
struct JobMark {
    QString host;
    QStringList devices; // "GPU4"; empty: the server
    QString why;
};

struct DiagramInput {
    QString title;
    std::vector<InspectedHost> hosts;
    std::optional<Fabric> fabric;
    QStringList flaggedHosts;          // from a straggler hunt
    std::vector<CheckMark> checkMarks; // the rack check's worst verdicts
    std::vector<JobMark> jobMarks;     // a watched job's ranks missing, dead or behind
    NvlinkFabric nvlink;               // multi-node NVLink: the domains, drawn as bands under their servers
    // What NCCL did in a load run (no GPUDirect RDMA, sockets, not the nearest NIC), with subjects "host",
    // "host/GPU0", "host/NIC1".
    std::vector<Finding> runFindings;
};

// Which servers are drawn opened into their parts; the others are cards.
enum class ServersOpen {
    ByScale, // every one for one server or a few without a fabric; at cluster scale none (serversOpenByScale)
    All,
    Listed // those in DiagramOptions::expanded
};

struct DiagramOptions {
    ServersOpen open = ServersOpen::ByScale;
    QSet<QString> expanded;       // ServersOpen::Listed
    bool onlyGpusAndNics = false; // hide other PCI devices and the containers left empty
    bool hideStorage = false;     // hide mass-storage controllers (PCI class 01)
    QStringList onlyHosts;        // empty: every host
};

Diagram buildDiagram(const DiagramInput& input, const DiagramOptions& options = {});
// Whether ServersOpen::ByScale opens every server: one server, or up to eight without a fabric. A cluster is
// read at Fit as cards, and a server opened on demand.
bool serversOpenByScale(const DiagramInput& input);

// The id of the item a fabric node is drawn as: a switch as itself; a CA's end of a cable as the NIC of
// its server that names that RDMA device when the server is open, else the server. Empty when it is not
// drawn; `drawn(id)` says whether an item is.
template <typename Drawn>
QString fabricNodeItemId(const FabricNode& n, const std::vector<InspectedHost>& hosts, const Drawn& drawn) {
    const auto ifDrawn = [&](const QString& id) { return drawn(id) ? id : QString(); };
    if (n.kind == FabricNodeKind::Switch)
        return ifDrawn(QStringLiteral("switch:") + n.id);
    if (n.host.isEmpty())
        return {};
    for (const InspectedHost& h : hosts)
        if (h.host.name == n.host)
            for (const Device& nic : h.host.nics)
                if (!n.device.isEmpty() && nic.rdmaDevices.contains(n.device))
                    if (const QString id = h.host.name + QLatin1Char('/') + nic.id; drawn(id))
                        return id;
    return ifDrawn(QStringLiteral("host:") + n.host);
}

} // namespace rackscope
