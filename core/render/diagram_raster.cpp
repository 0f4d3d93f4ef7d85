#include "diagram_raster.h"

#include <QImage>
#include <QPainter>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <latch>

namespace rackscope {
namespace {

// Bands thinner than this cost more in setting up than they save.
constexpr int kMinBandRows = 96;

// Its own threads: a frame never waits behind other work queued on the global pool.
QThreadPool& bandPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1)); // this thread paints a band too
        p->setExpiryTimeout(-1); // kept, with their font caches, for the next frame
        return p;
    }();
    return *pool;
}

// What a band can show: its own rows, widened by what items draw outside their boxes (port tabs, rings,
// labels above a cable's anchor), so nothing drawn across a band's edge is left out of the band it reaches.
QRectF bandScene(const QTransform& imageToScene, const QRectF& bandLogical, double scale) {
    constexpr double kOverhangPixels = 24, kOverhangScene = 16;
    const double margin = std::max(kOverhangPixels / scale, kOverhangScene);
    return imageToScene.mapRect(bandLogical).adjusted(-margin, -margin, margin, margin);
}

} // namespace

void paintDiagramInBands(QImage& image, const QRect& area, const QTransform& sceneToImage, const Diagram& d,
                         const PaintOptions& o, const QColor& background, int bands) {
    const double dpr = image.devicePixelRatio();
    const QRect device = QRectF(QPointF(area.topLeft()) * dpr, QSizeF(area.size()) * dpr)
                             .toAlignedRect()
                             .intersected(image.rect());
    if (device.isEmpty())
        return;
    uchar* bits = image.bits(); // detaches here, on this thread, before the bands share the memory
    const qsizetype stride = image.bytesPerLine();
    const QTransform imageToScene = sceneToImage.inverted();
    const double scale = std::sqrt(std::abs(sceneToImage.determinant()));
    if (bands <= 0)
        bands = std::clamp(device.height() / kMinBandRows, 1, bandPool().maxThreadCount() + 1);
    bands = std::min(bands, device.height());

    auto paintBand = [&](int i) {
        const int top = device.top() + device.height() * i / bands,
                  bottom = device.top() + device.height() * (i + 1) / bands;
        // The whole image to each band's painter, clipped to the band's rows: a line is rasterised as in one
        // piece (a smaller device would clip it at the band's edge and start it a pixel off).
        QImage shared(bits, image.width(), image.height(), stride, image.format());
        shared.setDevicePixelRatio(dpr);
        const QRectF logical(QPointF(device.left(), top) / dpr, QSizeF(device.width(), bottom - top) / dpr);
        QPainter p(&shared);
        p.setClipRect(logical);
        p.fillRect(logical, background);
        p.setTransform(sceneToImage);
        PaintOptions own = o;
        const QRectF reach = bandScene(imageToScene, logical, scale);
        own.exposed = o.exposed.isEmpty() ? reach : o.exposed.intersected(reach);
        if (!own.exposed.isEmpty())
            paintDiagram(p, d, own);
    };
    std::latch done(bands - 1);
    for (int i = 1; i < bands; ++i)
        bandPool().start([&, i] {
            paintBand(i);
            done.count_down();
        });
    paintBand(0);
    done.wait();
}

} // namespace rackscope
