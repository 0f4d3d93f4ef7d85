#include "diagram_painter.h"

#include "diagram_style.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace rackscope {
namespace {

// Pixel sizes, so text keeps its size against the boxes on any device (screen, 150 DPI image, PDF).
constexpr int kFont = 12, kSmallFont = 10, kBadgeFont = 9, kMinFont = 7;
const QColor kC2cColour(0x00, 0x79, 0x6b); // NVLink-C2C tags

QFont makeFont(int pixels, bool bold) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

// The few fonts the diagram uses, made once a thread (bands paint on several, diagram_raster.cpp): a repaint
// draws thousands of labels.
const QFont& font(int pixels, bool bold = false) {
    thread_local std::map<std::pair<int, bool>, QFont> fonts;
    auto it = fonts.find({pixels, bold});
    if (it == fonts.end())
        it = fonts.emplace(std::pair{pixels, bold}, makeFont(pixels, bold)).first;
    return it->second;
}

// Text cut to a width with an ellipsis, remembered: the same labels are elided on every repaint.
const QString& elided(const QString& text, int pixels, double width) {
    thread_local QHash<QString, QString> cache;
    if (cache.size() > 50000)
        cache.clear();
    const QString key =
        QString::number(pixels) + QLatin1Char('|') + QString::number(qRound(width)) + QLatin1Char('|') + text;
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.insert(key, QFontMetricsF(font(pixels)).elidedText(text, Qt::ElideRight, width));
    return *it;
}

double advance(const QString& text, int pixels, bool bold) {
    thread_local QHash<QString, double> cache;
    if (cache.size() > 50000)
        cache.clear();
    const QString key = QString::number(pixels) + (bold ? QLatin1Char('b') : QLatin1Char('r')) + text;
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.insert(key, QFontMetricsF(font(pixels, bold)).horizontalAdvance(text));
    return *it;
}

// Screen pixels per scene unit: below a few pixels per letter, text is not worth drawing.
double scaleOf(const QPainter& p) {
    const QTransform& t = p.worldTransform();
    return std::sqrt(std::abs(t.m11() * t.m22() - t.m12() * t.m21()));
}

QPointF anchorBottom(const QRectF& r) {
    return {r.center().x(), r.bottom()};
}

void drawPorts(QPainter& p, const DiagramItem& it, bool text) {
    for (int i = 0; i < int(it.ports.size()); ++i) {
        const DiagramPort& port = it.ports[size_t(i)];
        const QRectF r = portRect(it, i);
        p.setPen(QPen(QColor(0x37, 0x47, 0x4f), 0.8));
        p.setBrush(!port.up   ? QColor(0xb0, 0xbe, 0xc5)
                   : *port.up ? QColor(0x43, 0xa0, 0x47)
                              : QColor(0xe5, 0x39, 0x35));
        p.drawRect(r);
        if (text && port.name.size() <=
                        2) { // a port number fits in its tab; a net device's name is in the detail line
            p.setPen(Qt::white);
            p.setFont(font(7, true));
            p.drawText(r, Qt::AlignCenter, port.name);
        }
    }
}

// The largest size from `pixels` down to kMinFont at which text fits `width`; 0 when none does.
int fittingSize(const QString& text, int pixels, bool bold, double width) {
    for (int px = pixels; px >= kMinFont; --px)
        if (advance(text, px, bold) <= width)
            return px;
    return 0;
}

// A name drawn whole, smaller where it must be; cut only where even the smallest size is too wide.
void drawFitted(QPainter& p, const QRectF& r, int flags, const QString& text, int pixels, bool bold) {
    const int px = fittingSize(text, pixels, bold, r.width());
    p.setFont(font(px ? px : kMinFont, bold));
    p.drawText(r, flags, px ? text : elided(text, kMinFont, r.width()));
}

// A closed server's verdicts: a coloured badge each, worst first, on its last line.
void drawBadges(QPainter& p, const DiagramItem& it, const std::vector<HighlightKind>& kinds) {
    const QRectF line(it.rect.left() + 6, it.rect.bottom() - 19, it.rect.width() - 12, 14);
    double x = line.left();
    p.setFont(font(kBadgeFont, true));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const QString word = highlightBadge(kinds[i]);
        const double w = advance(word, kBadgeFont, true) + 8;
        if (x + w > line.right()) { // no room: how many more
            p.setPen(itemStyle(ItemKind::Host).text);
            p.drawText(QRectF(x, line.top(), line.right() - x, line.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("+%1").arg(kinds.size() - i));
            return;
        }
        p.setPen(Qt::NoPen);
        p.setBrush(highlightColour(kinds[i]));
        p.drawRoundedRect(QRectF(x, line.top(), w, line.height()), 3, 3);
        p.setPen(Qt::white);
        p.drawText(QRectF(x, line.top(), w, line.height()), Qt::AlignCenter, word);
        x += w + 3;
    }
}

void drawItem(QPainter& p, const DiagramItem& it, bool text, const std::vector<HighlightKind>& badges) {
    const ItemStyle s = itemStyle(it.kind);
    p.setPen(QPen(s.border, it.container() ? 1.0 : 1.2));
    p.setBrush(s.fill);
    const double radius = it.container() ? 6 : 4;
    p.drawRoundedRect(it.rect, radius, radius);
    if (it.rail >= 0 &&
        (it.kind == ItemKind::Nic || it.kind == ItemKind::Leaf)) { // the rail's colour, as a band
        p.setPen(Qt::NoPen);
        p.setBrush(railColour(it.rail));
        p.drawRect(QRectF(it.rect.left() + 2, it.rect.bottom() - 5, it.rect.width() - 4, 4));
    }
    drawPorts(p, it, text);
    if (!text)
        return;
    p.setPen(s.text);
    if (it.container()) {
        const QRectF head(it.rect.left() + 6, it.rect.top() + 2, it.rect.width() - 12, 18);
        const bool bold = it.kind == ItemKind::Host;
        drawFitted(p, head, Qt::AlignLeft | Qt::AlignVCenter, it.label, kFont, bold);
        if (it.closed) { // the detail below its name, a line each, then the badges
            const QStringList lines = it.detail.split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i)
                drawFitted(p, QRectF(head.left(), head.bottom() - 1 + 12 * i, head.width(), 13),
                           Qt::AlignLeft | Qt::AlignVCenter, lines[i], kSmallFont, false);
            drawBadges(p, it, badges);
        } else if (!it.detail.isEmpty()) { // beside the name where it fits whole, smaller if it must
            const double used =
                advance(it.label, fittingSize(it.label, kFont, bold, head.width()), bold) + 12;
            if (const int px = fittingSize(it.detail, kSmallFont, false, head.width() - used)) {
                p.setFont(font(px));
                p.drawText(head.adjusted(used, 0, 0, 0), Qt::AlignRight | Qt::AlignVCenter, it.detail);
            }
        }
        return;
    }
    const QRectF inner = it.rect.adjusted(5, 3, -5, -6);
    drawFitted(p, QRectF(inner.left(), inner.top(), inner.width(), inner.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter, it.label, kFont, true);
    QRectF detail(inner.left(), inner.center().y(), inner.width(), inner.height() / 2);
    if (!it.c2c.isEmpty()) { // the GPU's NVLink-C2C to its CPU: a tag at the right of its detail line (the
                             // NVLink tag has the top right corner)
        p.setFont(font(kBadgeFont, true));
        const QString tag = QStringLiteral("C2C");
        const double w = advance(tag, kBadgeFont, true) + 6;
        const QRectF r(detail.right() - w, detail.center().y() - 6, w, 12);
        p.setPen(Qt::NoPen);
        p.setBrush(kC2cColour);
        p.drawRoundedRect(r, 2, 2);
        p.setPen(Qt::white);
        p.drawText(r, Qt::AlignCenter, tag);
        p.setPen(s.text);
        detail.setRight(r.left() - 3); // the detail keeps clear of it
    }
    drawFitted(p, detail, Qt::AlignLeft | Qt::AlignVCenter, it.detail, kSmallFont, false);
}

// An NVLink between two GPUs of a server: an arc below the boxes, a cubic that leaves and arrives
// vertically, as line segments.
std::vector<QPointF> arcBelow(const QRectF& a, const QRectF& b) {
    const QPointF from = anchorBottom(a), to = anchorBottom(b);
    const double low = std::max(from.y(), to.y()) + 6 + std::abs(a.center().x() - b.center().x()) * 0.04;
    const QPointF c1(from.x(), low), c2(to.x(), low);
    constexpr int kSegments = 16;
    std::vector<QPointF> points;
    for (int i = 0; i <= kSegments; ++i) {
        const double t = double(i) / kSegments, u = 1 - t;
        points.push_back(u * u * u * from + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * to);
    }
    return points;
}

// The line a link is drawn along: a fabric cable's route, an NVLink's arc; none for an NVLink to the
// server's NVLink band (a tag on the GPU, not a line).
std::vector<QPointF> lineOf(const Diagram& d, const DiagramLink& l) {
    if (l.kind == LinkKind::Fabric)
        return l.route;
    if (l.kind == LinkKind::NvLink && d.items[l.b].kind == ItemKind::NvSwitch)
        return {};
    return arcBelow(d.items[l.a].rect, d.items[l.b].rect);
}

QRectF boundsOf(const std::vector<QPointF>& line) {
    QRectF r;
    for (std::size_t i = 1; i < line.size(); ++i)
        r = r.united(QRectF(line[i - 1], line[i]).normalized().adjusted(-1, -1, 1, 1));
    return r;
}

double distanceToSegment(QPointF p, QPointF a, QPointF b) {
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF gap = p - (a + t * ab);
    return std::sqrt(QPointF::dotProduct(gap, gap));
}

bool meets(const QRectF& exposed, const QRectF& r) {
    return exposed.isEmpty() || exposed.intersects(r);
}

// A line's segments that meet the exposed rectangle: stroking what runs off screen costs as much as what
// is seen.
void appendLine(QVector<QLineF>& lines, const std::vector<QPointF>& line, const QRectF& exposed) {
    const QRectF view = exposed.isEmpty() ? QRectF() : exposed.adjusted(-4, -4, 4, 4);
    for (std::size_t i = 1; i < line.size(); ++i)
        if (view.isEmpty() ||
            view.intersects(QRectF(line[i - 1], line[i]).normalized().adjusted(-1, -1, 1, 1)))
            lines.append(QLineF(line[i - 1], line[i]));
}

void drawLine(QPainter& p, const std::vector<QPointF>& line, const QRectF& exposed) {
    QVector<QLineF> lines;
    appendLine(lines, line, exposed);
    if (!lines.isEmpty())
        p.drawLines(lines.constData(), int(lines.size()));
}

void drawBundleLabels(QPainter& p, const Diagram& d, const QRectF& exposed) {
    p.setFont(font(kSmallFont));
    p.setPen(QColor(0x45, 0x5a, 0x64));
    for (const BundleLabel& label : bundleLabels(d))
        if (meets(exposed, label.rect))
            p.drawText(label.rect, Qt::AlignLeft | Qt::AlignVCenter, label.text);
}

// Each closed server's verdicts among the highlights shown, worst first, once each.
std::vector<std::vector<HighlightKind>> cardVerdicts(const Diagram& d, const PaintOptions& o) {
    std::vector<std::vector<HighlightKind>> out(d.items.size());
    for (const Highlight& h : d.highlights)
        if (o.show[static_cast<std::size_t>(h.kind)])
            for (int i : h.items)
                if (d.items[std::size_t(i)].closed) {
                    auto& kinds = out[std::size_t(i)];
                    if (std::find(kinds.begin(), kinds.end(), h.kind) == kinds.end())
                        kinds.push_back(h.kind);
                }
    for (auto& kinds : out)
        std::sort(kinds.begin(), kinds.end(),
                  [](HighlightKind a, HighlightKind b) { return highlightRank(a) < highlightRank(b); });
    return out;
}

constexpr int kCaptionFont = 12;
constexpr double kCaptionLine = 18; // a caption's line at kCaptionFont
bool textDrawnAt(double scale) {
    return scale * kSmallFont >= 4.5;
}

// The servers' and switches' names, and the pods' captions, at a legible size on screen where the rest of
// the text is too small.
void drawFarNames(QPainter& p, const Diagram& d, const PaintOptions& o, double scale) {
    p.save();
    const QTransform t = p.worldTransform();
    p.resetTransform();
    p.setFont(font(kFarNamePixels, true));
    for (const DiagramItem& it : d.items) {
        if (!meets(o.exposed, it.rect))
            continue;
        const QString name = farName(it, scale);
        if (name.isEmpty())
            continue;
        p.setPen(itemStyle(it.kind).text);
        p.drawText(t.mapRect(it.rect).adjusted(3, 1, -2, 0), Qt::AlignLeft | Qt::AlignTop, name);
    }
    for (const DiagramGroup& g : d.groups) {
        const PlacedCaption c = placeCaption(g, scale);
        if (c.text.isEmpty() || !meets(o.exposed, c.rect))
            continue;
        const QRectF r = t.mapRect(c.rect);
        if (c.overPod) {
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(255, 255, 255, 225));
            p.drawRoundedRect(r, 3, 3);
        }
        p.setPen(QColor(0x37, 0x47, 0x4f));
        p.drawText(r, Qt::AlignCenter, c.text);
    }
    p.restore();
}

