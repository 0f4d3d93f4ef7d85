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
constexpr int kFont = 12, kSmallFont = 10;

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

QPointF anchorTop(const QRectF& r) {
    return {r.center().x(), r.top()};
}
QPointF anchorBottom(const QRectF& r) {
    return {r.center().x(), r.bottom()};
}

// A NIC's ports: tabs on its top edge, right-aligned (the label keeps the left), narrower when there are
// many.
constexpr double kPortW = 14, kPortH = 8, kPortGap = 4;

QRectF portRect(const DiagramItem& it, int i) {
    const int n = int(it.ports.size());
    const double w = std::clamp((it.rect.width() - 46) / n - kPortGap, 3.0, kPortW);
    const double left = it.rect.right() - 6 - n * (w + kPortGap) + kPortGap;
    return {left + i * (w + kPortGap), it.rect.top() - kPortH / 2, w, kPortH};
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

void drawItem(QPainter& p, const DiagramItem& it, bool text) {
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
        p.setFont(font(kFont, it.kind == ItemKind::Host));
        p.drawText(head, Qt::AlignLeft | Qt::AlignVCenter, it.label);
        if (it.kind == ItemKind::Host &&
            it.rect.height() < 70) { // a closed server: the detail below its name, a line each
            p.setFont(font(kSmallFont));
            const QRectF below(head.left(), head.bottom() - 3, head.width(),
                               it.rect.bottom() - head.bottom() + 2);
            QStringList lines = it.detail.split(QLatin1Char('\n'));
            for (QString& line : lines)
                line = elided(line, kSmallFont, below.width());
            p.drawText(below, Qt::AlignLeft | Qt::AlignTop, lines.join(QLatin1Char('\n')));
        } else if (!it.detail.isEmpty()) {
            p.setFont(font(kSmallFont));
            const double used = advance(it.label, kFont, it.kind == ItemKind::Host) + 12;
            if (used < head.width())
                p.drawText(head.adjusted(used, 0, 0, 0), Qt::AlignRight | Qt::AlignVCenter,
                           elided(it.detail, kSmallFont, head.width() - used));
        }
        return;
    }
    const QRectF inner = it.rect.adjusted(5, 3, -5, -6);
    p.setFont(font(kFont, true));
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), inner.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter, it.label);
    p.setFont(font(kSmallFont));
    p.drawText(QRectF(inner.left(), inner.center().y(), inner.width(), inner.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter, elided(it.detail, kSmallFont, inner.width()));
}

// A cable from the switch above down to the server or NIC below: a cubic
// that leaves and arrives vertically.
struct Cable {
    QPointF p0, p1, p2, p3;
    QPointF at(double t)
        const { // Bernstein form: QPainterPath::pointAtPercent measures arc length, far too slow per frame
        const double u = 1 - t;
        return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
    }
};

// A cable runs from the bottom of the item above to the top of the one below, or to its port there.
Cable cableOf(const Diagram& d, const DiagramLink& l) {
    const DiagramItem& below = d.items[l.b];
    const QPointF from = anchorBottom(d.items[l.a].rect);
    const QPointF to = l.bPort >= 0 && l.bPort < int(below.ports.size())
                           ? QPointF(portRect(below, l.bPort).center().x(), below.rect.top() - kPortH / 2)
                           : anchorTop(below.rect);
    const double mid = (from.y() + to.y()) / 2;
    return {from, QPointF(from.x(), mid), QPointF(to.x(), mid), to};
}

QPainterPath pathOf(const Cable& c) {
    QPainterPath path(c.p0);
    path.cubicTo(c.p1, c.p2, c.p3);
    return path;
}

// NVLink and GPU–NIC pairs inside a server: an arc below the boxes.
Cable arcBelowCurve(const QRectF& a, const QRectF& b, double depth) {
    const QPointF from = anchorBottom(a), to = anchorBottom(b);
    const double low = std::max(from.y(), to.y()) + depth;
    return {from, QPointF(from.x(), low), QPointF(to.x(), low), to};
}

double nvlinkDepth(const QRectF& a, const QRectF& b) {
    return 6 + std::abs(a.center().x() - b.center().x()) * 0.04;
}

