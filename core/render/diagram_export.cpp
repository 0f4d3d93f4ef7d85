#include "diagram_export.h"

#include "diagram_style.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

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

// `tile`: the part of the composition a page shows (a poster's page), empty for all of it.
void paintComposition(QPainter& p, const Diagram& d, const ExportOptions& o, const Composition& c,
                      const QRectF& tile = {}) {
    p.fillRect(QRectF(QPointF(0, 0), c.size), Qt::white);
    const double titleH = titleBlockSize(o.title, c.size.width()).height();
    paintTitleBlock(p, QRectF(kMargin, kMargin, c.size.width() - 2 * kMargin, titleH), o.title);
    const double top = 2 * kMargin + titleH;
    p.save();
    p.translate(kMargin - d.bounds.left(), top - d.bounds.top());
    PaintOptions po = o.paint;
    po.alwaysText = true;
    if (!tile.isEmpty())
        po.exposed = tile.translated(d.bounds.left() - kMargin, d.bounds.top() - top);
    paintDiagram(p, d, po);
    p.restore();
    paintLegend(p,
                c.below ? QPointF(kMargin, top + d.bounds.height() + kMargin)
                        : QPointF(2 * kMargin + d.bounds.width(), top),
                d, o.paint, c.columns);
}

} // namespace

QSizeF composedSize(const Diagram& d, const ExportOptions& o) {
    return bestFor(d, o, kPageAspect).size;
}

void paintComposed(QPainter& p, const Diagram& d, const ExportOptions& o) {
    paintComposition(p, d, o, bestFor(d, o, kPageAspect));
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
        // The orientation and legend placement that draw largest, unless an orientation is asked for.
        const QSizeF paper = QPageSize(o.page).size(QPageSize::Millimeter) - QSizeF(20, 20); // less margins
        const double wide = std::max(paper.width(), paper.height()) / std::min(paper.width(), paper.height());
        const Composition across = bestFor(d, o, wide), upright = bestFor(d, o, 1 / wide);
        // in units of the paper's short side: a portrait page is `wide` times as tall
        const bool landscape = o.landscape.value_or(fill(across, wide) >= fill(upright, 1 / wide) * wide);
        const Composition& c = landscape ? across : upright;
        QPdfWriter pdf(path);
        pdf.setPageSize(QPageSize(o.page));
        pdf.setPageOrientation(landscape ? QPageLayout::Landscape : QPageLayout::Portrait);
        pdf.setPageMargins(QMarginsF(10, 10, 10, 10), QPageLayout::Millimeter);
        pdf.setTitle(o.title.title);
        pdf.setCreator(QStringLiteral("rackscope ") + o.title.version);
        QPainter p;
        if (!p.begin(&pdf))
            return QStringLiteral("cannot write %1").arg(path);
        const QRect page = pdf.pageLayout().paintRectPixels(pdf.resolution());
        const double fit = std::min(page.width() / c.size.width(), page.height() / c.size.height());
        // The smallest text drawn is 7 px (a name shrunk to fit its box): where one page would print it under
        // 6 pt, the picture becomes a poster of pages at that size, overlapping by more than the widest name
        // so every name is whole on one of them.
        const double readable = 6.0 / 7.0 * pdf.resolution() / 72.0; // device pixels per scene unit
        if (fit >= readable) {
            p.translate((page.width() - c.size.width() * fit) / 2,
                        (page.height() - c.size.height() * fit) / 2);
            p.scale(fit, fit);
            paintComposition(p, d, o, c);
            p.end();
            return {};
        }
        constexpr double kOverlap = 360;
        const QSizeF tile(page.width() / readable, page.height() / readable);
        const int columns =
            std::max(1, int(std::ceil((c.size.width() - kOverlap) / (tile.width() - kOverlap))));
        const int rows =
            std::max(1, int(std::ceil((c.size.height() - kOverlap) / (tile.height() - kOverlap))));
        for (int r = 0; r < rows; ++r)
            for (int k = 0; k < columns; ++k) {
                if ((r || k) && !pdf.newPage())
                    return QStringLiteral("cannot write %1").arg(path);
                const QRectF shown(QPointF(k * (tile.width() - kOverlap), r * (tile.height() - kOverlap)),
                                   tile);
                p.save();
                p.setClipRect(QRectF(0, 0, page.width(), page.height()));
                p.scale(readable, readable);
                p.translate(-shown.topLeft());
                paintComposition(p, d, o, c, shown);
                p.restore();
            }
        p.end();
        return {};
    }
    }
    return QStringLiteral("unknown format");
}

} // namespace rackscope
