#pragma once
// The Rack check dock: every server by every check, each cell coloured by its verdict; a cell opens its
// evidence below and asks for what it concerns to be selected on the canvas. It only shows a RackCheck: the
// check runs in the core (acceptance/rack_check.h) on the workspace the window shows.
#include "acceptance/rack_check.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace rackscope::gui {

class RackCheckPanel : public QWidget {
    Q_OBJECT
public:
    explicit RackCheckPanel(QWidget* parent = nullptr);
    void retranslate();
    void showCheck(const RackCheck& rack);
    const RackCheck& shown() const { return rack_; }
    QTableWidget* table() const { return table_; }
    QTreeWidget* evidence() const { return evidence_; }
    void setRunning(bool running);

    static QColor verdictColour(Verdict v);
    static QString verdictText(Verdict v); // in the language installed

signals:
    void runRequested();
    // A cell was chosen: the server and the device its first item names ("GPU3", "mlx5_0"), if any.
    void itemChosen(const QString& host, const QString& subject);

private:
    void showCell(int row, int column);
    void fillHeaders();

    QPushButton* run_;
    QLabel* summary_;
    QTableWidget* table_;
    QTreeWidget* evidence_;
    RackCheck rack_;
    std::vector<QString> columns_; // check ids, in the table's order
};

} // namespace rackscope::gui
