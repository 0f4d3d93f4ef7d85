// The topology canvas in the real window (offscreen): findings select and
// centre their item, the inspector shows every fact with its source, hover
// text says why, search and the keyboard move the selection, servers open
// and close, highlights switch off, and the window's export is the diagram.
#include "test_support.h"

#include "main_window.h"
#include "topology_canvas.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QMessageBox>
#include <QTimer>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char kK40[] = "topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt";

QTreeWidgetItem* findingTo(QTreeWidget* list, const QString& target) {
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->data(0, Qt::UserRole).toString() == target) return list->topLevelItem(i);
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
        gui::TopologyCanvas* canvas = w.canvas();
        const QString gpu0 = QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC/GPU0");
        QTreeWidgetItem* finding = findingTo(w.findingList(), gpu0);
        QVERIFY2(finding, "a finding about GPU0 (its nearest NIC is across the socket)");
        QAbstractItemModelTester findings(w.findingList()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.findingList()->setCurrentItem(finding);
        emit w.findingList()->itemClicked(finding, 0);
        const int item = canvas->diagram().find(gpu0);
        QCOMPARE(canvas->selected(), item);
        const QPointF centre = canvas->toWidget(canvas->diagram().items[item].rect.center());
        QVERIFY(std::abs(centre.x() - canvas->width() / 2.0) < 2 && std::abs(centre.y() - canvas->height() / 2.0) < 2);
        // The inspector: every fact, the source first, the highlights and the paths.
        QAbstractItemModelTester inspector(w.inspector()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList facts;
        for (int i = 0; i < w.inspector()->topLevelItemCount(); ++i)
            facts << w.inspector()->topLevelItem(i)->text(0) + QStringLiteral(" = ") + w.inspector()->topLevelItem(i)->text(1);
        QVERIFY2(facts.filter(QStringLiteral("source = nvidia-smi-topo")).size() == 1, qPrintable(facts.join(QLatin1Char('\n'))));
        QVERIFY(facts.filter(QStringLiteral("path to NIC0 = SYS; GPUDirect RDMA no")).size() == 1);
        QVERIFY(facts.filter(QStringLiteral("crosses the CPU socket")).size() == 1);
        // Hover text says why.
        const QString tip = canvas->toolTipFor(item);
        QVERIFY(tip.contains(QStringLiteral("crosses the CPU socket")) && tip.contains(QStringLiteral("[SYS]")));
        // What is under a point is what is drawn there.
        QCOMPARE(canvas->itemAt(centre), item);
    }

    void searchKeyboardAndOpeningServers() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFiles({fixture(QLatin1String(kK40)), fixture(QStringLiteral("nccl-topo-azure-ndv4.xml"))}));
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
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, canvas->toWidget(canvas->diagram().items[host].rect.topLeft() + QPointF(5, 5)).toPoint());
        QVERIFY(canvas->diagram().items.size() < open);
        QVERIFY(canvas->diagram().children(canvas->diagram().find(QStringLiteral("host:nccl-topo-azure-ndv4"))).empty());
        const int closed = canvas->diagram().find(QStringLiteral("host:nccl-topo-azure-ndv4"));
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, canvas->toWidget(canvas->diagram().items[closed].rect.center()).toPoint());
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
            if (it.kind == ItemKind::Gpu || it.kind == ItemKind::Nic) QVERIFY(text.contains(QStringLiteral(">") + it.label + QStringLiteral("<")));
        QVERIFY(w.console()->toPlainText().contains(QStringLiteral("exported the diagram to")));
    }

    // With only this machine shown, the demo is offered; taking it shows the whole rack.
    void firstStartOffersTheDemo() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLocalMachine();
        QPushButton* offer = nullptr;
        for (QPushButton* b : w.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Open the demo cluster")) offer = b;
        QVERIFY(offer && offer->isVisible());
        QTest::mouseClick(offer, Qt::LeftButton);
        QCOMPARE(w.hosts().size(), std::size_t(8));
        QVERIFY(!offer->isVisible());
        const Diagram& d = w.canvas()->diagram();
        QVERIFY(d.find(QStringLiteral("switch:spine-01")) >= 0 || std::any_of(d.items.begin(), d.items.end(), [](const DiagramItem& i) { return i.label == QLatin1String("spine-01"); }));
        QVERIFY(w.findingList()->topLevelItemCount() > 5);
        // The servers list groups them by the leaves they reach: node07 (six NICs) apart from the rest.
        QCOMPARE(w.serverList()->topLevelItemCount(), 2);
        int grouped = 0;
        for (int i = 0; i < w.serverList()->topLevelItemCount(); ++i) grouped += w.serverList()->topLevelItem(i)->childCount();
        QCOMPARE(grouped, 8);
        QVERIFY(!w.serverList()->findItems(QStringLiteral("6 leaves"), Qt::MatchStartsWith).isEmpty());
    }

    // A cable says what it is when the pointer is on it: its ends, its speed, its rail and what is wrong with it.
    void cablesSayWhatTheyAreOnHover() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openDemo();
        gui::TopologyCanvas* canvas = w.canvas();
        const Diagram& d = canvas->diagram();
        int flagged = -1;
        const Highlight* why = nullptr;
        for (const Highlight& h : d.highlights)
            if (!h.links.empty() && flagged < 0) flagged = h.links.front(), why = &h;
        QVERIFY2(flagged >= 0, "the demo has a cable with something wrong");
        const DiagramLink& l = d.links[size_t(flagged)];
        canvas->select(l.b, true); // bring it into view
        // a point of it no device box covers (a cable may pass behind another server's NIC)
        QPointF on;
        for (double t = 0.05; t < 1 && on.isNull(); t += 0.05) {
            const QPointF p = canvas->toWidget(pointOnLink(d, flagged, t));
            const int under = canvas->itemAt(p);
            if (under < 0 || d.items[size_t(under)].container()) on = p;
        }
        QVERIFY(!on.isNull());
        QCOMPARE(canvas->linkAt(on), flagged);
        const QString tip = canvas->toolTipForLink(flagged);
        QVERIFY2(tip.contains(d.items[size_t(l.a)].label) && tip.contains(d.items[size_t(l.b)].label) && tip.contains(l.label.toHtmlEscaped()) &&
                     tip.contains(why->why.toHtmlEscaped()),
                 qPrintable(tip));
        QMouseEvent move(QEvent::MouseMove, on, canvas->mapToGlobal(on), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &move);
        QCOMPARE(canvas->paintOptions().hoveredLink, flagged); // drawn lit
        QCOMPARE(canvas->paintOptions().hovered, -1);
        // away from every cable, or on a device box, there is none
        QCOMPARE(canvas->linkAt(canvas->toWidget(d.bounds.topLeft() - QPointF(60, 60))), -1);
        const int gpu = d.find(QStringLiteral("node01/GPU0"));
        QVERIFY(gpu >= 0);
        QCOMPARE(canvas->linkAt(canvas->toWidget(d.items[size_t(gpu)].rect.center())), -1);
    }

    // A session saved from one window opens in another as it was; a broken one gets a dialog and the window keeps what it had.
    void sessionsSaveOpenAndRefuse() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rack.rsession"));
        {
            gui::MainWindow w;
            w.openDemo();
            w.markFlagged({QStringLiteral("node03")});
            QVERIFY(w.saveSession(path));
        }
        gui::MainWindow w;
        QVERIFY(w.openTopology(path));
        QCOMPARE(w.hosts().size(), std::size_t(8));
        int slow = 0;
        for (const Highlight& h : w.canvas()->diagram().highlights) slow += h.kind == HighlightKind::SlowHost;
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
        QString dialogText;
        QTimer::singleShot(100, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                dialogText = box->text();
                box->accept();
            }
        });
        QVERIFY(!w.openTopology(broken));
        QVERIFY2(dialogText.contains(QStringLiteral("malformed JSON")), qPrintable(dialogText));
        QCOMPARE(w.hosts().size(), std::size_t(8)); // nothing lost
    }

    // Many servers open closed, with the fabric above them, and paint.
    void aFabricOfManyServers() {
        gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openTopology(fixture(QStringLiteral("ibnetdiscover-dgx-superpod-ndr-qm9701.txt"))));
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