// The curve a link is drawn along; none for an NVLink to the NVSwitch (a tag on the server, not a line).
std::optional<Cable> curveOf(const Diagram& d, const DiagramLink& l) {
    const QRectF &a = d.items[l.a].rect, &b = d.items[l.b].rect;
    if (l.kind != LinkKind::NvLink)
        return cableOf(d, l);
    if (d.items[l.b].kind == ItemKind::NvSwitch)
        return std::nullopt;
    return arcBelowCurve(a, b, nvlinkDepth(a, b));
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

// A cable's curve as line segments, keeping only those that meet the exposed
// rectangle: stroking a whole curve that mostly runs off screen costs far more
// than its visible part (the rasteriser walks the full outline).
void appendCable(QVector<QLineF>& lines, const Cable& cable, const QRectF& exposed, double scale) {
    // About one segment per 30 screen pixels of the cable's span: smooth enough up close, cheap far out.
    const QPointF span = cable.p3 - cable.p0;
    const int kSegments = std::clamp(int((std::abs(span.x()) + std::abs(span.y())) * scale / 30), 2, 16);
    QPointF previous = cable.p0;
    const QRectF view = exposed.isEmpty() ? QRectF() : exposed.adjusted(-4, -4, 4, 4);
    for (int i = 1; i <= kSegments; ++i) {
        const QPointF next = cable.at(double(i) / kSegments);
        if (view.isEmpty() || view.intersects(QRectF(previous, next).normalized().adjusted(-1, -1, 1, 1)))
            lines.append(QLineF(previous, next));
        previous = next;
    }
}

void drawCable(QPainter& p, const Cable& cable, const QRectF& exposed, double scale) {
    QVector<QLineF> lines;
    appendCable(lines, cable, exposed, scale);
    if (!lines.isEmpty())
        p.drawLines(lines.constData(), int(lines.size()));
}

} // namespace

void paintDiagram(QPainter& p, const Diagram& d, const PaintOptions& o) {
    p.save();
    const double scale = scaleOf(p);
    // Far out, boxes are a few pixels: square and without antialiasing, drawn a kind at a time.
    const bool coarse = !o.alwaysText && scale < 0.35;
    p.setRenderHint(QPainter::Antialiasing, !coarse);
    const bool text = o.alwaysText || scale * kSmallFont >= 4.5;
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
        for (const DiagramItem& it : d.items)
            if (meets(o.exposed, it.rect))
                drawItem(p, it, text);
    }

    p.setBrush(Qt::NoBrush);
    std::map<std::pair<int, bool>, QVector<QLineF>> screenCables; // by rail and width
    for (const DiagramLink& l : d.links) {
        const QRectF &a = d.items[l.a].rect, &b = d.items[l.b].rect;
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
        if (l.kind == LinkKind::NvLink) { // GPU to GPU: a curve that may bow outside both boxes
            const QPainterPath curve = pathOf(*curveOf(d, l));
            if (!meets(o.exposed, curve.boundingRect().adjusted(-1, -1, 1, 1)))
                continue;
            p.setPen(QPen(QColor(0x4f, 0x86, 0x00, 110), 1.2));
            p.drawPath(curve);
            continue;
        }
        if (!meets(o.exposed, a.united(b)))
            continue;
        if (o.alwaysText) {
            p.setPen(QPen(railColour(l.rail), l.count > 1 ? 2.2 : 1.4));
            p.drawPath(pathOf(cableOf(d, l))); // exports: one smooth curve per cable
        } else { // on screen: a rail's cables in one call, with one pen (setting a pen costs as much as a
                 // cable)
            appendCable(screenCables[{l.rail, l.count > 1 && scale > 0.5}], cableOf(d, l), o.exposed, scale);
        }
    }
    for (const auto& [key, lines] : screenCables) {
        QPen pen(railColour(key.first), key.second ? 2.0 : 1.0); // 1 px: the rasteriser's fastest line
        pen.setCosmetic(true); // in screen pixels: the raster engine's fast path
        p.setPen(pen);
        p.drawLines(lines.constData(), int(lines.size()));
    }
    if (text) { // a server's cables carry their speed near the server, switch links half way
        p.setFont(font(kSmallFont));
        p.setPen(QColor(0x45, 0x5a, 0x64));
        for (const DiagramLink& l : d.links) {
            if (l.kind != LinkKind::Fabric || l.label.isEmpty())
                continue;
            const bool toServer = d.items[l.b].kind == ItemKind::Nic || d.items[l.b].kind == ItemKind::Host;
            const QPointF mid = cableOf(d, l).at(toServer ? 0.93 : 0.5);
            if (!meets(o.exposed, QRectF(mid, QSizeF(80, 12))))
                continue;
            p.drawText(mid + QPointF(4, -2),
                       l.count > 1 ? QStringLiteral("%1 ×%2").arg(l.label).arg(l.count) : l.label);
        }
    }

    for (const Highlight& h : d.highlights) {
        if (!o.show[static_cast<std::size_t>(h.kind)])
            continue;
        const QColor c = highlightColour(h.kind);
        for (int li : h.links) {
            const DiagramLink& l = d.links[li];
            QPen pen(c, 3.2, h.kind == HighlightKind::PortDown ? Qt::DashLine : Qt::SolidLine);
            if (o.alwaysText) {
                p.setPen(pen);
                p.drawPath(pathOf(cableOf(d, l)));
            } else {
                pen.setCosmetic(true);
                pen.setWidthF(std::clamp(3.2 * scale, 2.0, 5.0));
                p.setPen(pen);
                drawCable(p, cableOf(d, l), o.exposed, scale);
            }
        }
        const bool pair = h.items.size() == 2 &&
                          (h.kind == HighlightKind::CrossSocket || h.kind == HighlightKind::NoGpuDirect ||
                           h.kind == HighlightKind::RunTransport);
        if (!pair) {
            for (int i : h.items) {
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
            p.drawText(curve.pointAtPercent(0.5) + QPointF(3, -3), h.path);
        }
        p.setBrush(Qt::NoBrush);
    }

    if (o.hoveredLink >= 0 && o.hoveredLink < int(d.links.size())) {
        if (const auto c = curveOf(d, d.links[o.hoveredLink])) {
            const QPainterPath path = pathOf(*c);
            QPen pen(QColor(0x00, 0x78, 0xd4, 160), 4);
            pen.setCosmetic(true);
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }
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
    for (int r = 0; r < d.rails.size(); ++r)
        rows.push_back({railColour(r), railColour(r), true,
                        QCoreApplication::translate("rackscope", "rail %1 (%2)").arg(r).arg(d.rails[r])});
    std::array<int, kHighlightKinds> counts{};
    for (const Highlight& h : d.highlights)
        ++counts[static_cast<std::size_t>(h.kind)];
    for (int k = 0; k < kHighlightKinds; ++k)
        if (o.show[static_cast<std::size_t>(k)])
            rows.push_back({Qt::transparent, highlightColour(HighlightKind(k)), true,
                            QStringLiteral("%1: %2")
                                .arg(highlightTitle(HighlightKind(k)))
                                .arg(counts[static_cast<std::size_t>(k)])});
    return rows;
}

constexpr double kLegendRow = 18, kLegendPad = 8;

} // namespace

