// The window opens, shows a fixture, and refuses a bad file with a dialog.
#include "gui_test_support.h"
#include "test_support.h"

#include "export_dialog.h"
#include "language.h"
#include "main_window.h"
#include "topology_canvas.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>
#include <QTreeWidget>

using namespace rackscope::test;

namespace {

const rackscope::DiagramItem& itemOf(rackscope::gui::MainWindow& w, const QString& id) {
    const rackscope::Diagram& d = w.canvas()->diagram();
    static const rackscope::DiagramItem none;
    const int i = d.find(id);
    return i < 0 ? none : d.items[std::size_t(i)];
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void opensAndShowsATopology() {
        rackscope::gui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("rackscope")));
        QVERIFY(w.openTopology(fixture(QStringLiteral("nccl-topo-azure-ndv5.xml"))));
        QVERIFY(settled(w));
        QCOMPARE(w.hosts().size(), size_t(1));
        QVERIFY(w.findChild<QPlainTextEdit*>(QStringLiteral("report"))
                    ->toPlainText()
                    .contains(QStringLiteral("GPU7")));
    }

    void badFileGetsADialogAndKeepsWhatWasShown() {
        rackscope::gui::MainWindow w;
        QVERIFY(w.openTopology(fixture(QStringLiteral("nccl-topo-azure-ndv5.xml"))));
        QVERIFY(settled(w));
        QVERIFY(w.openTopology(fixture(QStringLiteral("PROVENANCE.md"))));
        QVERIFY(settled(w));
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("problem"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("not a topology or fabric source")),
                 qPrintable(box->text()));
        QCOMPARE(w.hosts().size(), size_t(1)); // the earlier host is still there
    }

    void showsThisMachineThroughItsAgent() {
        rackscope::gui::MainWindow w;
        w.showLocalMachine();
        QVERIFY(settled(w));
        QCOMPARE(w.hosts().size(), size_t(1));
        QCOMPARE(w.hosts().front().host.source.format, rackscope::SourceFormat::AgentSnapshot);
    }

    // A long value in the Inspector wraps in its dock rather than ending in "…".
    void inspectorWrapsLongValues() {
        rackscope::gui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openTopology(fixture(QStringLiteral("topo-m-8xH200-12nic-dgx.txt"))));
        QVERIFY(settled(w));
        QVERIFY(w.selectItem(QStringLiteral("topo-m-8xH200-12nic-dgx/GPU0")));
        QTreeWidget* in = w.inspector();
        QTreeWidgetItem* longest = nullptr;
        for (int i = 0; i < in->topLevelItemCount(); ++i)
            if (!longest || in->topLevelItem(i)->text(1).size() > longest->text(1).size())
                longest = in->topLevelItem(i);
        QVERIFY(longest);
        QVERIFY2(in->fontMetrics().horizontalAdvance(longest->text(1)) > in->header()->sectionSize(1),
                 "the value is longer than its column");
        QTRY_VERIFY(in->visualItemRect(longest).height() >= 2 * in->fontMetrics().height());
    }

    void speaksSimplifiedChinese() {
        QTranslator zh;
        QVERIFY(zh.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("rackscope"),
                        QStringLiteral("_"), QStringLiteral(":/i18n")));
        QApplication::installTranslator(&zh);
        rackscope::gui::MainWindow w;
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
        // The diagram's words and the facts' names too.
        QVERIFY(w.openTopology(fixture(QStringLiteral("nccl-topo-azure-ndv4.xml"))));
        QVERIFY(settled(w));
        QVERIFY(w.selectItem(QStringLiteral("nccl-topo-azure-ndv4/GPU0")));
        QStringList facts;
        for (int i = 0; i < w.inspector()->topLevelItemCount(); ++i)
            facts << w.inspector()->topLevelItem(i)->text(0);
        QVERIFY2(facts.contains(QStringLiteral("PCI 地址")) && facts.contains(QStringLiteral("来源")),
                 qPrintable(facts.join(QLatin1Char(','))));
        // and the findings' sentences, which the core writes (the CLI, with no translator, keeps them
        // English)
        QVERIFY(w.openTopology(fixture(QStringLiteral("hwloc-nvidiaDGX2.xml"))));
        QVERIFY(settled(w));
        QStringList messages;
        for (int i = 0; i < w.findingList()->topLevelItemCount(); ++i)
            messages << w.findingList()->topLevelItem(i)->text(3);
        QVERIFY2(
            messages.contains(QStringLiteral("来源中没有网卡：无法判断 GPUDirect RDMA 和 NCCL 的网卡选择。")),
            qPrintable(messages.join(QLatin1Char('\n'))));
        QApplication::removeTranslator(&zh);
    }

    // View → Language takes effect at once, in the same window, and keeps everything it shows.
    void switchesLanguageInPlace() {
        const QString before = rackscope::gui::chosenLanguage();
        rackscope::gui::MainWindow w;
        w.openDemo();
        QVERIFY(settled(w));
        QVERIFY(!w.selectItem(QStringLiteral("node08/GPU4")));    // a cluster opens as cards
        emit w.canvas()->expandToggled(QStringLiteral("node08")); // as a double-click on its card does
        QVERIFY(settled(w));
        QVERIFY(w.selectItem(QStringLiteral("node08/GPU4")));
        QVERIFY(w.canvas()
                    ->diagram()
                    .items[size_t(w.canvas()->diagram().find(QStringLiteral("host:node01")))]
                    .closed);
        w.console()->appendPlainText(QStringLiteral("a line the console keeps"));
        QTreeWidgetItem* const firstRow = w.findingList()->topLevelItem(0);
        QVERIFY(firstRow);
        QVERIFY(w.switchLanguage(QStringLiteral("zh_CN")));
        // The findings' sentences are rendered where they are shown: the same rows read in Chinese at
        // once, before the workspace has analysed anything again.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
        QCOMPARE(w.findingList()->topLevelItem(0), firstRow);
        bool chineseAtOnce = false;
        for (int i = 0; i < w.findingList()->topLevelItemCount(); ++i)
            chineseAtOnce |= w.findingList()->topLevelItem(i)->text(3).contains(QStringLiteral("插槽"));
        QVERIFY(chineseAtOnce);
        QVERIFY(settled(w));
        QCOMPARE(rackscope::gui::chosenLanguage(), QStringLiteral("zh_CN"));
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
        QCOMPARE(w.hosts().size(), std::size_t(8));
        QCOMPARE(w.canvas()->diagram().items[size_t(w.canvas()->selected())].id,
                 QStringLiteral("node08/GPU4"));
        QVERIFY(w.console()->toPlainText().contains(QStringLiteral("a line the console keeps")));
        QVERIFY(!w.statusBar()->currentMessage().contains(QStringLiteral("rsession")));
        bool chineseFinding = false;
        for (int i = 0; i < w.findingList()->topLevelItemCount(); ++i)
            chineseFinding |= w.findingList()->topLevelItem(i)->text(3).contains(QStringLiteral("插槽"));
        QVERIFY(chineseFinding);
        // The canvas's and the exports' own words, and the severities, too.
        const rackscope::Diagram& zhDiagram = w.canvas()->diagram();
        const rackscope::DiagramItem& card =
            zhDiagram.items[size_t(zhDiagram.find(QStringLiteral("host:node01")))];
        QVERIFY2(card.detail.contains(QStringLiteral("个 GPU")), qPrintable(card.detail));
        QVERIFY2(zhDiagram.title.contains(QStringLiteral("台服务器")), qPrintable(zhDiagram.title));
        const QString severity = w.findingList()->topLevelItem(0)->text(0);
        QVERIFY2(severity == QStringLiteral("警告") || severity == QStringLiteral("错误") ||
                     severity == QStringLiteral("信息"),
                 qPrintable(severity));
        QCOMPARE(w.findingList()->headerItem()->text(0), QStringLiteral("严重程度"));
        QVERIFY(w.switchLanguage(QStringLiteral("en")));
        QVERIFY(settled(w));
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
        QCOMPARE(w.findingList()->headerItem()->text(0), QStringLiteral("Severity"));
        QCOMPARE(w.hosts().size(), std::size_t(8));
        rackscope::gui::applyLanguage(before);
        rackscope::gui::rememberLanguage(before);
    }

    // The Servers dock groups the servers by pod as the canvas draws them: node07, which lost two cables, is
    // still in its rack's pod.
    void serversDockListsThePodsAsDrawn() {
        rackscope::gui::MainWindow w;
        w.openDemo();
        QVERIFY(settled(w));
        auto* servers = w.findChild<QTreeWidget*>(QStringLiteral("servers"));
        QVERIFY(servers);
        QCOMPARE(servers->topLevelItemCount(), 1);
        QTreeWidgetItem* pod = servers->topLevelItem(0);
        QCOMPARE(pod->text(0), QStringLiteral("node[01-08] · 8 servers · 64 GPUs"));
        QCOMPARE(pod->childCount(), 8);
        QVERIFY(pod->toolTip(0).contains(QStringLiteral("leaf-rail7")));
    }

    // Zoomed in far enough to read a server's parts, the cards in view open, the one in the middle staying
    // where it was on screen; zoomed out, they close again, except one the person opened.
    void zoomOpensAndClosesCards() {
        rackscope::gui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openDemo();
        QVERIFY(settled(w));
        rackscope::gui::TopologyCanvas* canvas = w.canvas();
        QVERIFY(itemOf(w, QStringLiteral("host:node03")).closed);
        QVERIFY(canvas->zoom() < rackscope::gui::TopologyCanvas::kOpenZoom);
        canvas->select(canvas->diagram().find(QStringLiteral("host:node03")), true); // centred, at about 1:1
        const QPointF middle(canvas->width() / 2.0, canvas->height() / 2.0);
        canvas->zoomBy(1.0 / canvas->zoom(), middle);
        const QPointF cardAt = canvas->toWidget(itemOf(w, QStringLiteral("host:node03")).rect.topLeft());
        QTRY_VERIFY_WITH_TIMEOUT(!itemOf(w, QStringLiteral("host:node03")).closed && !w.busy(), 60000);
        QVERIFY(w.canvas()->diagram().find(QStringLiteral("node03/GPU0")) >= 0);
        const QPointF openAt = canvas->toWidget(itemOf(w, QStringLiteral("host:node03")).rect.topLeft());
        QVERIFY2(std::hypot(openAt.x() - cardAt.x(), openAt.y() - cardAt.y()) < 1,
                 qPrintable(QStringLiteral("moved from %1,%2 to %3,%4")
                                .arg(cardAt.x())
                                .arg(cardAt.y())
                                .arg(openAt.x())
                                .arg(openAt.y())));
        // node01, opened by the person, stays open; the zoom's close.
        if (itemOf(w, QStringLiteral("host:node01")).closed) {
            emit canvas->expandToggled(QStringLiteral("node01"));
        } else { // the zoom opened it: a double-click closes it, another opens it for good
            emit canvas->expandToggled(QStringLiteral("node01"));
            QVERIFY(settled(w));
            emit canvas->expandToggled(QStringLiteral("node01"));
        }
        QVERIFY(settled(w));
        QVERIFY(!itemOf(w, QStringLiteral("host:node01")).closed);
        canvas->zoomBy(0.2 / canvas->zoom(), middle);
        QTRY_VERIFY_WITH_TIMEOUT(itemOf(w, QStringLiteral("host:node03")).closed && !w.busy(), 60000);
        QVERIFY(!itemOf(w, QStringLiteral("host:node01")).closed);
        // Zoomed in again, then 0: the whole picture, the zoom's servers closed again and the result fitted.
        canvas->select(canvas->diagram().find(QStringLiteral("host:node03")), true);
        canvas->zoomBy(1.0 / canvas->zoom(), middle);
        QTRY_VERIFY_WITH_TIMEOUT(!itemOf(w, QStringLiteral("host:node03")).closed && !w.busy(), 60000);
        QTest::keyClick(canvas, Qt::Key_0);
        QTRY_VERIFY_WITH_TIMEOUT(itemOf(w, QStringLiteral("host:node03")).closed && !w.busy(), 60000);
        const QRectF b = canvas->diagram().bounds;
        const QRectF shown(canvas->toWidget(b.topLeft()), canvas->toWidget(b.bottomRight()));
        QVERIFY2(QRectF(canvas->rect()).adjusted(-1, -1, 1, 1).contains(shown) &&
                     (shown.width() > canvas->width() - 2 || shown.height() > canvas->height() - 2),
                 qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                                .arg(shown.x())
                                .arg(shown.y())
                                .arg(shown.width())
                                .arg(shown.height())
                                .arg(canvas->width())
                                .arg(canvas->height())));
    }

    // File → Export diagram…: a preview and what the file will be, the servers and highlights chosen, and
    // no export of a filter that leaves nothing to draw.
    void exportDialogPreviewsWhatItWillWrite() {
        auto view = std::make_shared<rackscope::WorkspaceView>();
        QVERIFY(view->workspace.open({QStringLiteral(":/demo/demo.cluster")}, rackscope::Workspace::Mode::Add)
                    .empty());
        view->diagram = rackscope::buildDiagram(view->workspace.diagramInput(), view->options);
        QTemporaryDir dir;
        rackscope::gui::ExportDialog dialog(
            view, {},
            {QString(), QStringLiteral("2026-12-06"), QStringLiteral("0.1.0"), QStringLiteral("demo")});
        dialog.show();
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        dialog.pathEdit()->setText(dir.filePath(QStringLiteral("review.pdf")));
        QCOMPARE(rackscope::ExportFormat(dialog.formatBox()->currentData().toInt()),
                 rackscope::ExportFormat::Pdf);
        QVERIFY2(dialog.summaryLabel()->text().contains(QStringLiteral("One A3 landscape page")),
                 qPrintable(dialog.summaryLabel()->text()));
        QVERIFY(ok->isEnabled());
        // the preview is a page with the picture on it, not a blank
        const QImage preview = dialog.previewLabel()->pixmap().toImage();
        QSet<QRgb> colours;
        for (int y = 0; y < preview.height(); y += 3)
            for (int x = 0; x < preview.width(); x += 3)
                colours.insert(preview.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));

        dialog.hostsEdit()->setText(QStringLiteral("gpu[01-02]"));
        dialog.relayOut();
        QString problem;
        QVERIFY(!dialog.request(&problem));
        QVERIFY2(problem.contains(QStringLiteral("nothing to draw")), qPrintable(problem));
        QVERIFY(!ok->isEnabled());

        dialog.hostsEdit()->setText(QStringLiteral("node0[1-2]"));
        dialog.serversBox()->setCurrentIndex(2); // every server open
        dialog.formatBox()->setCurrentIndex(dialog.formatBox()->findData(int(rackscope::ExportFormat::Svg)));
        QVERIFY(dialog.pathEdit()->text().endsWith(QStringLiteral("review.svg")));
        for (int k = 0; k < dialog.highlightsList()->count(); ++k)
            dialog.highlightsList()->item(k)->setCheckState(Qt::Unchecked);
        const auto request = dialog.request(&problem);
        QVERIFY2(request, qPrintable(problem));
        QStringList hosts;
        for (const rackscope::DiagramItem& it : request->diagram.items)
            if (it.kind == rackscope::ItemKind::Host) {
                hosts << it.host;
                QVERIFY(!it.closed);
            }
        QCOMPARE(hosts, (QStringList{QStringLiteral("node01"), QStringLiteral("node02")}));
        QVERIFY(std::none_of(request->options.paint.show.begin(), request->options.paint.show.end(),
                             [](bool shown) { return shown; }));
        QCOMPARE(rackscope::exportDiagram(request->diagram, request->path, request->options), QString());
        QFile svg(request->path);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("node02") && text.contains("GPU7") && !text.contains("node05"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
