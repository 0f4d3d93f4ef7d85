// The diagram model: what is drawn for real topologies and fabrics, where,
// and which highlights it carries, checked against what the fixtures say.
#include "analysis/host_analysis.h"
#include "diagram/diagram.h"
#include "import/cluster_file.h"
#include "render/diagram_painter.h"
#include "test_support.h"
#include "workspace/session_file.h"
#include "workspace/sources.h"

#include <QCollator>
#include <QFontMetricsF>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <set>

using namespace rackscope;
using namespace rackscope::test;

namespace {

DiagramInput inputOf(const QStringList& files) {
    LoadedSources s = loadFixtureSources(files);
    for (const FailedInput& f : s.failed)
        qWarning("%s: %s", qPrintable(f.input), qPrintable(f.message));
    return s.input;
}

// nvidia-smi topo -m read here on its own: row name -> column name -> entry.
std::map<QString, std::map<QString, QString>> matrix(const QString& name) {
    const QStringList lines = QString::fromUtf8(fixtureBytes(name)).split(QLatin1Char('\n'));
    const QStringList header = lines.first().split(QLatin1Char('\t'), Qt::SkipEmptyParts);
    std::map<QString, std::map<QString, QString>> m;
    for (const QString& line : lines.mid(1)) {
        const QStringList cells = line.split(QLatin1Char('\t'));
        if (cells.size() < 2 || cells[0].trimmed().isEmpty() || line.startsWith(QLatin1Char(' ')))
            continue;
        for (int c = 1; c < cells.size() && c - 1 < header.size(); ++c)
            m[cells[0].trimmed()][header[c - 1].trimmed()] = cells[c].trimmed();
    }
    return m;
}

std::set<QString> highlighted(const Diagram& d, HighlightKind kind) {
    std::set<QString> out;
    for (const Highlight& h : d.highlights)
        if (h.kind == kind) {
            QStringList ends;
            for (int i : h.items)
                ends << d.items[i].label;
            out.insert(ends.join(QLatin1Char('>')));
        }
    return out;
}

// Every child inside its parent, no two siblings overlapping, ids unique.
void checkLayout(const Diagram& d, const QString& what) {
    std::set<QString> ids;
    for (std::size_t i = 0; i < d.items.size(); ++i) {
        const DiagramItem& it = d.items[i];
        QVERIFY2(ids.insert(it.id).second, qPrintable(what + QStringLiteral(": id twice: ") + it.id));
        QVERIFY2(it.rect.width() > 0 && it.rect.height() > 0,
                 qPrintable(what + QStringLiteral(": empty box ") + it.id));
        QVERIFY2(d.bounds.contains(it.rect),
                 qPrintable(what + QStringLiteral(": outside the bounds ") + it.id));
        if (it.parent >= 0)
            QVERIFY2(d.items[it.parent].rect.contains(it.rect),
                     qPrintable(what + QStringLiteral(": ") + it.id + QStringLiteral(" leaves its parent")));
        for (std::size_t j = i + 1; j < d.items.size(); ++j)
            if (d.items[j].parent == it.parent)
                QVERIFY2(!d.items[j].rect.intersects(it.rect),
                         qPrintable(what + QStringLiteral(": ") + it.id + QStringLiteral(" overlaps ") +
                                    d.items[j].id));
    }
}

// Whether the segment a-b passes through the inside of r (Liang-Barsky clipping).
bool crosses(QPointF a, QPointF b, const QRectF& r) {
    const QRectF in = r.adjusted(1, 1, -1, -1);
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - in.left(), in.right() - a.x(), a.y() - in.top(), in.bottom() - a.y()};
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    return true;
}

bool isBox(const DiagramItem& it) { // what a cable must not pass through unless it ends there
    return it.kind == ItemKind::Host || it.kind == ItemKind::Leaf || it.kind == ItemKind::Spine ||
           it.kind == ItemKind::Core || it.kind == ItemKind::Switch;
}

