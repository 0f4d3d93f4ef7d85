#include "diagram_export.h"

#include "diagram_style.h"
#include "text_size_probe.h"

#include <QFile>
#include <QImage>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>
#include <functional>

namespace rackscope {
namespace {

constexpr double kMargin = 16;

QString dotId(const QString& s) {
    return QLatin1Char('"') +
           QString(s)
               .replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
               .replace(QLatin1Char('"'), QStringLiteral("\\\"")) +
           QLatin1Char('"');
}

} // namespace

std::optional<ExportFormat> exportFormatFromName(const QString& name) {
    const QString n = name.toLower();
    if (n == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (n == QLatin1String("png"))
        return ExportFormat::Png;
    if (n == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (n == QLatin1String("dot"))
        return ExportFormat::Dot;
    return std::nullopt;
}

const std::vector<std::pair<QString, QPageSize::PageSizeId>>& exportPages() {
    static const std::vector<std::pair<QString, QPageSize::PageSizeId>> pages{
        {QStringLiteral("A4"), QPageSize::A4},          {QStringLiteral("A3"), QPageSize::A3},
        {QStringLiteral("A2"), QPageSize::A2},          {QStringLiteral("A1"), QPageSize::A1},
        {QStringLiteral("Letter"), QPageSize::Letter},  {QStringLiteral("Legal"), QPageSize::Legal},
        {QStringLiteral("Tabloid"), QPageSize::Tabloid}};
    return pages;
}

std::optional<QPageSize::PageSizeId> exportPageFromName(const QString& name) {
    for (const auto& [n, id] : exportPages())
        if (name.compare(n, Qt::CaseInsensitive) == 0)
            return id;
    return std::nullopt;
}

namespace {

// Where the legend goes and how big the whole is.
struct Composition {
    bool below = false;
    int columns = 1;
    QSizeF size;
};

Composition compose(const Diagram& d, const ExportOptions& o, bool below) {
    Composition c;
    c.below = below;
    const QSizeF one = legendSize(d, o.paint, 1);
    if (below)
        c.columns = std::max(1, int((d.bounds.width() + 8) / (one.width() + 8)));
    const QSizeF legend = legendSize(d, o.paint, c.columns);
    const double width = below ? std::max(d.bounds.width(), legend.width()) + 2 * kMargin
                               : d.bounds.width() + legend.width() + 3 * kMargin;
    const double title = titleBlockSize(o.title, width).height();
    const double height = below ? title + d.bounds.height() + legend.height() + 4 * kMargin
                                : title + std::max(d.bounds.height(), legend.height()) + 3 * kMargin;
    c.size = QSizeF(width, height);
    return c;
}

// How large a composition draws on a page of this shape (width over height): the larger, the better.
double fill(const Composition& c, double aspect) {
    return std::min(aspect / c.size.width(), 1.0 / c.size.height());
}

Composition bestFor(const Diagram& d, const ExportOptions& o, double aspect) {
    const Composition right = compose(d, o, false), below = compose(d, o, true);
    return fill(below, aspect) > fill(right, aspect) ? below : right;
}

constexpr double kPageAspect = 1.41421356; // A-series, landscape

// `size` scaled to fit `area` whole, centred in it: the scale, and where its top left goes.
struct Fitted {
    double scale;
    QPointF origin;
};
Fitted fitInto(QSizeF size, const QRectF& area) {
    const double scale = std::min(area.width() / size.width(), area.height() / size.height());
    return {scale, QPointF(area.left() + (area.width() - size.width() * scale) / 2,
                           area.top() + (area.height() - size.height() * scale) / 2)};
}

// How much is drawn: everything (a file), the text large enough to read at the scale (a preview), or boxes
// and cables only, the title block and legend as blank boxes (the map of a poster's pages).
enum class Detail { Print, Preview, Map };

// `tile`: the part of the composition a page shows (a poster's page), empty for all of it.
void paintComposition(QPainter& p, const Diagram& d, const ExportOptions& o, const Composition& c,
                      Detail detail = Detail::Print, const QRectF& tile = {}) {
    const bool map = detail == Detail::Map;
    p.fillRect(QRectF(QPointF(0, 0), c.size), Qt::white);
    const double titleH = titleBlockSize(o.title, c.size.width()).height();
    const QRectF titleRect(kMargin, kMargin, c.size.width() - 2 * kMargin, titleH);
    const double top = 2 * kMargin + titleH;
    const QPointF legendAt = c.below ? QPointF(kMargin, top + d.bounds.height() + kMargin)
                                     : QPointF(2 * kMargin + d.bounds.width(), top);
    if (map) {
        p.fillRect(titleRect, QColor(0xf5, 0xf7, 0xfa));
        p.fillRect(QRectF(legendAt, legendSize(d, o.paint, c.columns)), QColor(0xf5, 0xf7, 0xfa));
    } else {
        paintTitleBlock(p, titleRect, o.title);
        paintLegend(p, legendAt, d, o.paint, c.columns);
    }
    p.save();
    p.translate(kMargin - d.bounds.left(), top - d.bounds.top());
    PaintOptions po = o.paint;
    po.alwaysText = detail == Detail::Print;
    po.noText = map;
    if (!tile.isEmpty())
        po.exposed = tile.translated(d.bounds.left() - kMargin, d.bounds.top() - top);
    paintDiagram(p, d, po);
    p.restore();
}

// A PDF's pages: the orientation and legend placement that draw largest (unless an orientation is asked
// for), and the poster's tiles where one page would print the smallest text under 6 pt.
struct PdfPages {
    Composition composition;
    QPageLayout layout;
    double fit = 0;            // device pixels per scene unit on one page
    double readable = 0;       // the same, where the smallest text prints at 6 pt
    double smallestText = 0;   // in scene units
    std::vector<QRectF> tiles; // a poster's pages, in scene units; empty for one page
};

constexpr int kPdfResolution = 1200; // QPdfWriter's
constexpr double kOverlap = 360;     // more than the widest name, so each is whole on some page

// `smallest`: the smallest text the composition draws (smallestText), in scene units; 0: measured here.
PdfPages pdfPages(const Diagram& d, const ExportOptions& o, double smallest) {
    const QSizeF paper = QPageSize(o.page).size(QPageSize::Millimeter) - QSizeF(20, 20); // less margins
    const double wide = std::max(paper.width(), paper.height()) / std::min(paper.width(), paper.height());
    const Composition across = bestFor(d, o, wide), upright = bestFor(d, o, 1 / wide);
    // in units of the paper's short side: a portrait page is `wide` times as tall
    const bool landscape = o.landscape.value_or(fill(across, wide) >= fill(upright, 1 / wide) * wide);
    PdfPages pages;
    pages.composition = landscape ? across : upright;
    pages.layout = QPageLayout(QPageSize(o.page), landscape ? QPageLayout::Landscape : QPageLayout::Portrait,
                               QMarginsF(10, 10, 10, 10), QPageLayout::Millimeter);
    const QRect page = pages.layout.paintRectPixels(kPdfResolution);
    const QSizeF size = pages.composition.size;
    pages.fit = fitInto(size, page).scale;
    // The smallest text drawn: a name shrunk to fit its box, a port's number, a badge.
    pages.smallestText = smallest > 0 ? smallest : smallestText(d, o);
    pages.readable = pages.smallestText > 0 ? 6.0 / pages.smallestText * kPdfResolution / 72.0 : pages.fit;
    if (pages.fit >= pages.readable)
        return pages;
    const QSizeF tile(page.width() / pages.readable, page.height() / pages.readable);
    const int columns = std::max(1, int(std::ceil((size.width() - kOverlap) / (tile.width() - kOverlap))));
    const int rows = std::max(1, int(std::ceil((size.height() - kOverlap) / (tile.height() - kOverlap))));
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < columns; ++k)
            pages.tiles.emplace_back(QPointF(k * (tile.width() - kOverlap), r * (tile.height() - kOverlap)),
                                     tile);
    return pages;
}

// The overview in front of a poster: the whole picture as a map, each page's part outlined and numbered.
void paintPosterMap(QPainter& p, const QRectF& area, const Diagram& d, const ExportOptions& o,
                    const PdfPages& pages, double numberPixels) {
    const QSizeF size = pages.composition.size;
    const auto [scale, origin] = fitInto(size, area);
    p.save();
    p.translate(origin);
    p.scale(scale, scale);
    paintComposition(p, d, o, pages.composition, Detail::Map);
    p.restore();
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setBold(true);
    for (std::size_t i = 0; i < pages.tiles.size(); ++i) {
        const QRectF shown = pages.tiles[i].intersected(QRectF(QPointF(0, 0), size));
        const QRectF r(origin + shown.topLeft() * scale, shown.size() * scale);
        p.setPen(QPen(QColor(0x00, 0x78, 0xd4), std::max(1.0, numberPixels / 12), Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        f.setPixelSize(std::max(1, int(std::min(numberPixels, r.height() / 3))));
        p.setFont(f);
        p.setPen(QColor(0x00, 0x78, 0xd4));
        p.drawText(r, Qt::AlignCenter, QString::number(i + 2)); // page 1 is this map
    }
}

} // namespace

QSizeF composedSize(const Diagram& d, const ExportOptions& o) {
    return bestFor(d, o, kPageAspect).size;
}

void paintComposed(QPainter& p, const Diagram& d, const ExportOptions& o) {
    paintComposition(p, d, o, bestFor(d, o, kPageAspect));
}

bool drawsAServer(const Diagram& d) {
    return std::any_of(d.items.begin(), d.items.end(),
                       [](const auto& it) { return it.kind == ItemKind::Host; });
}

double smallestText(const Diagram& d, const ExportOptions& o) {
    const Composition c = bestFor(d, o, kPageAspect);
    return smallestTextDrawn(c.size, [&](QPainter& p) { paintComposition(p, d, o, c); });
}

ExportPlan planExport(const Diagram& d, const ExportOptions& o, double smallest) {
    ExportPlan plan;
    const QSizeF size = composedSize(d, o);
    plan.pixels = (o.format == ExportFormat::Png ? size * (o.dpi / 72.0) : size).toSize();
    if (o.format == ExportFormat::Pdf) {
        const PdfPages pages = pdfPages(d, o, smallest);
        plan.landscape = pages.layout.orientation() == QPageLayout::Landscape;
        plan.pages = pages.tiles.empty() ? 1 : int(pages.tiles.size()) + 1;
        plan.smallestPt =
            pages.smallestText * (pages.tiles.empty() ? pages.fit : pages.readable) * 72 / kPdfResolution;
    }
    return plan;
}

void paintExportPreview(QPainter& p, const QRectF& target, const Diagram& d, const ExportOptions& o,
                        double smallest) {
    p.save();
    if (o.format != ExportFormat::Pdf) {
        const Composition c = bestFor(d, o, kPageAspect);
        const auto [scale, origin] = fitInto(c.size, target);
        p.translate(origin);
        p.scale(scale, scale);
        paintComposition(p, d, o, c, Detail::Preview);
        p.restore();
        return;
    }
    // The first page on its paper, margins included.
    const PdfPages pages = pdfPages(d, o, smallest);
    const QSizeF paper = pages.layout.fullRectPoints().size();
    const auto [scale, origin] = fitInto(paper, target);
    const QRectF sheet(origin, paper * scale);
    p.setPen(QPen(QColor(0x90, 0x9a, 0xa4), 1));
    p.setBrush(Qt::white);
    p.drawRect(sheet);
    const QRectF inside = pages.layout.paintRectPoints().toRectF();
    const QRectF area(sheet.topLeft() + inside.topLeft() * scale, inside.size() * scale);
    if (pages.tiles.empty()) {
        const auto [fit, at] = fitInto(pages.composition.size, area);
        p.translate(at);
        p.scale(fit, fit);
        paintComposition(p, d, o, pages.composition, Detail::Preview);
    } else {
        const double titleH = titleBlockSize(o.title, area.width()).height() * scale;
        p.fillRect(QRectF(area.topLeft(), QSizeF(area.width(), titleH)), QColor(0xf5, 0xf7, 0xfa));
        paintPosterMap(p, area.adjusted(0, titleH + 4, 0, 0), d, o, pages, 36 * scale);
    }
    p.restore();
}

QByteArray diagramToDot(const Diagram& d, const PaintOptions& o) {
    QByteArray out = "digraph rackscope {\n  graph [rankdir=TB, fontname=\"DejaVu Sans\", label=" +
                     dotId(d.title).toUtf8() +
                     "];\n"
                     "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans\", fontsize=9];\n  "
                     "edge [arrowhead=none];\n";
    std::vector<QString> highlightOf(d.items.size());
    for (const Highlight& h : d.highlights)
        if (o.show[static_cast<std::size_t>(h.kind)])
            for (int i : h.items)
                highlightOf[static_cast<std::size_t>(i)] = highlightColour(h.kind).name();
    // Containers become clusters, devices and switches nodes. Children listed once, not looked up per item
    // and link.
    std::vector<std::vector<int>> children(d.items.size());
    for (std::size_t i = 0; i < d.items.size(); ++i)
        if (d.items[i].parent >= 0)
            children[static_cast<std::size_t>(d.items[i].parent)].push_back(int(i));
    auto open = [&](int i) {
        return d.items[static_cast<std::size_t>(i)].container() &&
               !children[static_cast<std::size_t>(i)].empty();
    };
    std::function<void(int, int)> writeItem = [&](int i, int depth) {
        const DiagramItem& it = d.items[static_cast<std::size_t>(i)];
        const QByteArray indent(2 * depth, ' ');
        const ItemStyle s = itemStyle(it.kind);
        const QString& hl = highlightOf[static_cast<std::size_t>(i)];
        if (open(i)) {
            out += indent + "subgraph " + dotId(QStringLiteral("cluster_") + it.id).toUtf8() + " {\n" +
                   indent + "  label=" + dotId(it.label).toUtf8() +
                   "; style=\"rounded,filled\"; fillcolor=\"" + s.fill.name().toUtf8() + "\"; color=\"" +
                   (hl.isEmpty() ? s.border.name() : hl).toUtf8() + "\";\n";
            for (int c : children[static_cast<std::size_t>(i)])
                writeItem(c, depth + 1);
            out += indent + "}\n";
            return;
        }
        out += indent + dotId(it.id).toUtf8() + " [label=" +
               dotId(it.detail.isEmpty() ? it.label : it.label + QStringLiteral("\\n") + it.detail).toUtf8() +
               ", fillcolor=\"" + s.fill.name().toUtf8() + "\", color=\"" +
               (hl.isEmpty() ? s.border.name() : hl).toUtf8() + "\"" + (hl.isEmpty() ? "" : ", penwidth=3") +
               "];\n";
    };
    for (std::size_t i = 0; i < d.items.size(); ++i)
        if (d.items[i].parent < 0)
            writeItem(int(i), 1);
    for (const DiagramLink& l : d.links) {
        const DiagramItem &a = d.items[static_cast<std::size_t>(l.a)],
                          &b = d.items[static_cast<std::size_t>(l.b)];
        auto end = [&](const DiagramItem& it) { return dotId(it.id).toUtf8(); };
        if (open(l.a) || open(l.b))
            continue; // Graphviz joins nodes only; a cable to a closed server ends at it
        out += "  " + end(a) + " -> " + end(b) + " [color=\"" + railColour(l.rail).name().toUtf8() + "\"" +
               (l.kind == LinkKind::NvLink   ? ", style=dotted, constraint=false"
                : l.kind == LinkKind::GpuNic ? ", style=dashed, constraint=false"
                                             : "") +
               (l.label.isEmpty() ? QByteArray() : ", label=" + dotId(l.label).toUtf8() + ", fontsize=7") +
               "];\n";
    }
    return out + "}\n";
}

QString exportDiagram(const Diagram& d, const QString& path, const ExportOptions& o) {
    const QSizeF size = composedSize(d, o); // SVG and PNG
    switch (o.format) {
    case ExportFormat::Dot: {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(diagramToDot(d, o.paint)) < 0 || !f.commit())
            return QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return {};
    }
    case ExportFormat::Svg: {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), size));
        svg.setResolution(72);
        svg.setTitle(o.title.title);
        svg.setDescription(QStringLiteral("rackscope %1, %2; source: %3")
                               .arg(o.title.version, o.title.date, o.title.source));
        QPainter p;
        if (!p.begin(&svg))
            return QStringLiteral("cannot write %1").arg(path);
        paintComposed(p, d, o);
        p.end();
        return QFile::exists(path) ? QString() : QStringLiteral("cannot write %1").arg(path);
    }
    case ExportFormat::Png: {
        const double scale = o.dpi / 72.0;
        const QSize pixels = (size * scale).toSize();
        if (qint64(pixels.width()) * pixels.height() > 400'000'000LL)
            return QStringLiteral("%1x%2 pixels at %3 DPI is too large; choose a lower DPI or SVG/PDF")
                .arg(pixels.width())
                .arg(pixels.height())
                .arg(o.dpi);
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        if (image.isNull())
            return QStringLiteral("not enough memory for %1x%2 pixels")
                .arg(pixels.width())
                .arg(pixels.height());
        image.setDotsPerMeterX(int(o.dpi / 0.0254));
        image.setDotsPerMeterY(int(o.dpi / 0.0254));
        image.fill(Qt::white);
        QPainter p(&image);
        p.scale(scale, scale);
        paintComposed(p, d, o);
        p.end();
        if (!image.save(path, "PNG"))
            return QStringLiteral("cannot write %1").arg(path);
        return {};
    }
    case ExportFormat::Pdf: {
        const PdfPages pages = pdfPages(d, o, 0);
        const Composition& c = pages.composition;
        QPdfWriter pdf(path);
        pdf.setResolution(kPdfResolution);
        pdf.setPageLayout(pages.layout);
        pdf.setTitle(o.title.title);
        pdf.setCreator(QStringLiteral("rackscope ") + o.title.version);
        QPainter p;
        if (!p.begin(&pdf))
            return QStringLiteral("cannot write %1").arg(path);
        const QRect page = pages.layout.paintRectPixels(kPdfResolution);
        if (pages.tiles.empty()) {
            const auto [fit, at] = fitInto(c.size, page);
            p.translate(at);
            p.scale(fit, fit);
            paintComposition(p, d, o, c);
            p.end();
            return {};
        }
        // Page 1: the title block at its printed size over a map of the pages that follow.
        const double titleH = titleBlockSize(o.title, page.width() / pages.readable).height();
        p.save();
        p.scale(pages.readable, pages.readable);
        paintTitleBlock(p, QRectF(0, 0, page.width() / pages.readable, titleH), o.title);
        p.restore();
        const double below = (titleH + kMargin) * pages.readable;
        paintPosterMap(p, QRectF(0, below, page.width(), page.height() - below), d, o, pages,
                       36.0 * kPdfResolution / 72); // 36 pt
        for (const QRectF& shown : pages.tiles) {
            if (!pdf.newPage())
                return QStringLiteral("cannot write %1").arg(path);
            p.save();
            p.setClipRect(QRectF(0, 0, page.width(), page.height()));
            p.scale(pages.readable, pages.readable);
            p.translate(-shown.topLeft());
            paintComposition(p, d, o, c, Detail::Print, shown);
            p.restore();
        }
        p.end();
        return {};
    }
    }
    return QStringLiteral("unknown format");
}

} // namespace rackscope
