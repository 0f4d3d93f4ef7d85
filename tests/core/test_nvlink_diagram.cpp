// NVLink domains in the picture: two NVL72 racks of real GB300 tray topologies under their leaves, one GPU
// fallen out of its domain. Each domain is a band behind exactly its servers, with its name and health on it;
// the GPU's server carries the verdict; the workspace holds the NVLink state beside the hosts and the fabric.
#include "nvl72_paste.h"
#include "test_support.h"

#include "analysis/nvlink_findings.h"
#include "diagram/diagram.h"
#include "render/diagram_export.h"
#include "workspace/workspace.h"

#include <QTemporaryDir>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QString tray(int t) {
    return QStringLiteral("tray%1").arg(t, 2, 10, QLatin1Char('0'));
}

} // namespace

class TestNvlinkDiagram : public QObject {
    Q_OBJECT
private slots:
    void bandsBehindTheirServers() {
        QTemporaryDir dir;
        QStringList files;
        const QByteArray topology =
            incomingBytes(QStringLiteral("nccl-topo-dump-gb300-nvl72-1tray-4gpu-c2c-mnnvl.xml"));
        for (int t = 1; t <= 36; ++t) { // an NCCL dump names no host: each file's name is its server's
            QFile f(dir.filePath(tray(t) + QStringLiteral(".xml")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(topology);
            files << f.fileName();
        }
        QFile paste(dir.filePath(QStringLiteral("fabric-state.txt")));
        QVERIFY(paste.open(QIODevice::WriteOnly));
        paste.write(nvl72Paste(std::pair(5, 2)));
        paste.close();
        QFile conf(dir.filePath(QStringLiteral("topology.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("SwitchName=leafA Nodes=tray[01-18]\nSwitchName=leafB Nodes=tray[19-36]\n"
                   "SwitchName=spine Switches=leafA,leafB\n");
        conf.close();
        files << paste.fileName() << conf.fileName();

        Workspace ws;
        const auto failed = ws.open(files, Workspace::Mode::Replace);
        QVERIFY2(failed.empty(), qPrintable(failed.empty() ? QString() : failed.front().message));
        QCOMPARE(int(ws.hosts().size()), 36);
        QCOMPARE(int(ws.nvlink().gpus.size()), 144);
        bool split = false;
        for (const WorkspaceFinding& f : ws.findings())
            split |= f.finding.code == QLatin1String(codes::kNvlinkDomainSplit) &&
                     f.host == QLatin1String("tray05");
        QVERIFY(split);

        const Diagram d = buildDiagram(ws.diagramInput());
        QCOMPARE(int(d.nvlinkBands.size()), 2);
        for (const NvlinkBand& b : d.nvlinkBands) {
            QCOMPARE(b.servers.size(), 18);
            for (const DiagramItem& it : d.items) {
                if (it.kind != ItemKind::Host || it.parent >= 0)
                    continue;
                const bool member = b.servers.contains(it.host);
                const bool inside = std::any_of(b.pieces.begin(), b.pieces.end(),
                                                [&](const QRectF& r) { return r.contains(it.rect); });
                const bool touched = std::any_of(b.pieces.begin(), b.pieces.end(),
                                                 [&](const QRectF& r) { return r.intersects(it.rect); });
                QVERIFY2(member ? inside : !touched, qPrintable(b.domain + QStringLiteral(": ") + it.host));
            }
            QVERIFY(labelWidth(b.labels.front(), 10) < b.pieces.front().width() - 16); // the whole label fits
            for (const DiagramGroup& g : d.groups) // a pod's caption is under the bands, not on them
                for (const QRectF& r : b.pieces)
                    QVERIFY2(!r.intersects(g.rect.adjusted(0, 0, 0, -(g.rect.height() - 18))),
                             qPrintable(g.captions.value(0)));
        }
        const NvlinkBand& broken = d.nvlinkBands[0];
        QCOMPARE(broken.domain, QStringLiteral("dc6e40c4/2"));
        QVERIFY(!broken.healthy);
        QVERIFY2(broken.labels.front().contains(QLatin1String("1 problem")),
                 qPrintable(broken.labels.front()));
        QVERIFY(d.nvlinkBands[1].healthy);
        const int tray05 = d.find(QStringLiteral("host:tray05"));
        QVERIFY(tray05 >= 0);
        bool marked = false;
        for (const Highlight* h : d.highlightsOf(tray05))
            marked |= h->kind == HighlightKind::NvlinkFabric &&
                      h->why.contains(QLatin1String("outside every NVLink domain"));
        QVERIFY(marked);

        // Exported as a picture for a review: the rack, its bands and the legend.
        ExportOptions o;
        o.format = ExportFormat::Png;
        const QString png = dir.filePath(QStringLiteral("rack.png"));
        QVERIFY2(exportDiagram(d, png, o).isEmpty(), "export failed");
        QVERIFY(QImage(png).width() > 1000);
        if (const QByteArray keep = qgetenv("RACKSCOPE_KEEP_EXPORT"); !keep.isEmpty())
            QFile::copy(png, QString::fromLocal8Bit(keep));

        // A saved session brings the NVLink state back.
        Workspace again;
        again.take(importSources(ws.session().sources), Workspace::Mode::Replace, QStringLiteral("session"));
        QCOMPARE(int(again.nvlink().gpus.size()), 144);
    }

    // The NVL72 demo that ships (resources/demo/make_nvl72.py): two domains, each with its planted fault.
    void demo() {
        Workspace ws;
        const auto failed = ws.open({QStringLiteral(":/demo/nvl72.cluster")}, Workspace::Mode::Replace);
        QVERIFY2(failed.empty(), qPrintable(failed.empty() ? QString() : failed.front().message));
        QCOMPARE(int(ws.hosts().size()), 36);
        QVERIFY(ws.fabric() && ws.fabric()->blocks.size() == 2);
        const Diagram d = buildDiagram(ws.diagramInput());
        QCOMPARE(int(d.nvlinkBands.size()), 2);
        QStringList marked;
        for (const Highlight& h : d.highlights)
            if (h.kind == HighlightKind::NvlinkFabric)
                marked << d.items[std::size_t(h.items.front())].host + QLatin1Char(' ') + h.path;
        marked.sort();
        QCOMPARE(marked, QStringList({QStringLiteral("tray07 nvlink-domain-split"),
                                      QStringLiteral("tray24 nvlink-fabric-unhealthy")}));
        for (const NvlinkBand& b : d.nvlinkBands)
            QVERIFY(!b.healthy);
        // Opened, a tray's GPUs show their NVLink-C2C to Grace (5 links of 44712 MB/s in the topology), and
        // the NIC each reaches through its CPU is drawn with NCCL's path type P2C.
        DiagramOptions open;
        open.open = ServersOpen::Listed;
        open.expanded = {QStringLiteral("tray01")};
        const Diagram opened = buildDiagram(ws.diagramInput(), open);
        const int gpu = opened.find(QStringLiteral("tray01/GPU0"));
        QVERIFY(gpu >= 0);
        QCOMPARE(opened.items[std::size_t(gpu)].c2c, QStringLiteral("C2C 223.6 GB/s"));
        QVERIFY(std::any_of(opened.links.begin(), opened.links.end(), [&](const DiagramLink& l) {
            return l.kind == LinkKind::GpuNic && l.label == QLatin1String("P2C") &&
                   (l.a == gpu || l.b == gpu);
        }));
    }
};

QTEST_MAIN(TestNvlinkDiagram)
#include "test_nvlink_diagram.moc"