// What a design review needs of the picture: no cable through a server or switch it does not end in, every
// server and switch name drawn whole at its full size, no bundle label on a box or on another label.
void checkReadable(const Diagram& d, const QString& what) {
    std::vector<int> boxes;
    // the boxes by the cells of a coarse grid they cover, so a segment is tried against its neighbours only
    constexpr double kCell = 500;
    std::map<std::pair<int, int>, std::vector<int>> grid;
    const auto cellsOf = [&](const QRectF& r, const auto& each) {
        for (int x = int(std::floor(r.left() / kCell)); x <= int(std::floor(r.right() / kCell)); ++x)
            for (int y = int(std::floor(r.top() / kCell)); y <= int(std::floor(r.bottom() / kCell)); ++y)
                each(std::pair{x, y});
    };
    for (std::size_t i = 0; i < d.items.size(); ++i)
        if (isBox(d.items[i])) {
            boxes.push_back(int(i));
            cellsOf(d.items[i].rect, [&](std::pair<int, int> c) { grid[c].push_back(int(i)); });
        }
    const auto within = [&](int box, int item) {
        for (int i = item; i >= 0; i = d.items[std::size_t(i)].parent)
            if (i == box)
                return true;
        return false;
    };
    for (const DiagramLink& l : d.links) {
        if (l.kind != LinkKind::Fabric)
            continue;
        QVERIFY2(l.route.size() >= 2, qPrintable(what + QStringLiteral(": a cable without a route")));
        for (const QPointF& p : l.route)
            QVERIFY2(d.bounds.contains(p),
                     qPrintable(what + QStringLiteral(": a cable runs out of the bounds")));
        for (std::size_t k = 1; k < l.route.size(); ++k) {
            std::set<int> near;
            cellsOf(QRectF(l.route[k - 1], l.route[k]).normalized(), [&](std::pair<int, int> c) {
                if (const auto it = grid.find(c); it != grid.end())
                    near.insert(it->second.begin(), it->second.end());
            });
            for (int box : near)
                if (!within(box, l.a) && !within(box, l.b))
                    QVERIFY2(
                        !crosses(l.route[k - 1], l.route[k], d.items[std::size_t(box)].rect),
                        qPrintable(QStringLiteral("%1: the cable %2 - %3 crosses %4")
                                       .arg(what, d.items[std::size_t(l.a)].id, d.items[std::size_t(l.b)].id,
                                            d.items[std::size_t(box)].id)));
        }
    }
    QFont bold(QStringLiteral("DejaVu Sans"));
    bold.setPixelSize(12);
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    for (int box : boxes) {
        const DiagramItem& it = d.items[std::size_t(box)];
        QVERIFY2(fm.horizontalAdvance(it.label) <= it.rect.width() - 10,
                 qPrintable(what + QStringLiteral(": the name ") + it.label + QStringLiteral(" is cut")));
    }
    const std::vector<BundleLabel> labels = bundleLabels(d);
    // A pod's caption: drawn whole, on no box, no cable and no cable label.
    for (const DiagramGroup& g : d.groups) {
        QVERIFY2(!placeCaption(g, 1.0).text.isEmpty(),
                 qPrintable(what + QStringLiteral(": a pod's caption is cut")));
        for (const DiagramItem& it : d.items)
            QVERIFY2(!g.rect.intersects(it.rect),
                     qPrintable(what + QStringLiteral(": the caption ") + g.captions.front() +
                                QStringLiteral(" covers ") + it.id));
        for (const BundleLabel& b : labels)
            QVERIFY2(!g.rect.intersects(b.rect),
                     qPrintable(what + QStringLiteral(": a caption on ") + b.text));
        for (const CableRun& run : d.cableRuns)
            QVERIFY2(
                !crosses(run.line.p1(), run.line.p2(), g.rect),
                qPrintable(what + QStringLiteral(": a cable crosses the caption ") + g.captions.front()));
    }
    for (std::size_t i = 0; i < labels.size(); ++i) {
        for (std::size_t j = i + 1; j < labels.size(); ++j)
            QVERIFY2(!labels[i].rect.intersects(labels[j].rect),
                     qPrintable(what + QStringLiteral(": two cable labels overlap")));
        for (const DiagramItem& it : d.items)
            QVERIFY2(!labels[i].rect.intersects(it.rect),
                     qPrintable(what + QStringLiteral(": the cable label ") + labels[i].text +
                                QStringLiteral(" covers ") + it.id));
    }
}

// What a window of `canvas` pixels shows at Fit where the rest of the text is too small to draw: the names
// (whole or their short labels) of how many switches and server cards, and the pods' captions, none shared.
struct NamesAtFit {
    int switches = 0, switchesNamed = 0, cards = 0, cardsNamed = 0, captioned = 0, captionsOverPods = 0;
    bool textDrawn = false;
    QStringList problems; // a name that is no end of the item's, or is drawn twice
};
NamesAtFit namesAtFit(const Diagram& d, QSizeF canvas) {
    NamesAtFit n;
    const double scale = std::min(canvas.width() / d.bounds.width(), canvas.height() / d.bounds.height());
    n.textDrawn = scale * 10 >= 4.5;
    std::set<QString> switchNames, cardNames;
    for (const DiagramItem& it : d.items) {
        const bool sw = it.kind == ItemKind::Leaf || it.kind == ItemKind::Spine ||
                        it.kind == ItemKind::Core || it.kind == ItemKind::Switch;
        const bool card = it.kind == ItemKind::Host && it.closed;
        if (!sw && !card)
            continue;
        (sw ? n.switches : n.cards) += 1;
        const QString name = farName(it, scale);
        if (name.isEmpty())
            continue;
        if (!it.label.endsWith(name))
            n.problems << name + QStringLiteral(" is not the end of ") + it.label;
        if (!(sw ? switchNames : cardNames).insert(name).second)
            n.problems << name + QStringLiteral(" is drawn twice");
        (sw ? n.switchesNamed : n.cardsNamed) += 1;
    }
    for (const DiagramGroup& g : d.groups) {
        const PlacedCaption c = placeCaption(g, scale);
        n.captioned += !c.text.isEmpty();
        n.captionsOverPods += !c.text.isEmpty() && c.overPod;
        if (!c.text.isEmpty() && !(c.overPod ? g.pod : g.rect).contains(c.rect))
            n.problems << c.text + QStringLiteral(" is drawn out of its place");
        if (!c.text.isEmpty() && !c.overPod) // under the pod: on none of its names
            for (const DiagramItem& it : d.items)
                if (it.rect.intersects(c.rect))
                    n.problems << c.text + QStringLiteral(" covers ") + it.id;
    }
    return n;
}

} // namespace

