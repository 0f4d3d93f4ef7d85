// The window opens, shows a fixture, and refuses a bad file with a dialog.
#include "gui_test_support.h"
#include "test_support.h"

#include "language.h"
#include "main_window.h"
#include "topology_canvas.h"

#include <QApplication>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTimer>
#include <QTranslator>
#include <QTreeWidget>

using namespace rackscope::test;

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
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
