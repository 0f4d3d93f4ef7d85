#pragma once
// The smallest text a drawing puts down, measured by drawing it onto a device that draws nothing and notes
// each piece of text's size: what a PDF checks its 6 pt against, rather than a worst case.
#include <QSizeF>
#include <functional>

class QPainter;

namespace rackscope {

// In the drawing's own units (font pixels times the painter's scale); 0 when it draws no text.
double smallestTextDrawn(QSizeF size, const std::function<void(QPainter&)>& draw);

} // namespace rackscope
