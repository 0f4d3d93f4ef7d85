#include "topology_canvas.h"

#include "render/diagram_raster.h"
#include "render/diagram_style.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>

namespace rackscope::gui {

TopologyCanvas::TopologyCanvas(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
    settle_.setSingleShot(true);
    settle_.setInterval(200);
    connect(&settle_, &QTimer::timeout, this, &TopologyCanvas::viewSettled);
}

void TopologyCanvas::setDiagram(Diagram d) {
    const QString selectedId = paint_.selected >= 0 && paint_.selected < int(diagram_.items.size())
                                   ? diagram_.items[paint_.selected].id
                                   : QString();
    const bool sameScene =
        !diagram_.items.empty() && !d.items.empty() && diagram_.items.front().id == d.items.front().id;
    diagram_ = std::move(d);
    paint_.selected = diagram_.find(selectedId);
    paint_.hovered = -1;
    paint_.hoveredLink = -1;
    const int anchor = diagram_.find(anchorId_);
    anchorId_.clear();
    if (!sameScene || !fitted_ || followFit_) // still as fitted: the new picture is fitted too
        fit();
    else if (anchor >= 0) // a server opened or closed: it stays where it was, the rest moves around it
        offset_ = anchorAt_ - diagram_.items[anchor].rect.topLeft() * zoom_;
    update();
}

void TopologyCanvas::anchorOn(int item) {
    while (item >= 0 && diagram_.items[item].kind != ItemKind::Host)
        item = diagram_.items[item].parent;
    if (item < 0)
        return;
    anchorId_ = diagram_.items[item].id;
    anchorAt_ = toWidget(diagram_.items[item].rect.topLeft());
}

void TopologyCanvas::viewSettled() {
    const QRectF view(toScene(QPointF(0, 0)), toScene(QPointF(width(), height())));
    const QPointF middle = view.center();
    std::vector<std::pair<double, int>> cards; // by distance from the middle
    int nearestOpen = -1;
    double nearestOpenDistance = 0;
    for (int i = 0; i < int(diagram_.items.size()); ++i) {
        const DiagramItem& it = diagram_.items[i];
        if (it.kind != ItemKind::Host || !view.intersects(it.rect))
            continue;
        const QPointF away = it.rect.center() - middle;
        const double distance = away.x() * away.x() + away.y() * away.y();
        if (it.closed)
            cards.emplace_back(distance, i);
        else if (nearestOpen < 0 || distance < nearestOpenDistance)
            nearestOpen = i, nearestOpenDistance = distance;
    }
    if (zoom_ >= kOpenZoom && !cards.empty()) {
        std::sort(cards.begin(), cards.end());
        constexpr std::size_t kAtOnce =
            12; // an open server is many cards wide: the rest are pushed out of view
        QStringList hosts;
        for (std::size_t k = 0; k < std::min(cards.size(), kAtOnce); ++k)
            hosts << diagram_.items[cards[k].second].host;
        anchorOn(cards.front().second);
        emit zoomOpens(hosts);
    } else if (zoom_ < kCloseZoom) {
        if (nearestOpen >= 0)
            anchorOn(nearestOpen);
        emit zoomedOut();
    }
}

void TopologyCanvas::setHighlightShown(HighlightKind kind, bool shown) {
    paint_.show[static_cast<std::size_t>(kind)] = shown;
    update();
}

QPointF TopologyCanvas::toScene(QPointF p) const {
    return (p - offset_) / zoom_;
}
QPointF TopologyCanvas::toWidget(QPointF s) const {
    return s * zoom_ + offset_;
}

int TopologyCanvas::itemAt(QPointF widgetPoint) const {
    const QPointF s = toScene(widgetPoint);
    // Children come after their parents: the last hit is the innermost.
    for (int i = int(diagram_.items.size()) - 1; i >= 0; --i)
        if (diagram_.items[i].rect.contains(s))
            return i;
    return -1;
}

TopologyCanvas::Hit TopologyCanvas::hitAt(QPointF widgetPoint) const {
    const int item = itemAt(widgetPoint);
    if (item >= 0 && !diagram_.items[item].container())
        return {item, -1};                                                         // a device box is on top
    const int link = rackscope::linkAt(diagram_, toScene(widgetPoint), 5 / zoom_); // within 5 screen pixels
    return link >= 0 ? Hit{-1, link} : Hit{item, -1};
}

int TopologyCanvas::linkAt(QPointF widgetPoint) const {
    return hitAt(widgetPoint).link;
}

void TopologyCanvas::fit() {
    const QRectF b = diagram_.bounds;
    if (b.isEmpty() || width() <= 0 || height() <= 0)
        return;
    zoom_ = std::clamp(std::min(width() / b.width(), height() / b.height()), 0.01, 1.5);
    offset_ = QPointF(width() / 2.0, height() / 2.0) - b.center() * zoom_;
    fitted_ = isVisible();
    followFit_ = true;
    update();
}

void TopologyCanvas::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (followFit_)
        fit();
}

