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
    bool landscape = true;                      // PDF
    PaintOptions paint;
    TitleBlock title;
};

// Empty on success, else what went wrong.
QString exportDiagram(const Diagram& d, const QString& path, const ExportOptions& o);
// The composed page (title block, diagram, legend) in scene units, and drawing it: shared by the formats.
QSizeF composedSize(const Diagram& d, const ExportOptions& o);
void paintComposed(QPainter& p, const Diagram& d, const ExportOptions& o);
QByteArray diagramToDot(const Diagram& d, const PaintOptions& o);

} // namespace rackscope