void drawCaptions(QPainter& p, const Diagram& d, const PaintOptions& o, double scale) {
    p.setFont(font(kCaptionFont, true));
    p.setPen(QColor(0x37, 0x47, 0x4f));
    for (const DiagramGroup& g : d.groups)
        if (const PlacedCaption c = placeCaption(g, scale); !c.text.isEmpty() && meets(o.exposed, c.rect))
            p.drawText(c.rect, Qt::AlignCenter, c.text);
}

// Each NVLink domain's band behind its servers: tinted by its health, its name on the first piece's foot.
void drawNvlinkBands(QPainter& p, const Diagram& d, const PaintOptions& o, bool text) {
    for (const NvlinkBand& b : d.nvlinkBands) {
        const QColor edge =
            b.healthy ? QColor(0x2e, 0x7d, 0x32) : highlightColour(HighlightKind::NvlinkFabric);
        QColor fill = edge;
        fill.setAlpha(28);
        p.setPen(QPen(edge, 1.2, b.healthy ? Qt::SolidLine : Qt::DashLine));
        p.setBrush(fill);
        for (const QRectF& r : b.pieces)
            if (meets(o.exposed, r))
                p.drawRoundedRect(r, 8, 8);
        if (!text || b.pieces.empty())
            continue;
        const QRectF& first = b.pieces.front();
        const QRectF foot(first.left() + 8, first.bottom() - kNvlinkBandFoot - 1, first.width() - 16,
                          kNvlinkBandFoot);
        for (const QString& label : b.labels)
            if (advance(label, kBadgeFont, true) <= foot.width()) {
                p.setFont(font(kBadgeFont, true));
                p.setPen(edge.darker(130));
                p.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter, label);
                break;
            }
    }
    p.setBrush(Qt::NoBrush);
}

} // namespace

