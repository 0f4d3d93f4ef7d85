#pragma once
// The topology canvas: draws the diagram with the same painter the exports
// use, and lets a person zoom (wheel, +/-), pan (drag, arrows), fit (0),
// select (click, arrow keys move to the nearest item that way), open or close
// a server (double-click, Enter) and read each item's path types and
// highlights in its tooltip, and each cable's speed, ends and highlights in
// its own. Only what is on screen is painted.
#include "diagram/diagram.h"
#include "render/diagram_painter.h"

#include <QImage>
#include <QWidget>

namespace rackscope::gui {

class TopologyCanvas : public QWidget {
    Q_OBJECT
public:
    explicit TopologyCanvas(QWidget* parent = nullptr);

    // Keeps the view where it was when the new diagram has the same items (a toggle, a filter); fits
    // otherwise.
    void setDiagram(Diagram d);
    const Diagram& diagram() const { return diagram_; }
    void setHighlightShown(HighlightKind kind, bool shown);
    bool highlightShown(HighlightKind kind) const { return paint_.show[static_cast<std::size_t>(kind)]; }
    const PaintOptions& paintOptions() const { return paint_; }

    void select(int item, bool centre);
    int selected() const { return paint_.selected; }
    void fit();
    void zoomBy(double factor, QPointF anchor);
    double zoom() const { return zoom_; }
    QPointF toScene(QPointF widgetPoint) const;
    QPointF toWidget(QPointF scenePoint) const;
    int itemAt(QPointF widgetPoint) const; // the innermost item there, or -1
    QString toolTipFor(int item) const;
    // The cable or NVLink under the pointer where no device box is (a server or a package may be), or -1.
    int linkAt(QPointF widgetPoint) const;
    QString toolTipForLink(int link) const;

signals:
    void selectionChanged(int item);
    void expandToggled(const QString& host);

protected:
    void paintEvent(QPaintEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    struct Hit {
        int item = -1, link = -1; // a link only where no device box is on top of it
    };
    Hit hitAt(QPointF widgetPoint) const;
    void moveSelection(int dx, int dy);
    void toggle(int item);

    Diagram diagram_;
    PaintOptions paint_;
    double zoom_ = 1;
    QPointF offset_; // widget position of scene (0, 0)
    QImage frame_;   // painted in bands on every core, then shown (paintDiagramInBands)
    QPoint dragFrom_;
    bool dragging_ = false;
    bool fitted_ = false;
    bool followFit_ = true; // until the person zooms or pans, a resize fits again
};

} // namespace rackscope::gui
