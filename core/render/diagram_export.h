#pragma once
// Writes a diagram for a design review: SVG, PNG (at a chosen DPI) or PDF (a
// page size, landscape or not), with a title block (name, date, version,
// source) and the legend, drawn by the same painter as the window; or
// Graphviz DOT of the same items. Works headless (the offscreen platform).
#include "diagram_painter.h"

#include <QPageSize>
#include <QString>
#include <optional>

namespace rackscope {

enum class ExportFormat { Svg, Png, Pdf, Dot };
std::optional<ExportFormat> exportFormatFromName(const QString& name); // "svg", "png", "pdf", "dot"

struct ExportOptions {
    ExportFormat format = ExportFormat::Svg;
    int dpi = 150;                              // PNG
    QPageSize::PageSizeId page = QPageSize::A3; // PDF
    std::optional<bool> landscape;              // PDF; by default the orientation the drawing fills best
    PaintOptions paint;
    TitleBlock title;
};

// Empty on success, else what went wrong.
QString exportDiagram(const Diagram& d, const QString& path, const ExportOptions& o);
// The composed picture (title block, diagram, legend beside it or under it, whichever fills an A-series
// landscape page better) in scene units, and drawing it: shared by SVG and PNG. A PDF chooses for its page.
QSizeF composedSize(const Diagram& d, const ExportOptions& o);
void paintComposed(QPainter& p, const Diagram& d, const ExportOptions& o);
QByteArray diagramToDot(const Diagram& d, const PaintOptions& o);

} // namespace rackscope