PlacedCaption placeCaption(const DiagramGroup& g, double scale) {
    const bool far = !textDrawnAt(scale);
    const int px = far ? kFarNamePixels : kCaptionFont;
    const double line = far ? (kFarNamePixels + 4) / scale : kCaptionLine; // in scene units
    PlacedCaption placed;
    placed.overPod = far && g.rect.height() < line;
    const QRectF room = placed.overPod ? g.pod : g.rect;
    if (room.height() < line)
        return placed;
    const double width = (far ? room.width() * scale : room.width()) - 8;
    for (const QString& c : g.captions)
        if (advance(c, px, true) <= width) {
            placed.text = c;
            break;
        }
    const double textW = (advance(placed.text, px, true) + 8) / (far ? scale : 1.0);
    placed.rect = placed.overPod ? QRectF(room.center() - QPointF(textW / 2, line / 2), QSizeF(textW, line))
                                 : QRectF(room.center().x() - textW / 2, room.top(), textW, line);
    return placed;
}

QString farName(const DiagramItem& it, double scale) {
    if (it.shortLabel.isEmpty() || (it.kind == ItemKind::Host && !it.closed) || // an open server's name would
        it.rect.height() * scale < kFarNamePixels + 2)                          // sit on its parts
        return {};
    const double room = it.rect.width() * scale - 5;
    if (advance(it.label, kFarNamePixels, true) <= room)
        return it.label;
    if (advance(it.shortLabel, kFarNamePixels, true) <= room)
        return it.shortLabel;
    return {};
}

