#include "text_size_probe.h"

#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QTextItem>

#include <cmath>
#include <limits>

namespace rackscope {
namespace {

class TextSizeEngine : public QPaintEngine {
public:
    TextSizeEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    Type type() const override { return QPaintEngine::User; }
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawLines(const QLineF*, int) override {}
    void drawRects(const QRectF*, int) override {}
    void drawEllipse(const QRectF&) override {}
    void drawTextItem(const QPointF&, const QTextItem& text) override {
        if (text.text().trimmed().isEmpty())
            return;
        const QTransform& t = painter()->worldTransform();
        const double scale = std::sqrt(std::abs(t.m11() * t.m22() - t.m12() * t.m21()));
        const QFont f = text.font();
        const double pixels = f.pixelSize() > 0 ? f.pixelSize() : f.pointSizeF(); // the device is 72 DPI
        smallest = std::min(smallest, pixels * scale);
    }
    double smallest = std::numeric_limits<double>::infinity();
};

class TextSizeDevice : public QPaintDevice {
public:
    explicit TextSizeDevice(QSizeF size) : size_(size.toSize()) {}
    QPaintEngine* paintEngine() const override { return &engine_; }
    double smallest() const { return engine_.smallest; }

protected:
    int metric(PaintDeviceMetric m) const override {
        switch (m) {
        case PdmWidth:
            return size_.width();
        case PdmHeight:
            return size_.height();
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 72;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return std::numeric_limits<int>::max();
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        default:
            return QPaintDevice::metric(m);
        }
    }

private:
    QSize size_;
    mutable TextSizeEngine engine_;
};

} // namespace

double smallestTextDrawn(QSizeF size, const std::function<void(QPainter&)>& draw) {
    TextSizeDevice device(size);
    {
        QPainter p(&device);
        draw(p);
    }
    return std::isinf(device.smallest()) ? 0 : device.smallest();
}

} // namespace rackscope
