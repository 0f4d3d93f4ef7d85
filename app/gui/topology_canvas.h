#pragma once
// The topology canvas: draws the diagram with the same painter the exports
// use, and lets a person zoom (wheel, +/-), pan (drag, arrows), fit (0),
// select (click, arrow keys move to the nearest item that way), open or close
// a server (double-click, Enter) and read each item's path types and
// highlights in its tooltip, and each cable's speed, ends and highlights in
// its own. Only what is on screen is painted. Zoomed in far enough to read a
// server's parts, the cards in view ask to be opened; zoomed out, the window
// closes them again. A server opened or closed stays where it was on screen.
#include "diagram/diagram.h"
#include "render/diagram_painter.h"

#include <QImage>
#include <QTimer>
#include <QWidget>

namespace rackscope::gui {

class TopologyCanvas : public QWidget {
    Q_OBJECT
public:
    explicit TopologyCanvas(QWidget* parent = nullptr);

    // Keeps the view where it was when the new diagram has the same items (a toggle, a filter), the server
    // toggled in place; fits when the items are new or the view is still as fitted.
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

    // The zoom at which the cards in view open (a server's text reads at about 8 px), and below which the
    // servers the zoom opened close.
    static constexpr double kOpenZoom = 0.7, kCloseZoom = 0.35;

signals:
    void selectionChanged(int item);
    void expandToggled(const QString& host);
    void zoomOpens(const QStringList& hosts); // the cards in view, nearest the middle first
    void zoomedOut();

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
    void viewSettled();      // after a zoom or a pan: open or close by the zoom
    void anchorOn(int item); // the next diagram keeps this item's server where it is on screen

    Diagram diagram_;
    PaintOptions paint_;
    double zoom_ = 1;
    QPointF offset_; // widget position of scene (0, 0)
    QImage frame_;   // painted in bands on every core, then shown (paintDiagramInBands)
    QPoint dragFrom_;
    bool dragging_ = false;
    bool fitted_ = false;
    bool followFit_ = true; // until the person zooms or pans, a resize fits again
    QTimer settle_;         // a zoom or pan has paused
    QString anchorId_;      // a server to keep in place on screen across a new layout
    QPointF anchorAt_;      // where its top left was, in widget pixels
};

} // namespace rackscope::gui