// Where a GPU–NIC pair's path type goes: on its curve, as near the middle as it can be without covering a
// box's name (the top of each box) or another pair's path type.
QRectF pathLabelRect(const Diagram& d, const QPainterPath& curve, const QString& path,
                     std::vector<QRectF>& placed) {
    const QSizeF size(advance(path, kSmallFont, true) + 4, kSmallFont + 4);
    const auto clear = [&](const QRectF& r) {
        for (const DiagramItem& it : d.items)
            if (r.intersects(QRectF(it.rect.left(), it.rect.top(), it.rect.width(), kFont + 10)))
                return false;
        return std::none_of(placed.begin(), placed.end(), [&](const QRectF& q) { return r.intersects(q); });
    };
    QRectF best;
    for (const double t : {0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82}) {
        const QRectF r(curve.pointAtPercent(t) + QPointF(3, -size.height()), size);
        if (best.isNull())
            best = r; // the middle, when nowhere is clear
        if (clear(r)) {
            best = r;
            break;
        }
    }
    placed.push_back(best);
    return best;
}

void paintDiagram(QPainter& p, const Diagram& d, const PaintOptions& o) {
    p.save();
    const double scale = scaleOf(p);
    // Far out, boxes are a few pixels: square and without antialiasing, drawn a kind at a time.
    const bool coarse = !o.alwaysText && scale < 0.35;
    p.setRenderHint(QPainter::Antialiasing, !coarse);
    const bool text = !o.noText && (o.alwaysText || textDrawnAt(scale));
    const std::vector<std::vector<HighlightKind>> verdicts = cardVerdicts(d, o);
    drawNvlinkBands(p, d, o, text);
    if (coarse) {
        std::map<ItemKind, QVector<QRectF>> byKind;
        for (const DiagramItem& it : d.items)
            if (meets(o.exposed, it.rect))
                byKind[it.kind].push_back(it.rect);
        for (const ItemKind kind :
             {ItemKind::Host, ItemKind::Package, ItemKind::Numa, ItemKind::HostBridge, ItemKind::PciSwitch,
              ItemKind::Core, ItemKind::Spine, ItemKind::Leaf, ItemKind::Switch, ItemKind::Gpu, ItemKind::Nic,
              ItemKind::NvSwitch, ItemKind::Other}) {
            const auto it = byKind.find(kind);
            if (it == byKind.end())
                continue;
            p.setPen(QPen(itemStyle(kind).border, 0));
            p.setBrush(itemStyle(kind).fill);
            p.drawRects(it->second.constData(), int(it->second.size()));
        }
    } else {
        for (std::size_t i = 0; i < d.items.size(); ++i)
            if (meets(o.exposed, d.items[i].rect))
                drawItem(p, d.items[i], text, verdicts[i]);
    }

    if (!text && !o.noText)
        drawFarNames(p, d, o, scale);
    else if (text)
        drawCaptions(p, d, o, o.alwaysText ? 1.0 : scale);

    p.setBrush(Qt::NoBrush);
    // A rail's cables in one call with one pen: setting a pen costs as much as a cable.
    std::map<std::pair<int, bool>, QVector<QLineF>> cables; // by rail and weight
    QVector<QLineF> nvlinkArcs, gpuNicArcs;
    std::vector<std::pair<QPointF, QString>> pathLabels;
    for (const DiagramLink& l : d.links) {
        const QRectF& a = d.items[l.a].rect;
        if (l.kind == LinkKind::NvLink &&
            d.items[l.b].kind == ItemKind::NvSwitch) { // on the server's NVLink band: a tag, not a line
            if (coarse || !meets(o.exposed, a))
                continue;
            p.setPen(Qt::NoPen);
            p.setBrush(itemStyle(ItemKind::NvSwitch).border);
            p.drawRoundedRect(QRectF(a.right() - 20, a.top() + 4, 16, 10), 2, 2);
            p.setBrush(Qt::NoBrush);
            continue;
        }
        if (l.kind == LinkKind::Fabric)
            continue; // drawn as the merged runs, below
        const std::vector<QPointF> line = lineOf(d, l);
        if (!meets(o.exposed, boundsOf(line)))
            continue;
        appendLine(l.kind == LinkKind::NvLink ? nvlinkArcs : gpuNicArcs, line, o.exposed);
        if (l.kind == LinkKind::GpuNic && text) // its path type at the arc's lowest point
            pathLabels.emplace_back(line[line.size() / 2], l.label);
    }
    const QRectF view = o.exposed.isEmpty() ? QRectF() : o.exposed.adjusted(-4, -4, 4, 4);
    for (const CableRun& run : d.cableRuns)
        if (view.isEmpty() ||
            view.intersects(QRectF(run.line.p1(), run.line.p2()).normalized().adjusted(-1, -1, 1, 1)))
            cables[{run.rail, run.parallel}].append(run.line);
    for (const auto& [key, lines] : cables) {
        // On screen 1 px, the rasteriser's fastest line; in an export a weight that prints.
        QPen pen(railColour(key.first), o.alwaysText ? (key.second ? 2.2 : 1.4) : (key.second ? 2.0 : 1.0));
        pen.setCosmetic(!o.alwaysText);
        pen.setJoinStyle(Qt::MiterJoin);
        p.setPen(pen);
        p.drawLines(lines.constData(), int(lines.size()));
    }
    if (!nvlinkArcs.isEmpty()) {
        p.setPen(QPen(QColor(0x4f, 0x86, 0x00, 110), 1.2));
        p.drawLines(nvlinkArcs.constData(), int(nvlinkArcs.size()));
    }
    if (!gpuNicArcs.isEmpty()) {
        p.setPen(QPen(QColor(0x2a, 0x63, 0xc0, 170), 1.2, Qt::DashLine));
        p.drawLines(gpuNicArcs.constData(), int(gpuNicArcs.size()));
        p.setFont(font(kBadgeFont, true));
        p.setPen(QColor(0x2a, 0x63, 0xc0));
        for (const auto& [at, path] : pathLabels)
            p.drawText(QRectF(at.x() - 20, at.y() - 1, 40, kBadgeFont + 3), Qt::AlignCenter, path);
    }
    if (text)
        drawBundleLabels(p, d, o.exposed);

    std::vector<QRectF> placedPathLabels; // the GPU–NIC pairs' path types drawn so far
    for (const Highlight& h : d.highlights) {
        if (!o.show[static_cast<std::size_t>(h.kind)])
            continue;
        const QColor c = highlightColour(h.kind);
        for (int li : h.links) {
            QPen pen(c, 3.2, h.kind == HighlightKind::PortDown ? Qt::DashLine : Qt::SolidLine);
            if (!o.alwaysText) {
                pen.setCosmetic(true);
                pen.setWidthF(std::clamp(3.2 * scale, 2.0, 5.0));
            }
            p.setPen(pen);
            drawLine(p, lineOf(d, d.links[li]), o.exposed);
        }
        const bool pair = h.items.size() == 2 &&
                          (h.kind == HighlightKind::CrossSocket || h.kind == HighlightKind::NoGpuDirect ||
                           h.kind == HighlightKind::RunTransport);
        if (!pair) {
            for (int i : h.items) {
                if (d.items[i].closed && verdicts[std::size_t(i)].front() != h.kind)
                    continue; // a card is outlined in its worst verdict's colour; its badges tell the rest
                const QRectF outline = d.items[i].rect.adjusted(-2, -2, 2, 2);
                if (!meets(o.exposed, outline.adjusted(-2, -2, 2, 2))) // with the pen's half width
                    continue;
                p.setPen(QPen(c, 2.6));
                p.drawRoundedRect(outline, 5, 5);
            }
            continue;
        }
        // A GPU–NIC pair: a dashed curve between the two, bowed aside so it clears the boxes between, dots at
        // its ends.
        const QRectF &a = d.items[h.items[0]].rect, &b = d.items[h.items[1]].rect;
        if (!meets(o.exposed, a.united(b)))
            continue;
        const QPointF from = a.center(), to = b.center(), along = to - from;
        const double length = std::hypot(along.x(), along.y());
        if (length < 1)
            continue;
        const double bow = h.kind == HighlightKind::NoGpuDirect ? -0.22 : 0.22;
        const QPointF bend =
            (from + to) / 2 + QPointF(-along.y(), along.x()) / length * (length * bow + (bow > 0 ? 30 : -30));
        QPainterPath curve(from);
        curve.quadTo(bend, to);
        p.setPen(QPen(c, 2.2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawPath(curve);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        for (const QPointF& end : {from, to})
            p.drawEllipse(end, 4, 4);
        if (text && !h.path.isEmpty()) {
            p.setFont(font(kSmallFont, true));
            p.setPen(c);
            p.drawText(pathLabelRect(d, curve, h.path, placedPathLabels), Qt::AlignCenter, h.path);
        }
        p.setBrush(Qt::NoBrush);
    }

    if (o.hoveredLink >= 0 && o.hoveredLink < int(d.links.size())) {
        QPen pen(QColor(0x00, 0x78, 0xd4, 160), 4);
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        drawLine(p, lineOf(d, d.links[o.hoveredLink]), {});
    }

    if (o.selected >= 0 && o.selected < int(d.items.size())) { // a GPU lights its NIC and the path between
        const QColor lit(0x00, 0x78, 0xd4, 150);
        for (const DiagramLink& l : d.links)
            if (l.kind == LinkKind::GpuNic && (l.a == o.selected || l.b == o.selected)) {
                p.setPen(QPen(lit, 3));
                drawLine(p, lineOf(d, l), {});
            }
        p.setPen(QPen(lit, 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        for (int partner : d.pathPartners(o.selected))
            p.drawRoundedRect(d.items[std::size_t(partner)].rect.adjusted(-4, -4, 4, 4), 6, 6);
    }
    for (int sel : {o.hovered, o.selected}) {
        if (sel < 0 || sel >= int(d.items.size()))
            continue;
        p.setPen(QPen(sel == o.selected ? QColor(0x00, 0x78, 0xd4) : QColor(0x00, 0x78, 0xd4, 120),
                      sel == o.selected ? 3 : 2));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(d.items[sel].rect.adjusted(-4, -4, 4, 4), 6, 6);
    }
    p.restore();
}

namespace {

struct LegendRow {
    QColor fill, border;
    bool line = false;
    QString text;
    Qt::PenStyle style = Qt::SolidLine;
};

std::vector<LegendRow> legendRows(const Diagram& d, const PaintOptions& o) {
    std::vector<LegendRow> rows;
    std::vector<bool> present(kItemKinds, false);
    for (const DiagramItem& it : d.items)
        present[static_cast<std::size_t>(it.kind)] = true;
    for (ItemKind k : {ItemKind::Core, ItemKind::Spine, ItemKind::Leaf, ItemKind::Switch, ItemKind::Host,
                       ItemKind::Package, ItemKind::Numa, ItemKind::HostBridge, ItemKind::PciSwitch,
                       ItemKind::Gpu, ItemKind::Nic, ItemKind::NvSwitch, ItemKind::Other})
        if (present[static_cast<std::size_t>(k)])
            rows.push_back({itemStyle(k).fill, itemStyle(k).border, false, itemKindTitle(k)});
    std::array<bool, 3> lines{}; // NVLink, GPU-NIC paths, cables of no rail
    for (const DiagramLink& l : d.links)
        if (l.kind == LinkKind::NvLink && d.items[std::size_t(l.b)].kind != ItemKind::NvSwitch)
            lines[0] = true;
        else if (l.kind == LinkKind::GpuNic)
            lines[1] = true;
        else if (l.kind == LinkKind::Fabric && l.rail < 0)
            lines[2] = true;
    if (lines[0])
        rows.push_back(
            {{}, QColor(0x4f, 0x86, 0x00), true, QCoreApplication::translate("rackscope", "NVLink")});
    if (lines[1])
        rows.push_back(
            {{},
             QColor(0x2a, 0x63, 0xc0),
             true,
             QCoreApplication::translate("rackscope", "GPU to the NIC NCCL would use, with its path"),
             Qt::DashLine});
    if (lines[2])
        rows.push_back({{}, railColour(-1), true, QCoreApplication::translate("rackscope", "cable")});
    if (std::any_of(d.items.begin(), d.items.end(), [](const DiagramItem& it) { return !it.c2c.isEmpty(); }))
        rows.push_back(
            {kC2cColour, kC2cColour, false,
             QCoreApplication::translate("rackscope", "C2C: GPU on NVLink-C2C to its CPU (Grace)")});
    std::array<int, 2> bands{}; // healthy, not
    for (const NvlinkBand& b : d.nvlinkBands)
        ++bands[b.healthy ? 0 : 1];
    if (bands[0])
        rows.push_back({QColor(0x2e, 0x7d, 0x32, 28), QColor(0x2e, 0x7d, 0x32), false,
                        QCoreApplication::translate("rackscope", "NVLink domain, every GPU registered: %1")
                            .arg(bands[0])});
    if (bands[1])
        rows.push_back(
            {QColor(0x6d, 0x4c, 0x41, 28), highlightColour(HighlightKind::NvlinkFabric), false,
             QCoreApplication::translate("rackscope", "NVLink domain with a problem: %1").arg(bands[1])});
    for (int r = 0; r < d.rails.size(); ++r)
        rows.push_back({railColour(r), railColour(r), true,
                        QCoreApplication::translate("rackscope", "rail %1 (%2)").arg(r).arg(d.rails[r])});
    std::array<int, kHighlightKinds> counts{};
    for (const Highlight& h : d.highlights)
        ++counts[static_cast<std::size_t>(h.kind)];
    for (int k = 0; k < kHighlightKinds; ++k) {
        // Every other kind is judged whenever servers are drawn; the rack check's only when a check ran, a
        // job's ranks only while a job is watched and names some.
        const bool checkMark =
            HighlightKind(k) == HighlightKind::CheckFailed || HighlightKind(k) == HighlightKind::CheckWarned;
        if (checkMark && counts[std::size_t(HighlightKind::CheckFailed)] +
                                 counts[std::size_t(HighlightKind::CheckWarned)] ==
                             0)
            continue;
        if (HighlightKind(k) == HighlightKind::JobRank && counts[std::size_t(k)] == 0)
            continue;
        if (o.show[static_cast<std::size_t>(k)])
            rows.push_back({Qt::transparent, highlightColour(HighlightKind(k)), true,
                            QStringLiteral("%1: %2")
                                .arg(highlightTitle(HighlightKind(k)))
                                .arg(counts[static_cast<std::size_t>(k)])});
    }
    return rows;
}

constexpr double kLegendRow = 18, kLegendPad = 8;

} // namespace

QSizeF legendSize(const Diagram& d, const PaintOptions& o, int columns) {
    const auto rows = legendRows(d, o);
    double w = advance(QCoreApplication::translate("rackscope", "Legend"), kFont, true);
    for (const LegendRow& r : rows)
        w = std::max(w, advance(r.text, kFont, false));
    const int perColumn = int((rows.size() + std::size_t(columns) - 1) / std::size_t(std::max(columns, 1)));
    return {(w + 48) * columns + 2 * kLegendPad - 8, kLegendRow * double(perColumn + 1) + 2 * kLegendPad};
}

void paintLegend(QPainter& p, QPointF at, const Diagram& d, const PaintOptions& o, int columns) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QSizeF size = legendSize(d, o, columns);
    p.setPen(QPen(QColor(0x78, 0x84, 0x90), 1));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(at, size), 6, 6);
    p.setFont(font(kFont, true));
    p.setPen(Qt::black);
    p.drawText(QRectF(at.x() + kLegendPad, at.y() + kLegendPad, size.width(), kLegendRow), Qt::AlignVCenter,
               QCoreApplication::translate("rackscope", "Legend"));
    p.setFont(font(kFont));
    const auto rows = legendRows(d, o);
    const int perColumn = int((rows.size() + std::size_t(columns) - 1) / std::size_t(std::max(columns, 1)));
    const double columnW = (size.width() - 2 * kLegendPad + 8) / columns;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const LegendRow& r = rows[i];
        const double x = at.x() + kLegendPad + columnW * double(int(i) / std::max(perColumn, 1));
        const double y = at.y() + kLegendPad + kLegendRow * double(int(i) % std::max(perColumn, 1) + 1);
        const QRectF swatch(x, y + 4, 24, kLegendRow - 8);
        if (r.line) {
            p.setPen(QPen(r.border, 3, r.style));
            p.drawLine(QPointF(swatch.left(), swatch.center().y()),
                       QPointF(swatch.right(), swatch.center().y()));
        } else {
            p.setPen(QPen(r.border, 1));
            p.setBrush(r.fill);
            p.drawRoundedRect(swatch, 3, 3);
        }
        p.setPen(Qt::black);
        p.drawText(QRectF(swatch.right() + 8, y, columnW - 40, kLegendRow), Qt::AlignVCenter, r.text);
    }
    p.restore();
}

QSizeF titleBlockSize(const TitleBlock&, double width) {
    return {width, 44};
}

void paintTitleBlock(QPainter& p, const QRectF& r, const TitleBlock& t) {
    p.save();
    p.setPen(QPen(QColor(0x78, 0x84, 0x90), 1));
    p.setBrush(QColor(0xf5, 0xf7, 0xfa));
    p.drawRect(r);
    p.setPen(Qt::black);
    p.setFont(font(17, true));
    p.drawText(r.adjusted(10, 2, -10, -r.height() / 2), Qt::AlignLeft | Qt::AlignVCenter, t.title);
    p.setFont(font(kSmallFont));
    const QString line = QCoreApplication::translate("rackscope", "%1 · rackscope %2 · source: %3")
                             .arg(t.date, t.version, t.source);
    p.drawText(r.adjusted(10, r.height() / 2, -10, -2), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(font(kSmallFont)).elidedText(line, Qt::ElideRight, r.width() - 20));
    p.restore();
}

std::vector<BundleLabel> bundleLabels(const Diagram& d) {
    std::map<std::pair<int, QString>, int> bundles; // (upper end, speed) -> cables
    for (const DiagramLink& l : d.links)
        if (l.kind == LinkKind::Fabric && !l.label.isEmpty())
            bundles[{l.a, l.label}] += l.count;
    std::vector<BundleLabel> out;
    int previous = -1;
    double y = 0;
    for (const auto& [key, cables] : bundles) {
        const QRectF& r = d.items[std::size_t(key.first)].rect;
        y = key.first == previous ? y + kSmallFont + 3 : r.bottom() + 2;
        previous = key.first;
        const QString text = cables > 1 ? QStringLiteral("%1 ×%2").arg(key.second).arg(cables) : key.second;
        out.push_back(
            {QRectF(r.center().x() + 4, y, advance(text, kSmallFont, false) + 1, kSmallFont + 2), text});
    }
    return out;
}

int linkAt(const Diagram& d, QPointF at, double tolerance) {
    int best = -1;
    double bestDistance = tolerance;
    for (int i = 0; i < int(d.links.size()); ++i) {
        const DiagramLink& l = d.links[std::size_t(i)];
        const std::vector<QPointF> arc = l.kind == LinkKind::Fabric ? std::vector<QPointF>() : lineOf(d, l);
        const std::vector<QPointF>& line = l.kind == LinkKind::Fabric ? l.route : arc; // no copy per move
        if (!boundsOf(line).adjusted(-tolerance, -tolerance, tolerance, tolerance).contains(at))
            continue;
        for (std::size_t k = 1; k < line.size(); ++k)
            if (const double gap = distanceToSegment(at, line[k - 1], line[k]); gap <= bestDistance) {
                bestDistance = gap;
                best = i;
            }
    }
    return best;
}

QPointF pointOnLink(const Diagram& d, int link, double t) {
    const std::vector<QPointF> line = lineOf(d, d.links.at(size_t(link)));
    if (line.empty())
        return d.items[d.links[size_t(link)].a].rect.center();
    double length = 0;
    for (std::size_t k = 1; k < line.size(); ++k)
        length += QLineF(line[k - 1], line[k]).length();
    double left = std::clamp(t, 0.0, 1.0) * length;
    for (std::size_t k = 1; k < line.size(); ++k) {
        const QLineF segment(line[k - 1], line[k]);
        if (left <= segment.length() && segment.length() > 0)
            return segment.pointAt(left / segment.length());
        left -= segment.length();
    }
    return line.back();
}

} // namespace rackscope
