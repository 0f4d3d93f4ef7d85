// The diagram's three figures, in one run:
//  - a full repaint of a 64-server cluster in full detail (every server open:
//    packages, PCIe switches, GPUs, NICs, NVLink, the fabric above), painted
//    offscreen into a 1920x1080 image, whole scene in view and zoomed in,
//    as the canvas paints it (in bands on every core, then shown), and in one
//    band on one thread (goal: under 16 ms, one frame at 60 Hz);
//  - `rackscope-cli export` of one server, the largest hwloc fixture, beside
//    `lstopo-no-graphics --of svg` on the same file (goal: ratio at most 1.0);
//  - `rackscope-cli export` of the 64-server cluster to SVG beside Graphviz
//    `dot -Tsvg` on rackscope's own DOT export of it (goal: at most 1.0);
//  - resources/demo/make_cluster.py's 1024 servers (8 GPUs and 8 NICs each, four scalable units) as a
//    cluster opens, as server cards: its layout beside 1 s, its repaint at Fit and at 1:1 beside 16 ms, and
//    its SVG export beside `dot -Tsvg` of the same graph.
#include "bench_support.h"
#include "render/diagram_export.h"
#include "render/diagram_raster.h"
#include "workspace/sources.h"

#include <QDir>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <algorithm>
#include <cstdio>

using namespace rackscope;
using rackscope::bench::median;
using rackscope::bench::timeProcess;

namespace {

// A repaint with all in view and one at 1:1, each beside the 16 ms frame.
void printRepaints(double whole, double detail, const char* goal) {
    printf("    full repaint, whole cluster in view  %8.2f ms   ratio %.2f to the 16 ms frame%s\n", whole,
           whole / 16.0, goal);
    printf("    full repaint, zoomed in (1:1)        %8.2f ms   ratio %.2f to the 16 ms frame%s\n", detail,
           detail / 16.0, goal);
}

// 64 servers of the demo's design: 8 rails, two leaves per rail (32 servers each), 8 spines.
QString writeCluster(const QDir& dir) {
    QString cluster = QStringLiteral("rackscope-cluster 1\n");
    QString fabric = QStringLiteral("rackscope-fabric 1\nexpect width=4x speed=NDR\n");
    for (int s = 1; s <= 8; ++s)
        fabric += QStringLiteral("switch spine-%1 tier=spine ports=64\n").arg(s);
    for (int r = 0; r < 8; ++r)
        for (int half = 0; half < 2; ++half) {
            fabric += QStringLiteral("switch leaf-r%1-%2 tier=leaf ports=64\n").arg(r).arg(half);
            for (int s = 1; s <= 8; ++s)
                for (int k = 0; k < 4; ++k)
                    fabric += QStringLiteral("link leaf-r%1-%2:%3 spine-%4:%5\n")
                                  .arg(r)
                                  .arg(half)
                                  .arg(33 + (s - 1) * 4 + k)
                                  .arg(s)
                                  .arg(1 + (r * 2 + half) * 4 + k);
        }
    for (int n = 1; n <= 64; ++n) {
        cluster += QStringLiteral("host node%1 %2/h100-8gpu-node.xml\n")
                       .arg(n, 2, 10, QLatin1Char('0'))
                       .arg(QStringLiteral(RACKSCOPE_DEMO_DIR));
        for (int r = 0; r < 8; ++r)
            fabric += QStringLiteral("link node%1/mlx5_%2:1 leaf-r%2-%3:%4\n")
                          .arg(n, 2, 10, QLatin1Char('0'))
                          .arg(r)
                          .arg((n - 1) / 32)
                          .arg((n - 1) % 32 + 1);
    }
    cluster += QStringLiteral("fabric rack64.fabric\n");
    for (const auto& [name, text] : {std::pair{QStringLiteral("rack64.cluster"), cluster},
                                     std::pair{QStringLiteral("rack64.fabric"), fabric}}) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text.toUtf8());
    }
    return dir.filePath(QStringLiteral("rack64.cluster"));
}

