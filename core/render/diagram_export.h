#pragma once
// Writes a diagram for a design review: SVG, PNG (at a chosen DPI) or PDF (a
// page size, landscape or not), with a title block (name, date, version,
// source) and the legend, drawn by the same painter as the window; or
// Graphviz DOT of the same items. Works headless (the offscreen platform).
#include "diagram_painter.h"

#include <QPageSize>
#include <QSize>
#include <QString>
#include <optional>
#include <utility>
#include <vector>

namespace rackscope {

enum class ExportFormat { Svg, Png, Pdf, Dot };
std::optional<ExportFormat> exportFormatFromName(const QString& name); // "svg", "png", "pdf", "dot"
// The page sizes a PDF is offered in, by name: A4, A3, A2, A1, Letter, Legal, Tabloid.
const std::vector<std::pair<QString, QPageSize::PageSizeId>>& exportPages();
std::optional<QPageSize::PageSizeId> exportPageFromName(const QString& name); // case-insensitive

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
// What an export will make, said before it is written: a PNG's pixels (an SVG's points); a PDF's orientation,
// its pages (one, or a map of the pages followed by a poster of them) and the size its smallest text prints
// at.
struct ExportPlan {
    QSize pixels;
    bool landscape = true;
    int pages = 1;
    double smallestPt = 0;
};
// The smallest text the picture draws, in its own units, measured by drawing it (a PDF's pages are chosen so
// it prints at 6 pt or more). It costs about a drawing of the picture: `smallest`, where given (not 0),
// saves measuring it again for the same diagram and highlights.
double smallestText(const Diagram& d, const ExportOptions& o);
ExportPlan planExport(const Diagram& d, const ExportOptions& o, double smallest = 0);
// The export in small, inside `target`: a PDF's first page on its paper, else the picture.
void paintExportPreview(QPainter& p, const QRectF& target, const Diagram& d, const ExportOptions& o,
                        double smallest = 0);
// Whether a diagram draws any server: an export of none (a hosts filter that matched nothing) is refused.
bool drawsAServer(const Diagram& d);
QByteArray diagramToDot(const Diagram& d, const PaintOptions& o);

} // namespace rackscope