void TopologyCanvas::zoomBy(double factor, QPointF anchor) {
    const QPointF at = toScene(anchor);
    followFit_ = false;
    zoom_ = std::clamp(zoom_ * factor, 0.005, 8.0);
    offset_ = anchor - at * zoom_;
    settle_.start();
    update();
}

void TopologyCanvas::select(int item, bool centre) {
    if (item >= int(diagram_.items.size()))
        item = -1;
    paint_.selected = item;
    if (item >= 0 && centre) {
        const QRectF r = diagram_.items[item].rect;
        if (r.width() * zoom_ > width() * 0.9 || r.height() * zoom_ > height() * 0.9 || zoom_ < 0.5)
            zoom_ = std::clamp(std::min(width() * 0.5 / r.width(), height() * 0.5 / r.height()), 0.05, 1.0);
        offset_ = QPointF(width() / 2.0, height() / 2.0) - r.center() * zoom_;
        followFit_ = false;
    }
    update();
    emit selectionChanged(item);
}

namespace {

// A highlight in a tooltip: its colour, what it is, the path type where it has one, and why.
QString highlightLine(const Highlight& h) {
    const QString path = h.path.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(h.path);
    return QStringLiteral("<span style='color:%1'>■</span> %2%3: %4")
        .arg(highlightColour(h.kind).name(), highlightTitle(h.kind), path, h.why.toHtmlEscaped());
}

} // namespace

QString TopologyCanvas::toolTipFor(int item) const {
    if (item < 0)
        return {};
    const DiagramItem& it = diagram_.items[item];
    QStringList lines{QStringLiteral("<b>%1</b> — %2").arg(it.label.toHtmlEscaped(), itemKindTitle(it.kind))};
    if (!it.detail.isEmpty())
        lines << it.detail.toHtmlEscaped();
    if (!it.pci.isEmpty())
        lines << tr("PCI %1").arg(it.pci);
    for (const Highlight* h : diagram_.highlightsOf(item))
        lines << highlightLine(*h);
    if (it.kind == ItemKind::Host)
        lines << tr("<i>double-click to open or close</i>");
    return lines.join(QStringLiteral("<br>"));
}

QString TopologyCanvas::toolTipForLink(int link) const {
    if (link < 0 || link >= int(diagram_.links.size()))
        return {};
    const DiagramLink& l = diagram_.links[link];
    auto end = [&](int i) {
        const DiagramItem& it = diagram_.items[i];
        return (it.host.isEmpty() || it.kind == ItemKind::Host
                    ? it.label
                    : QStringLiteral("%1 %2").arg(it.host, it.label))
            .toHtmlEscaped();
    };
    QStringList lines{QStringLiteral("<b>%1 — %2</b>").arg(end(l.a), end(l.b))};
    QString what = l.kind == LinkKind::NvLink   ? tr("NVLink")
                   : l.kind == LinkKind::GpuNic ? tr("the NIC NCCL would use for this GPU, path")
                                                : tr("cable");
    if (!l.label.isEmpty())
        what += QStringLiteral(": ") + l.label.toHtmlEscaped();
    if (l.count > 1)
        what += tr(" (%n in parallel)", nullptr, l.count);
    lines << what;
    if (l.rail >= 0 && l.rail < diagram_.rails.size())
        lines << QStringLiteral("<span style='color:%1'>■</span> %2")
                     .arg(railColour(l.rail).name(),
                          tr("rail %1 (%2)").arg(l.rail).arg(diagram_.rails[l.rail].toHtmlEscaped()));
    for (const Highlight& h : diagram_.highlights)
        if (std::find(h.links.begin(), h.links.end(), link) != h.links.end())
            lines << highlightLine(h);
    return lines.join(QStringLiteral("<br>"));
}

