// The topology canvas in the real window (offscreen): findings select and
// centre their item, the inspector shows every fact with its source, hover
// text says why, search and the keyboard move the selection, servers open
// and close, highlights switch off, and the window's export is the diagram.
#include "gui_test_support.h"
#include "test_support.h"

#include "main_window.h"
#include "render/diagram_raster.h"
#include "topology_canvas.h"
#include "workspace/sources.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char kK40[] = "topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt";

QTreeWidgetItem* findingTo(QTreeWidget* list, const QString& target) {
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->data(0, Qt::UserRole).toString() == target)
            return list->topLevelItem(i);
    return nullptr;
}

} // namespace

class TestGuiCanvas : public QObject {
    Q_OBJECT
private slots:
    void findingSelectsAndCentresItsItem() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openTopology(fixture(QLatin1String(kK40))));
        QVERIFY(settled(w));
        gui::TopologyCanvas* canvas = w.canvas();
        const QString gpu0 = QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC/GPU0");
        QTreeWidgetItem* finding = findingTo(w.findingList(), gpu0);
        QVERIFY2(finding, "a finding about GPU0 (its nearest NIC is across the socket)");
        QAbstractItemModelTester findings(w.findingList()->model(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.findingList()->setCurrentItem(finding);
        emit w.findingList()->itemClicked(finding, 0);
        const int item = canvas->diagram().find(gpu0);
        QCOMPARE(canvas->selected(), item);
        const QPointF centre = canvas->toWidget(canvas->diagram().items[item].rect.center());
        QVERIFY(std::abs(centre.x() - canvas->width() / 2.0) < 2 &&
                std::abs(centre.y() - canvas->height() / 2.0) < 2);
        // The inspector: every fact, the source first, the highlights and the paths.
        QAbstractItemModelTester inspector(w.inspector()->model(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList facts;
        for (int i = 0; i < w.inspector()->topLevelItemCount(); ++i)
            facts << w.inspector()->topLevelItem(i)->text(0) + QStringLiteral(" = ") +
                         w.inspector()->topLevelItem(i)->text(1);
        QVERIFY2(facts.filter(QStringLiteral("source = nvidia-smi-topo")).size() == 1,
                 qPrintable(facts.join(QLatin1Char('\n'))));
        QVERIFY(facts.filter(QStringLiteral("path to NIC0 = SYS; GPUDirect RDMA no")).size() == 1);
        QVERIFY(facts.filter(QStringLiteral("crosses the CPU socket")).size() == 1);
        // Hover text says why.
        const QString tip = canvas->toolTipFor(item);
        QVERIFY(tip.contains(QStringLiteral("crosses the CPU socket")) &&
                tip.contains(QStringLiteral("[SYS]")));
        // What is under a point is what is drawn there.
        QCOMPARE(canvas->itemAt(centre), item);
    }

    void searchKeyboardAndOpeningServers() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(
            w.openFiles({fixture(QLatin1String(kK40)), fixture(QStringLiteral("nccl-topo-azure-ndv4.xml"))}));
        QVERIFY(settled(w));
        gui::TopologyCanvas* canvas = w.canvas();
        auto* search = w.findChild<QLineEdit*>(QStringLiteral("search"));
        search->setText(QStringLiteral("mlx4_0"));
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(canvas->diagram().items[canvas->selected()].label, QStringLiteral("NIC0"));
        // Arrow keys: to the nearest item that way.
        canvas->select(canvas->diagram().find(QStringLiteral("nccl-topo-azure-ndv4/GPU2")), true);
        const QPointF from = canvas->diagram().items[canvas->selected()].rect.center();
        QTest::keyClick(canvas, Qt::Key_Right);
        QVERIFY(canvas->diagram().items[canvas->selected()].rect.center().x() > from.x());
        QTest::keyClick(canvas, Qt::Key_Down);
        QVERIFY(canvas->diagram().items[canvas->selected()].rect.center().y() > from.y());
        // Double-click closes a server and opens it again.
        const std::size_t open = canvas->diagram().items.size();
        const int host = canvas->diagram().find(QStringLiteral("host:nccl-topo-azure-ndv4"));
        QTest::mouseDClick(
            canvas, Qt::LeftButton, {},
            canvas->toWidget(canvas->diagram().items[host].rect.topLeft() + QPointF(5, 5)).toPoint());
        QVERIFY(settled(w));
        QVERIFY(canvas->diagram().items.size() < open);
        QVERIFY(canvas->diagram()
                    .children(canvas->diagram().find(QStringLiteral("host:nccl-topo-azure-ndv4")))
                    .empty());
        const int closed = canvas->diagram().find(QStringLiteral("host:nccl-topo-azure-ndv4"));
        QTest::mouseDClick(canvas, Qt::LeftButton, {},
                           canvas->toWidget(canvas->diagram().items[closed].rect.center()).toPoint());
        QVERIFY(settled(w));
        QCOMPARE(canvas->diagram().items.size(), open);
        // Zoom keeps the point under the cursor.
        const QPointF anchor(100, 80), before = canvas->toScene(anchor);
        canvas->zoomBy(1.7, anchor);
        QVERIFY((canvas->toScene(anchor) - before).manhattanLength() < 1e-6);
    }

    void highlightsSwitchOffAndTheExportIsTheDiagram() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openTopology(fixture(QLatin1String(kK40))));
        QVERIFY(settled(w));
        w.canvas()->setHighlightShown(HighlightKind::NoGpuDirect, false);
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("window.svg"));
        QVERIFY(w.exportDiagram(svg));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(QStringLiteral("GPU–NIC path crosses the CPU socket: 2")));
        QVERIFY(!text.contains(QStringLiteral("cannot use GPUDirect RDMA:")));
        for (const DiagramItem& it : w.canvas()->diagram().items)
            if (it.kind == ItemKind::Gpu || it.kind == ItemKind::Nic)
                QVERIFY(text.contains(QStringLiteral(">") + it.label + QStringLiteral("<")));
        QVERIFY(w.console()->toPlainText().contains(QStringLiteral("exported the diagram to")));
    }

    // With only this machine shown, the demo is offered; taking it shows the whole rack.
    void firstStartOffersTheDemo() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLocalMachine();
        QVERIFY(settled(w));
        QPushButton* offer = nullptr;
        for (QPushButton* b : w.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Open the demo cluster"))
                offer = b;
        QVERIFY(offer && offer->isVisible());
        QTest::mouseClick(offer, Qt::LeftButton);
        QVERIFY(settled(w));
        QCOMPARE(w.hosts().size(), std::size_t(8));
        QVERIFY(!offer->isVisible());
        const Diagram& d = w.canvas()->diagram();
        QVERIFY(d.find(QStringLiteral("switch:spine-01")) >= 0 ||
                std::any_of(d.items.begin(), d.items.end(),
                            [](const DiagramItem& i) { return i.label == QLatin1String("spine-01"); }));
        QVERIFY(w.findingList()->topLevelItemCount() > 5);
        // The servers list groups them by pod, as the canvas draws them (test_main_window).
        QCOMPARE(w.serverList()->topLevelItemCount(), 1);
        QCOMPARE(w.serverList()->topLevelItem(0)->childCount(), 8);
    }

    // A cable says what it is when the pointer is on it: its ends, its speed, its rail and what is wrong with
    // it.
    void cablesSayWhatTheyAreOnHover() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openDemo();
        QVERIFY(settled(w));
        gui::TopologyCanvas* canvas = w.canvas();
        const Diagram& d = canvas->diagram();
        int flagged = -1;
        const Highlight* why = nullptr;
        for (const Highlight& h : d.highlights)
            if (!h.links.empty() && flagged < 0)
                flagged = h.links.front(), why = &h;
        QVERIFY2(flagged >= 0, "the demo has a cable with something wrong");
        const DiagramLink& l = d.links[size_t(flagged)];
        canvas->select(l.b, true); // bring it into view
        // a point of it no device box covers and no other cable of its bundle runs along: its last run, down
        // to where it lands
        QPointF on;
        for (double t = 0.995; t > 0 && on.isNull(); t -= 0.005) {
            const QPointF p = canvas->toWidget(pointOnLink(d, flagged, t));
            const int under = canvas->itemAt(p);
            if (under < 0 || d.items[size_t(under)].container())
                on = p;
        }
        QVERIFY(!on.isNull());
        QCOMPARE(canvas->linkAt(on), flagged);
        const QString tip = canvas->toolTipForLink(flagged);
        QVERIFY2(tip.contains(d.items[size_t(l.a)].label) && tip.contains(d.items[size_t(l.b)].label) &&
                     tip.contains(l.label.toHtmlEscaped()) && tip.contains(why->why.toHtmlEscaped()),
                 qPrintable(tip));
        QMouseEvent move(QEvent::MouseMove, on, canvas->mapToGlobal(on), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(canvas, &move);
        QCOMPARE(canvas->paintOptions().hoveredLink, flagged); // drawn lit
        QCOMPARE(canvas->paintOptions().hovered, -1);
        // away from every cable, or on a device box, there is none
        QCOMPARE(canvas->linkAt(canvas->toWidget(d.bounds.topLeft() - QPointF(60, 60))), -1);
        const int card = d.find(QStringLiteral("host:node01"));
        QVERIFY(card >= 0 && d.items[size_t(card)].closed);
        QCOMPARE(canvas->linkAt(canvas->toWidget(d.items[size_t(card)].rect.center())), -1);
    }

    // A session saved from one window opens in another as it was; a broken one gets a dialog and the window
    // keeps what it had.
    void sessionsSaveOpenAndRefuse() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rack.rsession"));
        {
            gui::MainWindow w;
            w.openDemo();
            QVERIFY(settled(w));
            w.markFlagged({QStringLiteral("node03")});
            QVERIFY(settled(w));
            QVERIFY(w.saveSession(path));
        }
        gui::MainWindow w;
        QVERIFY(w.openTopology(path));
        QVERIFY(settled(w));
        QCOMPARE(w.hosts().size(), std::size_t(8));
        int slow = 0;
        for (const Highlight& h : w.canvas()->diagram().highlights)
            slow += h.kind == HighlightKind::SlowHost;
        QCOMPARE(slow, 1);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray whole = f.readAll();
        f.close();
        const QString broken = dir.filePath(QStringLiteral("broken.rsession"));
        QFile b(broken);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(whole.left(whole.size() / 2));
        b.close();
        QVERIFY(w.openTopology(broken));
        QVERIFY(settled(w));
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("problem"));
        QVERIFY(box);
        const QString dialogText = box->text();
        QVERIFY2(dialogText.contains(QStringLiteral("malformed JSON")), qPrintable(dialogText));
        QCOMPARE(w.hosts().size(), std::size_t(8)); // nothing lost
    }

    // The canvas paints in bands on several threads: the same picture as painting in one piece, at every zoom
    // (boxes only, labels, close up), on a HiDPI screen too, with seams through boxes, labels and cables.
    void bandsPaintTheSamePictureAsOnePiece() {
        const LoadedSources s = loadSources({QStringLiteral(":/demo/demo.cluster")});
        QVERIFY(s.failed.empty());
        DiagramOptions open;
        open.open = ServersOpen::All;
        const Diagram d = buildDiagram(s.input, open);
        PaintOptions o;
        o.selected = d.find(QStringLiteral("node08/GPU4"));
        o.hovered = d.find(QStringLiteral("node07/GPU6"));
        QVERIFY(o.selected >= 0 && o.hovered >= 0);
        const QColor background(0xfb, 0xfc, 0xfd);
        const QSize view(1100, 700);
        const double fit = std::min(view.width() / d.bounds.width(), view.height() / d.bounds.height());
        for (const double dpr : {1.0, 2.0})
            for (const double zoom : {fit, 0.3, 0.6, 1.0, 2.5}) {
                const QPointF centre =
                    zoom == fit ? d.bounds.center() : d.items[std::size_t(o.selected)].rect.center();
                const QTransform t = QTransform::fromTranslate(view.width() / 2.0 - centre.x() * zoom,
                                                               view.height() / 2.0 - centre.y() * zoom)
                                         .scale(zoom, zoom);
                o.exposed = t.inverted().mapRect(QRectF(QPointF(), QSizeF(view)));
                QImage whole(view * dpr, QImage::Format_RGB32);
                whole.setDevicePixelRatio(dpr);
                {
                    QPainter p(&whole);
                    p.fillRect(QRectF(QPointF(), QSizeF(view)), background);
                    p.setTransform(t);
                    paintDiagram(p, d, o);
                }
                for (const int bands : {2, 7}) {
                    QImage banded(view * dpr, QImage::Format_RGB32);
                    banded.setDevicePixelRatio(dpr);
                    paintDiagramInBands(banded, QRect(QPoint(), view), t, d, o, background, bands);
                    // What a band's clip changes: blending and antialiasing rounded a few units apart
                    // (invisible), and now and then a box outline's lone corner pixel. Anything missing or
                    // moved (a cable, a label, a port tab) is several pixels together, far apart in colour.
                    auto differs = [&](int x, int y) {
                        if (!whole.valid(x, y))
                            return false;
                        const QRgb a = whole.pixel(x, y), b = banded.pixel(x, y);
                        return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                                         std::abs(qBlue(a) - qBlue(b))}) > 16;
                    };
                    int lone = 0;
                    for (int y = 0; y < whole.height(); ++y)
                        for (int x = 0; x < whole.width(); ++x) {
                            if (!differs(x, y))
                                continue;
                            ++lone;
                            for (const QPoint n : {QPoint(1, 0), QPoint(-1, 1), QPoint(0, 1), QPoint(1, 1)})
                                QVERIFY2(!differs(x + n.x(), y + n.y()),
                                         qPrintable(
                                             QStringLiteral(
                                                 "zoom %1, dpr %2, %3 bands: pixels differ together at %4,%5")
                                                 .arg(zoom)
                                                 .arg(dpr)
                                                 .arg(bands)
                                                 .arg(x)
                                                 .arg(y)));
                        }
                    QVERIFY2(lone < 50,
                             qPrintable(QStringLiteral("zoom %1, dpr %2, %3 bands: %4 pixels differ")
                                            .arg(zoom)
                                            .arg(dpr)
                                            .arg(bands)
                                            .arg(lone)));
                }
            }
    }

    // Many servers open closed, with the fabric above them, and paint.
    void aFabricOfManyServers() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openTopology(fixture(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt"))));
        QVERIFY(settled(w));
        const Diagram& d = w.canvas()->diagram();
        QVERIFY(d.items.size() > 150);
        QVERIFY(!d.highlights.empty());
        QVERIFY(w.findingList()->topLevelItemCount() > 0);
        const QImage shot = w.canvas()->grab().toImage();
        QVERIFY(!shot.isNull());
        QVERIFY(w.console()->toPlainText().contains(QStringLiteral("fabric from")));
    }
};

QTEST_MAIN(TestGuiCanvas)
#include "test_gui_canvas.moc"
