#include "run_chart.h"

#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace rackscope::gui {
namespace {

void logSizeAxis(QCPAxis* axis) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("gb"));
}

QPen penFor(SeriesRole role, int index) {
    static const QColor live[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                  QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                  QColor(0xff, 0x7f, 0x0e)};
    switch (role) {
    case SeriesRole::Live:
        return QPen(live[index % 5], 2);
    case SeriesRole::Earlier:
        return QPen(QColor(0x99, 0x99, 0x99), 1.2, Qt::DashLine);
    case SeriesRole::Baseline:
        break;
    }
    return QPen(Qt::black, 1.5, Qt::DashDotLine);
}

} // namespace

RunChart::RunChart(QWidget* parent)
    : QWidget(parent), busbw_(new QCustomPlot(this)), time_(new QCustomPlot(this)),
      summary_(new QLabel(this)), timer_(new QTimer(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(busbw_, 3);
    layout->addWidget(time_, 2);
    logSizeAxis(busbw_->xAxis);
    busbw_->legend->setVisible(true);
    logSizeAxis(time_->xAxis);
    time_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    time_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    for (QCustomPlot* p : {busbw_, time_})
        p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    retranslate();
    connect(timer_, &QTimer::timeout, this, &RunChart::redrawIfChanged);
    timer_->start(100);
}

void RunChart::retranslate() {
    busbw_->xAxis->setLabel(tr("message size (bytes)"));
    busbw_->yAxis->setLabel(tr("bus bandwidth (GB/s)"));
    time_->xAxis->setLabel(tr("message size (bytes)"));
    time_->yAxis->setLabel(tr("time (µs)"));
    if (redraws_ == 0) {
        summary_->setText(tr("No run yet."));
        return;
    }
    drawn_ = ~data_.revision(); // the summary and the line-rate label again, in these words
    redrawIfChanged();
}

QString RunChart::summary() const {
    return summary_->text();
}

void RunChart::redrawIfChanged() {
    if (data_.revision() == drawn_)
        return;
    drawn_ = data_.revision();
    ++redraws_;
    for (QCustomPlot* p : {busbw_, time_}) {
        p->clearGraphs();
        p->clearItems();
    }
    int liveIndex = 0;
    QString last;
    double top = 0;
    for (const ChartSeries& s : data_.series()) {
        const QPen pen = penFor(s.role, s.role == SeriesRole::Live ? liveIndex++ : 0);
        QCPGraph* g = busbw_->addGraph();
        g->setName(s.name);
        g->setPen(pen);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        g->setData(QVector<double>(s.sizes.begin(), s.sizes.end()),
                   QVector<double>(s.busbw.begin(), s.busbw.end()));
        QCPGraph* t = time_->addGraph();
        t->setPen(pen);
        t->setData(QVector<double>(s.sizes.begin(), s.sizes.end()),
                   QVector<double>(s.timeUs.begin(), s.timeUs.end()));
        for (double b : s.busbw)
            top = std::max(top, b);
        if (s.role == SeriesRole::Live && !s.busbw.empty()) {
            const auto share = data_.percentOfLineRate(s.busbw.back());
            last = tr("%1: %2 GB/s at %3 bytes%4")
                       .arg(s.name)
                       .arg(s.busbw.back(), 0, 'f', 2)
                       .arg(qint64(s.sizes.back()))
                       .arg(share ? tr(", %1 % of the line rate").arg(*share, 0, 'f', 0) : QString());
        }
    }
    if (const auto rate = data_.lineRate().busbwGBs) {
        auto* line = new QCPItemStraightLine(busbw_);
        line->point1->setCoords(1, *rate);
        line->point2->setCoords(2, *rate);
        line->setPen(QPen(QColor(0x2c, 0xa0, 0x2c), 1, Qt::DotLine));
        auto* label = new QCPItemText(busbw_);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(0.02, *rate);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setText(tr("line rate %1 GB/s").arg(*rate, 0, 'f', 0));
        top = std::max(top, *rate);
    }
    busbw_->xAxis->rescale();
    busbw_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    time_->rescaleAxes();
    summary_->setText(last.isEmpty()
                          ? (data_.lineRate().busbwGBs ? tr("Line rate: %1").arg(data_.lineRate().explanation)
                                                       : tr("No run yet."))
                          : last);
    summary_->setToolTip(data_.lineRate().explanation);
    busbw_->replot(QCustomPlot::rpQueuedReplot);
    time_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace rackscope::gui
