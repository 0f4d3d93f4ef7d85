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
    bool noText = false;     // a map of a poster's pages: boxes and cables only
};

void paintDiagram(QPainter& p, const Diagram& d, const PaintOptions& o);

// Where the diagram is drawn too small for its text (`scale` screen pixels per scene unit), a server's or a
// switch's name at a small legible size: whole where it fits its box, else its short label; empty where
// neither fits, for an open server (its parts fill it) and for other items.
QString farName(const DiagramItem& it, double scale);
constexpr int kFarNamePixels = 8;
// A pod's caption as drawn at that scale: the longest of its captions that fits, at 12 px under the pod where
// the text is drawn, else at kFarNamePixels on screen, under it or, where the pod is too small to read, over
// it on a plate. Empty text where none fits.
struct PlacedCaption {
    QRectF rect; // in scene units
    QString text;
    bool overPod = false;
};
PlacedCaption placeCaption(const DiagramGroup& g, double scale);

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