void TopologyCanvas::paintEvent(QPaintEvent* e) {
    const double dpr = devicePixelRatioF();
    if (frame_.size() != size() * dpr || frame_.devicePixelRatio() != dpr) {
        frame_ = QImage(size() * dpr, QImage::Format_RGB32); // opaque: shown by a plain copy
        frame_.setDevicePixelRatio(dpr);
    }
    PaintOptions o = paint_;
    o.exposed = QRectF(toScene(e->rect().topLeft()), toScene(e->rect().bottomRight() + QPoint(1, 1)));
    paintDiagramInBands(frame_, e->rect(), QTransform(zoom_, 0, 0, zoom_, offset_.x(), offset_.y()), diagram_,
                        o, QColor(0xfb, 0xfc, 0xfd));
    QPainter p(this);
    p.drawImage(e->rect(), frame_,
                QRectF(QPointF(e->rect().topLeft()) * dpr, QSizeF(e->rect().size()) * dpr));
    if (diagram_.items.empty()) {
        p.setPen(Qt::gray);
        p.drawText(rect(), Qt::AlignCenter,
                   tr("Nothing to draw yet: open a topology or connect to servers."));
    }
}

void TopologyCanvas::wheelEvent(QWheelEvent* e) {
    zoomBy(std::pow(1.0015, e->angleDelta().y()), e->position());
    e->accept();
}

void TopologyCanvas::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton)
        return;
    dragFrom_ = e->pos();
    dragging_ = false;
}

void TopologyCanvas::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) {
        if (!dragging_ && (e->pos() - dragFrom_).manhattanLength() > 3)
            dragging_ = true;
        if (dragging_) {
            followFit_ = false;
            offset_ += e->pos() - dragFrom_;
            dragFrom_ = e->pos();
            update();
        }
        return;
    }
    const Hit hit = hitAt(e->position()); // one thing lit at a time
    if (hit.item != paint_.hovered || hit.link != paint_.hoveredLink) {
        paint_.hovered = hit.item;
        paint_.hoveredLink = hit.link;
        update();
    }
}

void TopologyCanvas::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton && !dragging_)
        select(itemAt(e->position()), false);
    if (dragging_)
        settle_.start();
    dragging_ = false;
}

void TopologyCanvas::toggle(int item) {
    int at = item;
    while (at >= 0 && diagram_.items[at].kind != ItemKind::Host)
        at = diagram_.items[at].parent;
    if (at >= 0) {
        anchorOn(at);
        emit expandToggled(diagram_.items[at].host);
    }
}

void TopologyCanvas::mouseDoubleClickEvent(QMouseEvent* e) {
    toggle(itemAt(e->position()));
}

// The nearest item whose centre lies that way, preferring ones in line.
void TopologyCanvas::moveSelection(int dx, int dy) {
    if (paint_.selected < 0) {
        followFit_ = false;
        offset_ -= QPointF(dx, dy) * 60;
        update();
        return;
    }
    const QPointF from = diagram_.items[paint_.selected].rect.center();
    int best = -1;
    double bestScore = 0;
    for (std::size_t i = 0; i < diagram_.items.size(); ++i) {
        const QPointF d = diagram_.items[i].rect.center() - from;
        const double along = d.x() * dx + d.y() * dy, across = std::abs(d.x() * dy) + std::abs(d.y() * dx);
        if (along <= 1)
            continue;
        const double score = along + 3 * across;
        if (best < 0 || score < bestScore) {
            best = int(i);
            bestScore = score;
        }
    }
    if (best >= 0)
        select(best, true);
}

void TopologyCanvas::keyPressEvent(QKeyEvent* e) {
    const QPointF middle(width() / 2.0, height() / 2.0);
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25, middle);
        break;
    case Qt::Key_Minus:
        zoomBy(0.8, middle);
        break;
    case Qt::Key_0: // the whole picture: the servers the zoom opened close again
        fit();
        emit zoomedOut();
        break;
    case Qt::Key_Left:
        moveSelection(-1, 0);
        break;
    case Qt::Key_Right:
        moveSelection(1, 0);
        break;
    case Qt::Key_Up:
        moveSelection(0, -1);
        break;
    case Qt::Key_Down:
        moveSelection(0, 1);
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        toggle(paint_.selected);
        break;
    case Qt::Key_Escape:
        select(-1, false);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

bool TopologyCanvas::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const Hit hit = hitAt(help->pos());
        const QString text = hit.link >= 0 ? toolTipForLink(hit.link) : toolTipFor(hit.item);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    if (e->type() == QEvent::Show && !fitted_)
        fit();
    return QWidget::event(e);
}

} // namespace rackscope::gui
