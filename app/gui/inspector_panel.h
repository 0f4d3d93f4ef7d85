#pragma once
// The Inspector dock: every fact of the selected item with its source, its
// highlights and why, and for a GPU or NIC its path to each NIC or GPU.
#include "workspace/live_workspace.h"

#include <QTreeWidget>

namespace rackscope::gui {

class InspectorPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(QWidget* parent = nullptr);
    void retranslate();
    void showItem(const WorkspaceView& view, int item);

private:
    QTreeWidgetItem* row(const QString& fact, const QString& value);
};

} // namespace rackscope::gui
