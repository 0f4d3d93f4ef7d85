#include "load_chart.h"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace rackscope::gui {

LoadChart::LoadChart(QWidget* parent)
    : QWidget(parent), latency_(new QCustomPlot(this)), throughput_(new QCustomPlot(this)), histogram_(new QCustomPlot(this)),
      sweep_(new QCustomPlot(this)), compare_(new QTableWidget(this)), tabs_(new QTabWidget(this)),
      status_(new QLabel(tr("No inference load run yet."), this)), timer_(new QTimer(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(status_);
    auto* tabs = tabs_;
    auto* overTime = new QWidget(tabs);
    auto* overTimeLayout = new QVBoxLayout(overTime);
    overTimeLayout->setContentsMargins(0, 0, 0, 0);
    overTimeLayout->addWidget(latency_, 1);
    overTimeLayout->addWidget(throughput_, 1);
    tabs->addTab(overTime, tr("Over time"));
    tabs->addTab(histogram_, tr("TTFT histogram"));
    tabs->addTab(sweep_, tr("Sweep"));
    tabs->addTab(compare_, tr("Compare"));
    compare_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compare_->setSelectionBehavior(QAbstractItemView::SelectRows);
    compare_->verticalHeader()->setVisible(false);
    layout->addWidget(tabs);

    const std::pair<QString, QColor> latencyGraphs[] = {{tr("TTFT p50"), QColor(0x1f, 0x77, 0xb4)}, {tr("TTFT p99"), QColor(0x1f, 0x77, 0xb4)},
                                                        {tr("TPOT p50"), QColor(0xd6, 0x27, 0x28)}, {tr("TPOT p99"), QColor(0xd6, 0x27, 0x28)}};
    for (int i = 0; i < 4; ++i) {
        QCPGraph* g = latency_->addGraph();
        g->setName(latencyGraphs[i].first);
        g->setPen(QPen(latencyGraphs[i].second, 2, i % 2 ? Qt::DashLine : Qt::SolidLine));
    }
    latency_->xAxis->setLabel(tr("time (s)"));
    latency_->yAxis->setLabel(tr("latency (ms)"));
    latency_->legend->setVisible(true);
    QCPGraph* rate = throughput_->addGraph();
    rate->setName(tr("requests/s"));
    rate->setPen(QPen(QColor(0x2c, 0xa0, 0x2c), 2));
    QCPGraph* failed = throughput_->addGraph();
    failed->setName(tr("failures/s"));
    failed->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
    QCPGraph* inFlight = throughput_->addGraph(throughput_->xAxis, throughput_->yAxis2);
    inFlight->setName(tr("in flight"));
    inFlight->setPen(QPen(QColor(0x94, 0x67, 0xbd), 1.5, Qt::DashLine));
    throughput_->yAxis2->setVisible(true);
    throughput_->xAxis->setLabel(tr("time (s)"));
    throughput_->yAxis->setLabel(tr("per second"));
    throughput_->yAxis2->setLabel(tr("requests in flight"));
    throughput_->legend->setVisible(true);
    auto* bars = new QCPBars(histogram_->xAxis, histogram_->yAxis);
    bars->setName(tr("TTFT"));
    histogram_->xAxis->setLabel(tr("TTFT (ms)"));
    histogram_->yAxis->setLabel(tr("requests"));
    QCPGraph* ttftStep = sweep_->addGraph();
    ttftStep->setName(tr("TTFT tail"));
    ttftStep->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
    ttftStep->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    QCPGraph* tpotStep = sweep_->addGraph();
    tpotStep->setName(tr("TPOT tail"));
    tpotStep->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
    tpotStep->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    sweep_->xAxis->setLabel(tr("throughput (requests/s)"));
    sweep_->yAxis->setLabel(tr("latency (ms)"));
    sweep_->legend->setVisible(true);
    for (QCustomPlot* p : {latency_, throughput_, histogram_, sweep_}) p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(timer_, &QTimer::timeout, this, &LoadChart::redrawIfChanged);
    timer_->start(250);
}

void LoadChart::setComparison(const LoadComparison& c) {
    compare_->clear();
    compare_->setColumnCount(int(c.header.size()));
    compare_->setHorizontalHeaderLabels(c.header);
    compare_->setRowCount(int(c.rows.size()));
    for (int row = 0; row < int(c.rows.size()); ++row)
        for (int col = 0; col < int(c.rows[size_t(row)].size()); ++col) {
            auto* item = new QTableWidgetItem(c.rows[size_t(row)][col]);
            if (col >= 2) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            compare_->setItem(row, col, item);
        }
    compare_->resizeColumnsToContents();
    if (!c.rows.empty()) tabs_->setCurrentWidget(compare_);
}

void LoadChart::setStatus(const QString& text) { status_->setText(text); }
QString LoadChart::status() const { return status_->text(); }

void LoadChart::redrawIfChanged() {
    if (timeline_.revision() == drawn_) return;
    drawn_ = timeline_.revision();
    ++redraws_;
    QVector<double> t, ttft50, ttft99, tpot50, tpot99, reqs, fails;
    for (const auto& [key, w] : timeline_.windows()) {
        const double mid = w.startS + timeline_.windowS() / 2;
        t << mid;
        const rsload::MetricStats a = rsload::statsOf(w.ttft, {99}), b = rsload::statsOf(w.tpot, {99});
        const double unknown = std::nan("");
        ttft50 << (a.count ? a.median : unknown);
        ttft99 << (a.count ? a.percentiles[0].second : unknown);
        tpot50 << (b.count ? b.median : unknown);
        tpot99 << (b.count ? b.percentiles[0].second : unknown);
        reqs << double(w.completed) / timeline_.windowS();
        fails << double(w.failed) / timeline_.windowS();
    }
    latency_->graph(0)->setData(t, ttft50, true);
    latency_->graph(1)->setData(t, ttft99, true);
    latency_->graph(2)->setData(t, tpot50, true);
    latency_->graph(3)->setData(t, tpot99, true);
    throughput_->graph(0)->setData(t, reqs, true);
    throughput_->graph(1)->setData(t, fails, true);
    QVector<double> ft, fn;
    for (const auto& [at, n] : timeline_.inFlight()) {
        ft << at;
        fn << double(n);
    }
    throughput_->graph(2)->setData(ft, fn, true);
    QVector<double> hx, hy;
    const auto hist = timeline_.histogram("ttft", 40);
    for (const auto& [x, n] : hist) {
        hx << x;
        hy << double(n);
    }
    auto* bars = qobject_cast<QCPBars*>(histogram_->plottable(0));
    bars->setWidth(hist.size() > 1 ? hist[1].first - hist[0].first : 1);
    bars->setData(hx, hy, true);
    QVector<double> sx, sTtft, sTpot;
    for (const LoadTimeline::Step& s : timeline_.steps()) {
        sx << s.requestThroughput;
        sTtft << s.ttftTail;
        sTpot << s.tpotTail;
    }
    sweep_->graph(0)->setData(sx, sTtft);
    sweep_->graph(1)->setData(sx, sTpot);
    for (QCustomPlot* p : {latency_, throughput_, histogram_, sweep_}) {
        p->rescaleAxes();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace rackscope::gui