QSizeF legendSize(const Diagram& d, const PaintOptions& o) {
    const auto rows = legendRows(d, o);
    const QFontMetricsF fm(font(kFont));
    double w = fm.horizontalAdvance(QCoreApplication::translate("rackscope", "Legend"));
    for (const LegendRow& r : rows)
        w = std::max(w, fm.horizontalAdvance(r.text));
    return {w + 40 + 2 * kLegendPad, kLegendRow * double(rows.size() + 1) + 2 * kLegendPad};
}

void paintLegend(QPainter& p, QPointF at, const Diagram& d, const PaintOptions& o) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QSizeF size = legendSize(d, o);
    p.setPen(QPen(QColor(0x78, 0x84, 0x90), 1));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(at, size), 6, 6);
    p.setFont(font(kFont, true));
    p.setPen(Qt::black);
    double y = at.y() + kLegendPad;
    p.drawText(QRectF(at.x() + kLegendPad, y, size.width(), kLegendRow), Qt::AlignVCenter,
               QCoreApplication::translate("rackscope", "Legend"));
    p.setFont(font(kFont));
    for (const LegendRow& r : legendRows(d, o)) {
        y += kLegendRow;
        const QRectF swatch(at.x() + kLegendPad, y + 4, 24, kLegendRow - 8);
        if (r.line) {
            p.setPen(QPen(r.border, 3));
            p.drawLine(QPointF(swatch.left(), swatch.center().y()),
                       QPointF(swatch.right(), swatch.center().y()));
        } else {
            p.setPen(QPen(r.border, 1));
            p.setBrush(r.fill);
            p.drawRoundedRect(swatch, 3, 3);
        }
        p.setPen(Qt::black);
        p.drawText(QRectF(swatch.right() + 8, y, size.width(), kLegendRow), Qt::AlignVCenter, r.text);
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

int linkAt(const Diagram& d, QPointF at, double tolerance) {
    constexpr int kSteps =
        24; // the curve as 24 segments: within a pixel of it at any zoom a person points at
    int best = -1;
    double bestDistance = tolerance;
    for (int i = 0; i < int(d.links.size()); ++i) {
        const auto c = curveOf(d, d.links[i]);
        if (!c)
            continue;
        // a Bézier curve stays inside its control points' hull: most links are passed over here
        const double left = std::min({c->p0.x(), c->p1.x(), c->p2.x(), c->p3.x()}),
                     right = std::max({c->p0.x(), c->p1.x(), c->p2.x(), c->p3.x()});
        const double top = std::min({c->p0.y(), c->p1.y(), c->p2.y(), c->p3.y()}),
                     bottom = std::max({c->p0.y(), c->p1.y(), c->p2.y(), c->p3.y()});
        if (at.x() < left - tolerance || at.x() > right + tolerance || at.y() < top - tolerance ||
            at.y() > bottom + tolerance)
            continue;
        QPointF previous = c->p0;
        for (int k = 1; k <= kSteps; ++k) {
            const QPointF next = c->at(double(k) / kSteps);
            if (const double gap = distanceToSegment(at, previous, next); gap <= bestDistance) {
                bestDistance = gap;
                best = i;
            }
            previous = next;
        }
    }
    return best;
}

QPointF pointOnLink(const Diagram& d, int link, double t) {
    const auto c = curveOf(d, d.links.at(size_t(link)));
    return c ? c->at(std::clamp(t, 0.0, 1.0)) : d.items[d.links[size_t(link)].a].rect.center();
}

} // namespace rackscope
