#pragma once
// File → Export diagram…: where to, the format and its page or resolution, the title, which servers are drawn
// and how (as in the window, all as cards, all open), which highlights, with a preview of the page and what
// it will be (pages, orientation, the smallest text in points, or the pixels). The diagram is laid out again
// from the workspace for the servers chosen; a filter that leaves no server cannot be exported.
#include "render/diagram_export.h"
#include "workspace/live_workspace.h"

#include <QDialog>
#include <QTimer>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace rackscope::gui {

// What the dialog answers: the diagram as it will be drawn, where, and how.
struct ExportRequest {
    QString path;
    Diagram diagram;
    ExportOptions options;
};

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // `view`: what the window shows, its servers opened as there; `paint`: the highlights it shows; `title`:
    // the title block's date, version and source.
    ExportDialog(WorkspaceViewPtr view, const PaintOptions& paint, const TitleBlock& title,
                 QWidget* parent = nullptr);
    // The export the form describes, or the problem with it.
    std::optional<ExportRequest> request(QString* problem) const;

    QLineEdit* pathEdit() const { return path_; }
    QComboBox* formatBox() const { return format_; }
    QComboBox* pageBox() const { return page_; }
    QComboBox* serversBox() const { return servers_; }
    QLineEdit* hostsEdit() const { return hosts_; }
    QListWidget* highlightsList() const { return highlights_; }
    QLabel* previewLabel() const { return preview_; }
    QLabel* summaryLabel() const { return summary_; }
    void relayOut(); // now, not after the pause that lets the hosts be typed

private:
    ExportOptions options() const;
    void formatChosen();
    void pathEdited();
    void showPreview();

    WorkspaceViewPtr view_;
    TitleBlock title_;
    Diagram diagram_;     // as laid out for the servers chosen
    double smallest_ = 0; // its smallest text, measured once for a PDF's plan (0: not yet)
    QString layoutProblem_;
    QLineEdit *path_, *title_edit_, *hosts_;
    QComboBox *format_, *page_, *orientation_, *servers_;
    QSpinBox* dpi_;
    QListWidget* highlights_;
    QLabel *preview_, *summary_, *problem_;
    QTimer relayout_;
};

} // namespace rackscope::gui
