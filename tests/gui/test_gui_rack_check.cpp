// Run → Check the rack in the window: the Rack check dock shows every server by every check, each cell in its
// verdict's colour and words; a cell opens its evidence and selects what it concerns on the canvas; the
// servers that failed or were warned carry it on the canvas; the dock speaks Simplified Chinese.
#include "gui_test_support.h"
#include "test_support.h"

#include "rack_check_panel.h"
#include "topology_canvas.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTranslator>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

namespace {

bool checked(gui::MainWindow& w) {
    QSignalSpy spy(&w, &gui::MainWindow::rackChecked);
    return w.checkTheRack() && spy.wait(120000) && settled(w);
}

std::vector<std::pair<HighlightKind, QString>> hostMarks(gui::MainWindow& w) {
    std::vector<std::pair<HighlightKind, QString>> out;
    const Diagram& d = w.canvas()->diagram();
    for (const Highlight& h : d.highlights)
        if (h.kind == HighlightKind::CheckFailed || h.kind == HighlightKind::CheckWarned)
            out.emplace_back(h.kind, d.items[size_t(h.items.front())].host);
    return out;
}

} // namespace

class TestGuiRackCheck : public QObject {
    Q_OBJECT
private slots:
    void everyServerByEveryCheck() {
        gui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.openDemo();
        QVERIFY(settled(w));
        QVERIFY(checked(w));
        gui::RackCheckPanel* panel = w.rackCheckPanel();
        QTableWidget* table = panel->table();
        const RackCheck& rack = panel->shown();
        QCOMPARE(table->rowCount(), 8);
        QCOMPARE(size_t(table->columnCount()), rack.servers.front().checks.size());
        QVERIFY(panel->parentWidget()->isVisible()); // its dock raised
        // Each cell is its check's verdict, in words and colour; each row says its server's worst.
        for (int r = 0; r < table->rowCount(); ++r) {
            const ServerCheck& s = rack.servers[size_t(r)];
            QVERIFY(table->verticalHeaderItem(r)->text().startsWith(s.host));
            QVERIFY(
                table->verticalHeaderItem(r)->text().endsWith(gui::RackCheckPanel::verdictText(s.verdict)));
            for (int c = 0; c < table->columnCount(); ++c) {
                const CheckResult& check = s.checks[size_t(c)];
                QCOMPARE(table->horizontalHeaderItem(c)->text(), check.id);
                QCOMPARE(table->item(r, c)->text(), gui::RackCheckPanel::verdictText(check.verdict));
                QCOMPARE(table->item(r, c)->background().color(),
                         gui::RackCheckPanel::verdictColour(check.verdict));
            }
        }
        // The demo's planted faults: node07's NICs, node08's NICs on one socket, node05's extra cable.
        std::vector<std::pair<HighlightKind, QString>> expected{{HighlightKind::CheckWarned, "node05"},
                                                                {HighlightKind::CheckWarned, "node07"},
                                                                {HighlightKind::CheckWarned, "node08"}};
        auto marks = hostMarks(w);
        std::sort(marks.begin(), marks.end(),
                  [](const auto& a, const auto& b) { return a.second < b.second; });
        QCOMPARE(marks, expected);

        // node08's gpudirect cell: its items below, with what to do; the server selected on the canvas.
        const int row = 7;
        int column = -1;
        for (int c = 0; c < table->columnCount(); ++c)
            if (table->horizontalHeaderItem(c)->text() == QLatin1String("gpudirect"))
                column = c;
        QVERIFY(column >= 0);
        QCOMPARE(table->item(row, column)->text(), gui::RackCheckPanel::verdictText(Verdict::Warn));
        table->scrollToItem(table->item(row, column));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualItemRect(table->item(row, column)).center());
        QTreeWidget* evidence = panel->evidence();
        const CheckResult* gpudirect = rack.servers[size_t(row)].check(QStringLiteral("gpudirect"));
        QCOMPARE(evidence->topLevelItemCount(), int(gpudirect->items.size()));
        QCOMPARE(evidence->topLevelItem(0)->text(2), gpudirect->items.front().evidence);
        QVERIFY(!evidence->topLevelItem(0)->text(3).isEmpty());
        const int selected = w.canvas()->selected();
        QVERIFY(selected >= 0);
        QCOMPARE(w.canvas()->diagram().items[size_t(selected)].host, QStringLiteral("node08"));

        if (const QString dir = qEnvironmentVariable("RACKSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
            w.grab().save(dir + QStringLiteral("/rack-check.png"));
    }

    // The servers that failed, on the canvas.
    void failuresOnTheCanvas() {
        gui::MainWindow w;
        QVERIFY(w.openTopology(QStringLiteral(":/demo/nvl72.cluster")));
        QVERIFY(settled(w));
        QVERIFY(checked(w));
        auto marks = hostMarks(w);
        std::sort(marks.begin(), marks.end(),
                  [](const auto& a, const auto& b) { return a.second < b.second; });
        QCOMPARE(marks, (std::vector<std::pair<HighlightKind, QString>>{
                            {HighlightKind::CheckFailed, "tray07"}, {HighlightKind::CheckFailed, "tray24"}}));
    }

    void speaksSimplifiedChinese() {
        QTranslator zh;
        QVERIFY(zh.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("rackscope"),
                        QStringLiteral("_"), QStringLiteral(":/i18n")));
        QApplication::installTranslator(&zh);
        gui::MainWindow w;
        w.openDemo();
        QVERIFY(settled(w));
        QVERIFY(checked(w));
        gui::RackCheckPanel* panel = w.rackCheckPanel();
        QCOMPARE(panel->findChild<QPushButton*>(QStringLiteral("runRackCheck"))->text(),
                 QStringLiteral("检查机架"));
        QCOMPARE(gui::RackCheckPanel::verdictText(Verdict::Fail), QStringLiteral("失败"));
        QCOMPARE(qobject_cast<QDockWidget*>(panel->parentWidget())->windowTitle(),
                 QStringLiteral("机架检查"));
        QVERIFY(panel->table()->horizontalHeaderItem(0)->toolTip().contains(QStringLiteral("服务器")));
        QApplication::removeTranslator(&zh);
    }
};

QTEST_MAIN(TestGuiRackCheck)
#include "test_gui_rack_check.moc"
