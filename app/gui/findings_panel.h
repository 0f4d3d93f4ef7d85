#pragma once
// The Findings dock: every finding of the view (servers', fabric's, load
// runs'); a click selects and centres what it is about.
#include "workspace/live_workspace.h"

#include <QTreeWidget>

namespace rackscope::gui {

class FindingsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit FindingsPanel(QWidget* parent = nullptr);
    void retranslate();
    void showFindings(const WorkspaceView& view);

signals:
    void itemChosen(const QString& diagramId);

private:
    std::vector<Finding> shown_; // in the order of the rows
};

} // namespace rackscope::gui
