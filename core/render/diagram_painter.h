#pragma once
// Draws a Diagram with QPainter: the canvas paints it on screen, the exports
// into SVG, PNG and PDF, so a diagram in a design review is exactly what the
// window showed. Text is left out where it would be too small to read, and
// only what meets `exposed` is drawn, which keeps a repaint of a 64-server
// cluster in full detail fast.
#include "diagram/diagram.h"

#include <QPointF>
#include <QRectF>
#include <array>

class QPainter;

namespace rackscope {

struct PaintOptions {
    std::array<bool, kHighlightKinds> show = [] { // every kind shown
        std::array<bool, kHighlightKinds> all;
        all.fill(true);
        return all;
    }();
    int selected = -1;
    int hovered = -1;
    int hoveredLink = -1;
    QRectF exposed;          // scene rectangle to draw; empty: everything
    bool alwaysText = false; // exports: every label, whatever the scale
};

void paintDiagram(QPainter& p, const Diagram& d, const PaintOptions& o);

// One label for each bundle of cables leaving a switch at one speed, under it ("4x NDR ×16"): where it is
// drawn and what it says.
struct BundleLabel {
    QRectF rect;
    QString text;
};
std::vector<BundleLabel> bundleLabels(const Diagram& d);

// The link drawn nearest a scene point, within `tolerance` scene units, or -1: what the pointer is on.
int linkAt(const Diagram& d, QPointF scenePoint, double tolerance);
// A point on a link's drawn curve, t from 0 (its upper end) to 1.
QPointF pointOnLink(const Diagram& d, int link, double t);

// The legend: item kinds, rails and the highlights shown (with their count).
// In `columns` columns (one beside the drawing, several under it).
QSizeF legendSize(const Diagram& d, const PaintOptions& o, int columns = 1);
void paintLegend(QPainter& p, QPointF topLeft, const Diagram& d, const PaintOptions& o, int columns = 1);

struct TitleBlock {
    QString title, date, version, source;
};
QSizeF titleBlockSize(const TitleBlock& t, double width);
void paintTitleBlock(QPainter& p, const QRectF& r, const TitleBlock& t);

} // namespace rackscope