// As the canvas paints (TopologyCanvas::paintEvent): in bands into its frame, then the frame onto the
// window's backing store. `bands` 0: one per core, as the canvas does.
double canvasPaintMs(const Diagram& d, double zoom, QPointF centre, int runs, int bands) {
    QImage frame(1920, 1080, QImage::Format_RGB32), window(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        PaintOptions o;
        o.exposed = QRectF(centre - QPointF(960, 540) / zoom, QSizeF(1920, 1080) / zoom);
        const QTransform sceneToFrame =
            QTransform::fromTranslate(960 - centre.x() * zoom, 540 - centre.y() * zoom).scale(zoom, zoom);
        paintDiagramInBands(frame, frame.rect(), sceneToFrame, d, o, Qt::white, bands);
        QPainter p(&window);
        p.drawImage(0, 0, frame);
        p.end();
        times.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    return median(times);
}

// The 1024 servers of resources/demo/make_cluster.py, as a cluster opens: server cards grouped by leaf.
int thousandServers(const QDir& dir, const QString& cli, const QString& dot) {
    QProcess make;
    make.start(QStringLiteral("python3"), {QStringLiteral(RACKSCOPE_DEMO_DIR "/make_cluster.py"),
                                           QStringLiteral("--out"), dir.filePath(QStringLiteral("big"))});
    if (!make.waitForFinished(60000) || make.exitCode() != 0) {
        fprintf(stderr, "bench_diagram: make_cluster.py failed: %s\n",
                make.readAllStandardError().constData());
        return 1;
    }
    const QString cluster = QString::fromUtf8(make.readAllStandardOutput()).trimmed();
    const LoadedSources s = loadSources({cluster});
    if (!s.failed.empty() || s.input.hosts.size() != 1024) {
        fprintf(stderr, "bench_diagram: the 1024-server cluster did not load\n");
        return 1;
    }
    std::vector<double> layouts;
    Diagram d;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        d = buildDiagram(s.input);
        layouts.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    const double layout = median(layouts);
    const double fitZoom = std::min(1920 / d.bounds.width(), 1080 / d.bounds.height());
    const QPointF card = d.items[std::size_t(d.find(QStringLiteral("host:su3-node0600")))].rect.center();
    const double whole = canvasPaintMs(d, fitZoom, d.bounds.center(), 31, 0),
                 detail = canvasPaintMs(d, 1.0, card, 31, 0);
    const QString dotFile = dir.filePath(QStringLiteral("big.dot"));
    const double ours = timeProcess(
        cli,
        {QStringLiteral("export"), cluster, QStringLiteral("-o"), dir.filePath(QStringLiteral("big.svg"))},
        3);
    if (timeProcess(cli, {QStringLiteral("export"), cluster, QStringLiteral("-o"), dotFile}, 1) < 0)
        return 1;
    const double theirs = timeProcess(
        dot,
        {QStringLiteral("-Tsvg"), dotFile, QStringLiteral("-o"), dir.filePath(QStringLiteral("bigdot.svg"))},
        1);
    if (ours < 0 || theirs < 0)
        return 1;
    printf("bench_diagram: 1024 servers (make_cluster.py) as server cards: %zu items, %zu links\n",
           d.items.size(), d.links.size());
    printf("    layout (buildDiagram), median of 5   %8.2f ms   ratio %.2f to 1 s (goal <= 1.0)\n", layout,
           layout / 1000.0);
    printRepaints(whole, detail, " (goal <= 1.0)");
    printf("    dot -Tsvg on rackscope's DOT       %8.2f ms   (reference, one run)\n", theirs);
    printf("    rackscope-cli export to SVG        %8.2f ms   ratio %.2f (goal <= 1.0), median of 3\n", ours,
           ours / theirs);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QTemporaryDir tmp;
    const QDir dir(tmp.path());
    const QString cluster = writeCluster(dir);
    LoadedSources s = loadSources({cluster});
    if (!s.failed.empty() || s.input.hosts.size() != 64) {
        fprintf(stderr, "bench_diagram: the 64-server cluster did not load\n");
        return 1;
    }
    DiagramOptions open;
    open.open = ServersOpen::All;
    const Diagram d = buildDiagram(s.input, open);
    std::size_t devices = 0;
    for (const DiagramItem& it : d.items)
        devices += it.kind == ItemKind::Gpu || it.kind == ItemKind::Nic;
    const double fitZoom = std::min(1920 / d.bounds.width(), 1080 / d.bounds.height());
    const QPointF gpu = d.items[std::size_t(d.find(QStringLiteral("node33/GPU0")))].rect.center();
    const double whole = canvasPaintMs(d, fitZoom, d.bounds.center(), 31, 0),
                 detail = canvasPaintMs(d, 1.0, gpu, 31, 0);
    const double wholeOne = canvasPaintMs(d, fitZoom, d.bounds.center(), 31, 1),
                 detailOne = canvasPaintMs(d, 1.0, gpu, 31, 1);
    printf("bench_diagram: 64 servers in full detail: %zu items (%zu GPUs and NICs), %zu links; median of 31 "
           "repaints into 1920x1080\n",
           d.items.size(), devices, d.links.size());
    printf("  as the canvas paints: in bands on %d cores, then shown\n", QThread::idealThreadCount());
    printRepaints(whole, detail, " (goal <= 1.0)");
    printf("  the same in one band, on one thread\n");
    printRepaints(wholeOne, detailOne, "");

    const QString cli = QStringLiteral(RACKSCOPE_CLI);
    const QString lstopo = QStandardPaths::findExecutable(QStringLiteral("lstopo-no-graphics"));
    const QString dot = QStandardPaths::findExecutable(QStringLiteral("dot"));
    if (lstopo.isEmpty() || dot.isEmpty()) {
        fprintf(stderr, "bench_diagram: needs lstopo-no-graphics (hwloc-nox) and dot (graphviz)\n");
        return 1;
    }
    const QString host = QStringLiteral(RACKSCOPE_FIXTURES_DIR "/hwloc-96em64t-4n4d3ca2co-pci.xml");
    const double ours = timeProcess(
        cli, {QStringLiteral("export"), host, QStringLiteral("-o"), dir.filePath(QStringLiteral("host.svg"))},
        11);
    const double theirs =
        timeProcess(lstopo,
                    {QStringLiteral("-f"), QStringLiteral("--input"), host, QStringLiteral("--of"),
                     QStringLiteral("svg"), dir.filePath(QStringLiteral("lstopo.svg"))},
                    11);
    const QString dotFile = dir.filePath(QStringLiteral("rack64.dot"));
    const double ours64 = timeProcess(cli,
                                      {QStringLiteral("export"), cluster, QStringLiteral("--open-all"),
                                       QStringLiteral("-o"), dir.filePath(QStringLiteral("rack64.svg"))},
                                      5);
    if (timeProcess(
            cli,
            {QStringLiteral("export"), cluster, QStringLiteral("--open-all"), QStringLiteral("-o"), dotFile},
            1) < 0)
        return 1;
    const double dot64 = timeProcess(
        dot,
        {QStringLiteral("-Tsvg"), dotFile, QStringLiteral("-o"), dir.filePath(QStringLiteral("dot.svg"))}, 1);
    if (ours < 0 || theirs < 0 || ours64 < 0 || dot64 < 0) {
        fprintf(stderr, "bench_diagram: a run failed (export %.1f, lstopo %.1f, export64 %.1f, dot %.1f)\n",
                ours, theirs, ours64, dot64);
        return 1;
    }
    printf("  export one server to SVG (hwloc-96em64t-4n4d3ca2co-pci.xml), whole processes, median of 11:\n");
    printf("    lstopo-no-graphics --of svg        %8.2f ms   (reference)\n", theirs);
    printf("    rackscope-cli export               %8.2f ms   ratio %.2f (goal <= 1.0)\n", ours,
           ours / theirs);
    // what a process of ours costs before it reads anything: the floor under the ratio above
    const double started = timeProcess(cli, {QStringLiteral("--version")}, 11);
    printf("    of which rackscope-cli --version   %8.2f ms   (loading Qt; the drawing adds its font "
           "database)\n",
           started);
    const double demoPng = timeProcess(cli,
                                       {QStringLiteral("export"), QStringLiteral("--demo"),
                                        QStringLiteral("-o"), dir.filePath(QStringLiteral("demo.png"))},
                                       5);
    const QImage demoImage(dir.filePath(QStringLiteral("demo.png")));
    printf("  export the demo cluster to PNG at 150 DPI, whole process, median of 5:\n");
    printf("    rackscope-cli export --demo        %8.2f ms   ratio %.2f to 1 s (goal <= 1.0); %dx%d px, "
           "%.0f MB "
           "of pixels (goal: the process under 100 MB)\n",
           demoPng, demoPng / 1000.0, demoImage.width(), demoImage.height(),
           double(demoImage.width()) * demoImage.height() * 4 / 1e6);
    printf("  export the 64-server cluster to SVG, whole processes:\n");
    printf("    dot -Tsvg on rackscope's DOT       %8.2f ms   (reference, one run)\n", dot64);
    printf("    rackscope-cli export               %8.2f ms   ratio %.2f (goal <= 1.0), median of 5\n",
           ours64, ours64 / dot64);
    return thousandServers(dir, cli, dot);
}