class TestDiagram : public QObject {
    Q_OBJECT
private slots:
    // The K40m server: GPU0 and GPU1 reach the only NIC across the sockets
    // (SOC), GPU2 and GPU3 through the host bridge (PHB); none is within
    // PXB, NCCL's default GPUDirect RDMA distance.
    void crossSocketAndNoGpuDirectPairs() {
        const QString name = QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt");
        const Diagram d = buildDiagram(inputOf({name}));
        std::set<QString> cross, noGdr;
        for (const auto& [row, cols] : matrix(name)) {
            if (!row.startsWith(QLatin1String("GPU")))
                continue;
            const QString path = cols.at(QStringLiteral("mlx4_0"));
            if (path == QLatin1String("SOC") || path == QLatin1String("SYS"))
                cross.insert(row + QStringLiteral(">NIC0"));
            if (path != QLatin1String("PIX") && path != QLatin1String("PXB"))
                noGdr.insert(row + QStringLiteral(">NIC0"));
        }
        QCOMPARE(cross, (std::set<QString>{QStringLiteral("GPU0>NIC0"), QStringLiteral("GPU1>NIC0")}));
        QCOMPARE(highlighted(d, HighlightKind::CrossSocket), cross);
        QCOMPARE(highlighted(d, HighlightKind::NoGpuDirect), noGdr);
        for (const Highlight& h : d.highlights) {
            QVERIFY2(!h.why.isEmpty(), "every highlight says why");
            if (h.kind == HighlightKind::CrossSocket)
                QCOMPARE(h.path, QStringLiteral("SYS"));
        }
        // Hover text: the highlights of an item.
        QCOMPARE(d.highlightsOf(d.find(QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC/GPU0"))).size(),
                 std::size_t(2));
        checkLayout(d, name);
    }

    void everyDeviceOfEveryRealTopologyOnceAndWithoutOverlap() {
        QStringList names = fixtures(QStringLiteral("hwloc-*.xml")) +
                            fixtures(QStringLiteral("nccl-topo-*.xml")) +
                            fixtures(QStringLiteral("topo-m-*.txt"));
        QVERIFY(names.size() >= 20);
        for (const QString& name : names) {
            const DiagramInput in = inputOf({name});
            QCOMPARE(in.hosts.size(), std::size_t(1));
            const Diagram d = buildDiagram(in);
            const HostTopology& h = in.hosts.front().host;
            for (const auto* list : {&h.gpus, &h.nics, &h.others})
                for (const Device& dev : *list)
                    QVERIFY2(d.find(h.name + QLatin1Char('/') + dev.id) >= 0,
                             qPrintable(name + QStringLiteral(": no ") + dev.id));
            checkLayout(d, name);
            checkReadable(d, name);
            // Every GPU's path to the NIC NCCL would give it is drawn once: a labelled path, or the
            // highlight that says what is wrong with it; selecting the GPU lights that NIC.
            const InspectedHost& ih = in.hosts.front();
            for (const auto& [gpu, nic] : ih.analysis.ncclNic) {
                const int g = d.find(h.name + QLatin1Char('/') + gpu),
                          n = d.find(h.name + QLatin1Char('/') + nic);
                int drawn = 0;
                for (const DiagramLink& l : d.links)
                    drawn += l.kind == LinkKind::GpuNic && l.a == g && l.b == n;
                for (const Highlight& hl : d.highlights)
                    drawn +=
                        (hl.kind == HighlightKind::CrossSocket || hl.kind == HighlightKind::NoGpuDirect ||
                         hl.kind == HighlightKind::NicThroughPeer) &&
                        hl.items.front() == g && hl.items.back() == n &&
                        (hl.kind != HighlightKind::NoGpuDirect ||
                         !ih.analysis.pair(gpu, nic)->crossSocket.value_or(false));
                QVERIFY2(
                    drawn == 1,
                    qPrintable(QStringLiteral("%1: %2 -> %3 drawn %4 times").arg(name, gpu, nic).arg(drawn)));
                const std::vector<int> lit = d.pathPartners(g);
                QVERIFY2(std::find(lit.begin(), lit.end(), n) != lit.end(), qPrintable(name + gpu));
            }
            // Where the source gives no tree, GPUs in a box per NUMA node, each NIC near a GPU beside it.
            if (h.nodes.empty())
                for (const Device& g : h.gpus) {
                    const DiagramItem& it = d.items[std::size_t(d.find(h.name + QLatin1Char('/') + g.id))];
                    if (g.numa) {
                        QCOMPARE(d.items[std::size_t(it.parent)].kind, ItemKind::Numa);
                        QCOMPARE(d.items[std::size_t(it.parent)].label,
                                 QStringLiteral("NUMA node %1").arg(*g.numa));
                    }
                }
            // Where the source gives a tree, a GPU sits in the same package as in the tree.
            for (const Device& g : h.gpus) {
                if (!g.socket)
                    continue;
                int at = d.items[d.find(h.name + QLatin1Char('/') + g.id)].parent;
                while (at >= 0 && d.items[at].kind != ItemKind::Package)
                    at = d.items[at].parent;
                if (at >= 0)
                    QCOMPARE(d.items[at].label, QStringLiteral("Package %1").arg(*g.socket));
            }
        }
    }

    void filtersAndClosedServers() {
        const QString name = QStringLiteral("hwloc-32em64t-2n8c2t-pci-wholeio.xml");
        const DiagramInput in = inputOf({name});
        const Diagram all = buildDiagram(in);
        DiagramOptions only;
        only.onlyGpusAndNics = true;
        const Diagram some = buildDiagram(in, only);
        QVERIFY(some.items.size() < all.items.size());
        for (const DiagramItem& it : some.items)
            QVERIFY(it.kind != ItemKind::Other);
        for (const DiagramItem& it : some.items)
            if (it.kind == ItemKind::PciSwitch)
                QVERIFY2(!some.children(some.find(it.id)).empty(), "no empty switch left");
        checkLayout(some, name);
        auto storageDevices = [](const Diagram& d) {
            int n = 0;
            for (const DiagramItem& it : d.items)
                for (const auto& [fact, value] : it.facts)
                    n += fact == QLatin1String("PCI class") && value.startsWith(QLatin1String("01"));
            return n;
        };
        DiagramOptions storage;
        storage.hideStorage = true;
        QVERIFY(storageDevices(all) > 0);
        QCOMPARE(storageDevices(buildDiagram(in, storage)), 0);
        DiagramOptions closed;
        closed.open = ServersOpen::Listed;
        const Diagram c =
            buildDiagram(inputOf({QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt")}), closed);
        QCOMPARE(c.items.size(), std::size_t(1));
        QCOMPARE(c.items.front().detail, QStringLiteral("4 GPUs · 1 NICs"));
        for (const Highlight& h : c.highlights)
            QCOMPARE(h.items, std::vector<int>{0}); // the highlights stay, on the server
        QCOMPARE(c.highlights.size(), std::size_t(6));
    }

    // NVLink as the matrix states it: the V100 hybrid cube mesh pair by pair,
    // an NVSwitch system (every pair) as one band.
    void nvlinks() {
        const QString cube = QStringLiteral("topo-m-8xV100-SXM2-hybrid-cube-mesh-no-legend.txt");
        const Diagram d = buildDiagram(inputOf({cube}));
        std::set<QString> expected, drawn;
        for (const auto& [row, cols] : matrix(cube))
            for (const auto& [col, v] : cols)
                if (v.startsWith(QLatin1String("NV")) && row < col)
                    expected.insert(row + QLatin1Char('-') + col + QLatin1Char(' ') + v);
        for (const DiagramLink& l : d.links)
            if (l.kind == LinkKind::NvLink) {
                QString a = d.items[l.a].label, b = d.items[l.b].label;
                if (b < a)
                    std::swap(a, b);
                drawn.insert(a + QLatin1Char('-') + b + QLatin1Char(' ') + l.label);
            }
        QCOMPARE(expected.size(), std::size_t(16));
        QCOMPARE(drawn, expected);

        const Diagram mesh =
            buildDiagram(inputOf({QStringLiteral("nccl-topo-oci-bm-gpu-h100-8-kubernetes.xml")}));
        const int band = mesh.find(QStringLiteral("nccl-topo-oci-bm-gpu-h100-8-kubernetes/nvlink"));
        QVERIFY(band >= 0);
        int toBand = 0;
        for (const DiagramLink& l : mesh.links)
            toBand += l.b == band;
        QCOMPARE(toBand, 8);
        checkLayout(mesh, QStringLiteral("H100 with its NVLink band"));
        // A DGX-2's two boards: a band each, no arc.
        const Diagram dgx2 = buildDiagram(inputOf({QStringLiteral("hwloc-nvidiaDGX2.xml")}));
        int bands = 0, arcs = 0;
        for (const DiagramLink& l : dgx2.links)
            if (l.kind == LinkKind::NvLink)
                (dgx2.items[std::size_t(l.b)].kind == ItemKind::NvSwitch ? bands : arcs) += 1;
        QCOMPARE(arcs, 0);
        QCOMPARE(bands, 16);
        QVERIFY(dgx2.find(QStringLiteral("hwloc-nvidiaDGX2/nvlink-2")) >= 0);
        checkLayout(dgx2, QStringLiteral("DGX-2"));
    }

    void searchFindsHostsDevicesAndPciAddresses() {
        const Diagram d = buildDiagram(inputOf({QStringLiteral("nccl-topo-oci-bm-gpu-h100-8-kubernetes.xml"),
                                                QStringLiteral("hwloc-nvidiaDGX2.xml")}));
        std::vector<int> found = d.search(QStringLiteral("0000:2d:00.0"));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(d.items[found.front()].label, QStringLiteral("GPU1"));
        QVERIFY(d.search(QStringLiteral("mlx5_19")).size() == 1);
        QVERIFY(d.search(QStringLiteral("hwloc-nvidiaDGX2")).size() > 10); // the server and everything in it
        QVERIFY(d.search(QStringLiteral("  ")).empty());
        QCOMPARE(d.title, QStringLiteral("2 servers"));
        // A source with no host name is drawn under its file name, and says so.
        const DiagramItem& host =
            d.items[d.find(QStringLiteral("host:nccl-topo-oci-bm-gpu-h100-8-kubernetes"))];
        QVERIFY(std::any_of(host.facts.begin(), host.facts.end(), [](const auto& f) {
            return f.second.contains(QLatin1String("is its file name"));
        }));
    }

    // The SuperPOD capture: spines above leaves above servers; every rail
    // break the fabric analysis finds is drawn on its cable.
    void aDegradedPcieLinkIsDrawnOnItsDevice() {
        DiagramInput in = inputOf({QStringLiteral("hwloc-nvidiaDGX2.xml")});
        QCOMPARE(in.hosts.size(), std::size_t(1));
        InspectedHost& h = in.hosts.front();
        Device& gpu = h.host.gpus.at(3);
        gpu.linkCurrent = {8.0, 16, {}};
        gpu.linkMax = {16.0, 16, {}};
        h.analysis = analyzeHost(h.host);
        const Diagram d = buildDiagram(in);
        const int item = d.find(h.host.name + QLatin1Char('/') + gpu.id);
        QVERIFY(item >= 0);
        // The finding's target names the device; the highlight is drawn on it, with the finding's sentence.
        const auto drawn = std::find_if(d.highlights.begin(), d.highlights.end(), [&](const Highlight& hl) {
            return hl.kind == HighlightKind::PcieDegraded &&
                   std::find(hl.items.begin(), hl.items.end(), item) != hl.items.end();
        });
        QVERIFY(drawn != d.highlights.end());
        QVERIFY2(drawn->why.contains(QStringLiteral("below its capability")), qPrintable(drawn->why));
    }

    void fabricTiersRailsAndRailBreaks() {
        const QString name = QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt");
        const DiagramInput in = inputOf({name});
        QVERIFY(in.fabric);
        const FabricAnalysis fa = analyseFabric(*in.fabric);
        const Diagram d = buildDiagram(in);
        int breaks = 0;
        for (const Finding& f : fa.findings)
            breaks += f.code == QLatin1String("fabric-rail-break");
        QVERIFY(breaks >= 1);
        int drawnBreaks = 0;
        for (const Highlight& h : d.highlights)
            if (h.kind == HighlightKind::RailBreak) {
                ++drawnBreaks;
                QCOMPARE(h.links.size(), std::size_t(1));
                QVERIFY(d.items[h.items.front()].kind == ItemKind::Host);
            }
        QCOMPARE(drawnBreaks, breaks);
        QCOMPARE(d.rails.size(), qsizetype(fa.rails.size()));
        double spineBottom = 0, leafTop = 1e18, leafBottom = 0, hostTop = 1e18;
        int hosts = 0;
        for (const DiagramItem& it : d.items) {
            if (it.kind == ItemKind::Spine)
                spineBottom = std::max(spineBottom, it.rect.bottom());
            if (it.kind == ItemKind::Leaf) {
                leafTop = std::min(leafTop, it.rect.top());
                leafBottom = std::max(leafBottom, it.rect.bottom());
            }
            if (it.kind == ItemKind::Host) {
                hostTop = std::min(hostTop, it.rect.top());
                ++hosts;
            }
        }
        QCOMPARE(hosts, int(fa.hosts.size()));
        QVERIFY(spineBottom < leafTop && leafBottom > hostTop); // spines on top; pods in bands below
        for (const DiagramLink& l : d.links)
            QVERIFY(d.items[l.a].rect.top() <= d.items[l.b].rect.top()); // cables go down
        checkLayout(d, name);
        checkReadable(d, name);
        // At cluster scale servers are cards, and the whole is about the shape of a 16:9 window.
        QVERIFY(std::all_of(d.items.begin(), d.items.end(),
                            [](const DiagramItem& it) { return it.kind != ItemKind::Host || it.closed; }));
        const double aspect = d.bounds.width() / d.bounds.height();
        QVERIFY2(aspect > 1.2 && aspect < 2.6, qPrintable(QString::number(aspect)));
        // Spines by name; each pod's leaves in rail order, over its servers.
        std::map<double, QString> spineAt; // left to right
        for (const DiagramItem& it : d.items)
            if (it.kind == ItemKind::Spine)
                spineAt[it.rect.left()] = it.label;
        QStringList spines;
        for (const auto& [x, spine] : spineAt)
            spines << spine;
        QStringList byName = spines;
        QCollator natural;
        natural.setNumericMode(true);
        std::sort(byName.begin(), byName.end(), natural);
        QCOMPARE(spines, byName);
        std::map<double, std::vector<const DiagramItem*>> leafRows; // by top
        for (const DiagramItem& it : d.items)
            if (it.kind == ItemKind::Leaf)
                leafRows[it.rect.top()].push_back(&it);
        for (auto& [top, row] : leafRows) {
            std::sort(row.begin(), row.end(), [](const DiagramItem* a, const DiagramItem* b) {
                return a->rect.left() < b->rect.left();
            });
            for (std::size_t i = 1; i < row.size(); ++i)
                if (row[i]->rect.left() - row[i - 1]->rect.right() < 60) // the same pod
                    QVERIFY2(row[i - 1]->rail <= row[i]->rail,
                             qPrintable(row[i - 1]->label + QStringLiteral(" before ") + row[i]->label));
        }

        // Only some servers: the leaves they reach, not the others.
        DiagramOptions few;
        few.onlyHosts = {fa.hosts[1].name, fa.hosts[2].name};
        const Diagram small = buildDiagram(in, few);
        int smallHosts = 0;
        for (const DiagramItem& it : small.items)
            smallHosts += it.kind == ItemKind::Host;
        QCOMPARE(smallHosts, 2);
        QVERIFY(small.items.size() < d.items.size() / 4);
    }

    // At Fit in the canvas of a 1920x1080 window (docks beside it), where the text is too small to draw, the
    // switches and server cards still show their names, whole or by the end that tells them apart, and each
    // pod its caption; each name once.
    void namesReadAtFit() {
        const Diagram d =
            buildDiagram(inputOf({QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt")}));
        for (const DiagramItem& it : d.items)
            if (it.label == QLatin1String("A09-P1-IBLEAF-01-01"))
                QCOMPARE(it.shortLabel, QStringLiteral("01-01"));
        QCOMPARE(d.groups.size(), std::size_t(8));
        for (const QSizeF canvas : {QSizeF(1330, 770), QSizeF(690, 490)}) {
            const NamesAtFit n = namesAtFit(d, canvas);
            QVERIFY2(n.problems.isEmpty(), qPrintable(n.problems.join(QLatin1Char('\n'))));
            QVERIFY(!n.textDrawn);
            QCOMPARE(n.captioned, 8);
            if (canvas.width() > 1000) { // in a 1280x800 window the boxes are 4 px tall: a few zoom steps
                QCOMPARE(n.switchesNamed, 40);
                QCOMPARE(n.cardsNamed, 122);
            }
        }
    }

    void slowHostsFromAHunt() {
        DiagramInput in = inputOf({QStringLiteral("topo-m-8xH100-8nic-spaces.txt")});
        in.flaggedHosts = {in.hosts.front().host.name, QStringLiteral("not-drawn")};
        const Diagram d = buildDiagram(in);
        QCOMPARE(highlighted(d, HighlightKind::SlowHost), std::set<QString>{in.hosts.front().host.name});
    }

    // The demo rack: the faults its generator planted are the highlights drawn.
    void demoCluster() {
        const LoadedSources s = loadSources({QStringLiteral(":/demo/demo.cluster")});
        QVERIFY(s.failed.empty());
        QCOMPARE(s.input.hosts.size(), std::size_t(8));
        QVERIFY(s.input.fabric);
        DiagramOptions open;
        open.open = ServersOpen::All;
        const Diagram d = buildDiagram(s.input, open);
        checkReadable(d, QStringLiteral("the demo, open"));
        const Diagram cards = buildDiagram(s.input); // a cluster: every server a card
        checkReadable(cards, QStringLiteral("the demo"));
        checkLayout(cards, QStringLiteral("the demo"));
        QVERIFY(std::all_of(cards.items.begin(), cards.items.end(),
                            [](const DiagramItem& it) { return it.kind != ItemKind::Host || it.closed; }));
        auto on = [&](HighlightKind kind, const QString& host) {
            int n = 0;
            for (const Highlight& h : d.highlights)
                if (h.kind == kind && !h.items.empty() && d.items[h.items.front()].host == host)
                    ++n;
            return n;
        };
        // node08 (PCIe cards bridged in pairs): GPUs 4-7 have their NICs all on socket 0 and no NVLink peer
        // near one to relay for them.
        QCOMPARE(on(HighlightKind::CrossSocket, QStringLiteral("node08")), 4);
        QCOMPARE(on(HighlightKind::NoGpuDirect, QStringLiteral("node08")), 4);
        QCOMPARE(on(HighlightKind::NicThroughPeer, QStringLiteral("node08")), 0);
        // node07's GPUs 6 and 7 lost their switch's NICs: they reach one only over NVLink through a peer
        // (NCCL's PXN), which keeps GPUDirect RDMA and the socket but shares the peer's NIC.
        QCOMPARE(on(HighlightKind::NicThroughPeer, QStringLiteral("node07")), 2);
        QCOMPARE(on(HighlightKind::NoGpuDirect, QStringLiteral("node07")), 0);
        QCOMPARE(on(HighlightKind::CrossSocket, QStringLiteral("node07")), 0);
        QCOMPARE(on(HighlightKind::RailBreak, QStringLiteral("node05")), 2); // two cables swapped
        for (const QString& fine : {QStringLiteral("node01"), QStringLiteral("node06")})
            for (int k = 0; k < kHighlightKinds; ++k)
                QCOMPARE(on(HighlightKind(k), fine), 0);
        QCOMPARE(d.rails.size(), qsizetype(8));
        // Every NIC of every server is cabled, to the leaf of its rail.
        int cabledNics = 0;
        for (const DiagramLink& l : d.links)
            if (l.kind == LinkKind::Fabric && d.items[l.b].kind == ItemKind::Nic) {
                ++cabledNics;
                QCOMPARE(d.items[l.a].kind, ItemKind::Leaf);
            }
        QCOMPARE(cabledNics, 6 * 8 + 6 + 8);
        checkLayout(d, QStringLiteral("demo"));
    }

    // resources/demo/make_cluster.py's 1024 servers (8 GPUs and 8 NICs each, four scalable units): cards
    // grouped by leaf, every name whole, no cable through a box it does not end in.
    void aThousandServers() {
        QTemporaryDir dir;
        QProcess make;
        make.start(QStringLiteral("python3"),
                   {QStringLiteral(RACKSCOPE_DEMO_DIR "/make_cluster.py"), QStringLiteral("--servers"),
                    QStringLiteral("1024"), QStringLiteral("--out"), dir.path()});
        QVERIFY2(make.waitForFinished(60000) && make.exitCode() == 0,
                 make.readAllStandardError().constData());
        const LoadedSources s = loadSources({QString::fromUtf8(make.readAllStandardOutput()).trimmed()});
        QVERIFY(s.failed.empty());
        QCOMPARE(s.input.hosts.size(), std::size_t(1024));
        const Diagram d = buildDiagram(s.input);
        int cards = 0, leaves = 0;
        for (const DiagramItem& it : d.items) {
            cards += it.kind == ItemKind::Host && it.closed;
            leaves += it.kind == ItemKind::Leaf;
        }
        QCOMPARE(cards, 1024);
        QCOMPARE(leaves, 4 * 8 * 8);
        checkLayout(d, QStringLiteral("1024 servers"));
        checkReadable(d, QStringLiteral("1024 servers"));
        // every server sits under its own leaves: the leaves' row right above its pod
        for (const DiagramLink& l : d.links)
            if (d.items[std::size_t(l.b)].kind == ItemKind::Host)
                QVERIFY(d.items[std::size_t(l.a)].rect.bottom() < d.items[std::size_t(l.b)].rect.top());
        const double aspect = d.bounds.width() / d.bounds.height();
        QVERIFY2(aspect > 1.0 && aspect < 3.0, qPrintable(QString::number(aspect)));
        for (const QSizeF canvas : {QSizeF(790, 580), QSizeF(1330, 770), QSizeF(1850, 1000)}) {
            const NamesAtFit n = namesAtFit(d, canvas);
            QVERIFY2(n.problems.isEmpty(), qPrintable(n.problems.join(QLatin1Char('\n'))));
            QCOMPARE(n.captioned, 32); // a pod of 32 servers under 8 leaves: each says which, and how many
        }
        const DiagramGroup& first = d.groups.front();
        QCOMPARE(first.captions.front(), QStringLiteral("su1-node[0001-0032] · 32 servers · 256 GPUs"));
    }

    // A NIC's ports: the fabric's names and states where it gives them (the cable lands on its port), else
    // its net devices.
    void nicPortsAndWhereCablesLand() {
        LoadedSources s = loadSources({QStringLiteral(":/demo/demo.cluster")});
        QVERIFY(s.input.fabric);
        Fabric& f = *s.input.fabric;
        FabricNode* nic1 = nullptr;
        for (FabricNode& n : f.nodes)
            if (n.host == QLatin1String("node01") && n.device == QLatin1String("mlx5_1"))
                nic1 = &n;
        QVERIFY(nic1);
        nic1->downPorts << QStringLiteral("2 (DOWN)");
        for (FabricLink& l : f.links)
            if (l.a == nic1->id || l.b == nic1->id)
                l.state = QStringLiteral("up");
        DiagramOptions open;
        open.open = ServersOpen::All;
        const Diagram d = buildDiagram(s.input, open);
        const DiagramItem& it = d.items[size_t(d.find(QStringLiteral("node01/NIC1")))];
        QCOMPARE(it.ports.size(), std::size_t(2));
        QCOMPARE(it.ports[0].name, QStringLiteral("1"));
        QCOMPARE(it.ports[0].up, std::optional<bool>(true));
        QCOMPARE(it.ports[1].name, QStringLiteral("2"));
        QCOMPARE(it.ports[1].up, std::optional<bool>(false));
        QVERIFY(std::find(it.facts.begin(), it.facts.end(),
                          std::pair(QStringLiteral("ports"), QStringLiteral("1 up, 2 down"))) !=
                it.facts.end());
        // the demo's design states no port state: unknown, not up
        const DiagramItem& other = d.items[size_t(d.find(QStringLiteral("node01/NIC0")))];
        QCOMPARE(other.ports.size(), std::size_t(1));
        QVERIFY(!other.ports[0].up);
        // each server's cable lands on the port it is plugged into
        int landed = 0;
        for (const DiagramLink& l : d.links)
            if (l.kind == LinkKind::Fabric && d.items[size_t(l.b)].kind == ItemKind::Nic) {
                QVERIFY(l.bPort >= 0 && l.bPort < int(d.items[size_t(l.b)].ports.size()));
                QCOMPARE(d.items[size_t(l.b)].ports[size_t(l.bPort)].name, QStringLiteral("1"));
                const QPointF end = pointOnLink(d, int(&l - d.links.data()), 1.0);
                QVERIFY(end.x() >
                        d.items[size_t(l.b)].rect.center().x()); // the ports sit at the right of the top edge
                ++landed;
            }
        QCOMPARE(landed, 6 * 8 + 6 + 8);
        // without a fabric, a NIC's ports are its net devices, state unknown
        HostTopology lone;
        lone.name = QStringLiteral("lone");
        Device nic;
        nic.kind = DeviceKind::Nic;
        nic.id = QStringLiteral("NIC0");
        nic.netdevs = {QStringLiteral("ens1f0np0"), QStringLiteral("ens1f1np1")};
        lone.nics.push_back(nic);
        DiagramInput in;
        in.hosts.push_back(InspectedHost{lone, analyzeHost(lone)});
        const Diagram alone = buildDiagram(in);
        const DiagramItem& n = alone.items[size_t(alone.find(QStringLiteral("lone/NIC0")))];
        QCOMPARE(n.ports.size(), std::size_t(2));
        QCOMPARE(n.ports[1].name, QStringLiteral("ens1f1np1"));
        QVERIFY(!n.ports[1].up);
    }

    void clusterFilesSayWhatIsWrong() {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("rack.cluster")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("rackscope-cluster 1\nhost a " +
                fixture(QStringLiteral("nccl-topo-azure-ndv4.xml")).toUtf8() +
                "\nhost b missing.xml\nbogus line here\nfabric " +
                fixture(QStringLiteral("PROVENANCE.md")).toUtf8() + "\n");
        f.close();
        const LoadedSources s = loadSources({f.fileName()});
        QCOMPARE(s.input.hosts.size(), std::size_t(1)); // what could be read is read
        QCOMPARE(s.input.hosts.front().host.name, QStringLiteral("a"));
        QStringList messages;
        for (const FailedInput& e : s.failed)
            messages << e.input + QStringLiteral(": ") + e.message;
        QVERIFY2(messages.filter(QStringLiteral("line 4: expected \"host NAME FILE\"")).size() == 1,
                 qPrintable(messages.join(QLatin1Char('\n'))));
        QVERIFY(messages.filter(QStringLiteral("missing.xml")).size() == 1);
        QVERIFY(messages.filter(QStringLiteral("PROVENANCE.md")).size() == 1);
        QCOMPARE(
            parseClusterFile("rackscope-cluster 2\n", {}).problems,
            QStringList{QStringLiteral("line 1: cluster file version 2; this rackscope reads version 1")});
        QVERIFY(!looksLikeClusterFile("host a b\n"));
    }

    // A session holds every source byte for byte: reopened, it draws the same.
    void sessionsRoundTrip() {
        LoadedSources demo = loadSources({QStringLiteral(":/demo/demo.cluster")});
        QCOMPARE(demo.raw.size(), std::size_t(9)); // eight servers and the fabric file
        Session s;
        s.title = QStringLiteral("rack 7");
        s.sources = demo.raw;
        s.sources.push_back({QStringLiteral("odd.bin"), {}, QByteArray("\xff\xfe\x00binary", 9)});
        s.flagged = {QStringLiteral("node03")};
        s.findings.emplace_back(QStringLiteral("node07"), demo.input.hosts[6].analysis.findings.front());
        const QByteArray json = sessionToJson(s);
        QVERIFY(json.startsWith("{\n    \"format\": \"rackscope-session\""));
        QVERIFY(looksLikeSession(json));
        const SessionLoad back = loadSession(json, QStringLiteral("rack7.rsession"));
        QCOMPARE(back.error, QString());
        QCOMPARE(back.title, QStringLiteral("rack 7"));
        QCOMPARE(back.flagged, QStringList{QStringLiteral("node03")});
        QCOMPARE(back.sources.size(), s.sources.size());
        for (std::size_t i = 0; i < s.sources.size(); ++i) {
            QCOMPARE(back.sources[i].content, s.sources[i].content);
            QCOMPARE(back.sources[i].host, s.sources[i].host);
        }
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("rack7.rsession")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        const LoadedSources reopened = loadSources({f.fileName()});
        QCOMPARE(reopened.input.hosts.size(), std::size_t(8));
        QCOMPARE(reopened.input.flaggedHosts, QStringList{QStringLiteral("node03")});
        QCOMPARE(reopened.input.title, QStringLiteral("rack 7"));
        QCOMPARE(reopened.failed.size(), std::size_t(1)); // the binary source is no topology, and says so
        const Diagram a = buildDiagram(demo.input), b = buildDiagram(reopened.input);
        QCOMPARE(b.items.size(), a.items.size());
        QCOMPARE(b.highlights.size(), a.highlights.size() + 1); // and node03, flagged slow
    }

    void badSessionsSayWhatIsWrong() {
        Session s;
        s.sources = {{QStringLiteral("a.xml"), QStringLiteral("a"),
                      fixtureBytes(QStringLiteral("nccl-topo-azure-ndv4.xml"))}};
        const QByteArray json = sessionToJson(s);
        for (qsizetype cut = 1; cut < json.size(); cut += std::max<qsizetype>(1, json.size() / 97)) {
            const SessionLoad l = loadSession(json.left(cut), QStringLiteral("cut"));
            QVERIFY2(!l.error.isEmpty() && l.sources.empty(), qPrintable(QString::number(cut)));
        }
        QVERIFY(loadSession("{\"format\": \"rackscope-run\"}", {})
                    .error.contains(QLatin1String("not a rackscope session")));
        QVERIFY(loadSession("[1, 2]", {}).error.contains(QLatin1String("not a rackscope session")));
        QVERIFY(loadSession("{\"format\": \"rackscope-session\", \"version\": 2}", {})
                    .error.contains(QLatin1String("version 2")));
        const SessionLoad partly =
            loadSession("{\"format\": \"rackscope-session\", \"version\": 1, \"sources\": [{\"location\": "
                        "\"x\"}, {\"location\": \"y\", \"content\": \"z\"}]}",
                        {});
        QCOMPARE(partly.error, QStringLiteral("source 1 (x) has no content"));
        QCOMPARE(partly.sources.size(), std::size_t(1)); // the rest is still read
        QRandomGenerator rng(5);
        for (int i = 0; i < 200; ++i) {
            QByteArray junk = json;
            for (int k = 0; k < 4; ++k)
                junk[qsizetype(rng.bounded(quint32(junk.size())))] = char(rng.bounded(256));
            const SessionLoad l = loadSession(junk, QStringLiteral("junk"));
            if (l.error.isEmpty())
                QCOMPARE(l.sources.size(), std::size_t(1));
            importSources(l.sources); // whatever it holds goes through the importers' own checks
        }
    }

    void highlightNames() {
        for (int k = 0; k < kHighlightKinds; ++k)
            QCOMPARE(highlightKindFromName(highlightKindName(HighlightKind(k))),
                     std::optional(HighlightKind(k)));
        QVERIFY(!highlightKindFromName(QStringLiteral("everything")));
    }
};

QTEST_MAIN(TestDiagram) // a GUI application: the checks measure drawn text
#include "test_diagram.moc"
