#pragma once
// A diagram painted into an image in horizontal bands, each on its own core: a full repaint of a large
// cluster is mostly rasterising cables, and that divides evenly by rows. The picture is the one
// paintDiagram draws in one piece, but for a lone pixel at a box's corner where its outline crosses a
// band's edge (Qt's line rasteriser clips there); the tests hold the two to that.
#include "diagram_painter.h"

#include <QColor>
#include <QRect>
#include <QTransform>

class QImage;

namespace rackscope {

// Fills `area` (in the image's logical pixels) with `background`, then draws the diagram there through
// `sceneToImage`. Only what meets `o.exposed` (empty: everything) is drawn, as paintDiagram does. `bands`
// 0: one per core, fewer where the area is low.
void paintDiagramInBands(QImage& image, const QRect& area, const QTransform& sceneToImage, const Diagram& d,
                         const PaintOptions& o, const QColor& background, int bands = 0);

} // namespace rackscope
