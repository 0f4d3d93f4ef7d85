#include "diagram_export.h"

#include "diagram_style.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

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

QSizeF composedSize(const Diagram& d, const ExportOptions& o) {
    const QSizeF legend = legendSize(d, o.paint);
    const double width = d.bounds.width() + legend.width() + 3 * kMargin;
    const double height =
        titleBlockSize(o.title, width).height() + std::max(d.bounds.height(), legend.height()) + 3 * kMargin;
    return {width, height};
}

void paintComposed(QPainter& p, const Diagram& d, const ExportOptions& o) {
    const QSizeF size = composedSize(d, o);
    p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    const double titleH = titleBlockSize(o.title, size.width()).height();
    paintTitleBlock(p, QRectF(kMargin, kMargin, size.width() - 2 * kMargin, titleH), o.title);
    const double top = 2 * kMargin + titleH;
    p.save();
    p.translate(kMargin - d.bounds.left(), top - d.bounds.top());
    PaintOptions po = o.paint;
    po.alwaysText = true;
    paintDiagram(p, d, po);
    p.restore();
    paintLegend(p, QPointF(2 * kMargin + d.bounds.width(), top), d, o.paint);
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
    const QSizeF size = composedSize(d, o);
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
        QPdfWriter pdf(path);
        pdf.setPageSize(QPageSize(o.page));
        pdf.setPageOrientation(o.landscape ? QPageLayout::Landscape : QPageLayout::Portrait);
        pdf.setPageMargins(QMarginsF(10, 10, 10, 10), QPageLayout::Millimeter);
        pdf.setTitle(o.title.title);
        pdf.setCreator(QStringLiteral("rackscope ") + o.title.version);
        QPainter p;
        if (!p.begin(&pdf))
            return QStringLiteral("cannot write %1").arg(path);
        const QRect page = pdf.pageLayout().paintRectPixels(pdf.resolution());
        const double fit = std::min(page.width() / size.width(), page.height() / size.height());
        p.scale(fit, fit);
        paintComposed(p, d, o);
        p.end();
        return {};
    }
    }
    return QStringLiteral("unknown format");
}

} // namespace rackscope
