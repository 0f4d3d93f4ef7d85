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
    : QWidget(parent), latency_(new QCustomPlot(this)), throughput_(new QCustomPlot(this)),
      server_(new QCustomPlot(this)), gpus_(new QCustomPlot(this)), histogram_(new QCustomPlot(this)),
      sweep_(new QCustomPlot(this)), compare_(new QTableWidget(this)), tabs_(new QTabWidget(this)),
      status_(new QLabel(this)), timer_(new QTimer(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(status_);
    auto* overTime = new QWidget(tabs_);
    auto* overTimeLayout = new QVBoxLayout(overTime);
    overTimeLayout->setContentsMargins(0, 0, 0, 0);
    overTimeLayout->addWidget(latency_, 1);
    overTimeLayout->addWidget(throughput_, 1);
    overTimeLayout->addWidget(server_, 1);
    overTimeLayout->addWidget(gpus_, 1);
    server_->setVisible(false);
    gpus_->setVisible(false);
    gpus_->legend->setVisible(true);
    for (QWidget* tab : {overTime, static_cast<QWidget*>(histogram_), static_cast<QWidget*>(sweep_),
                         static_cast<QWidget*>(compare_)})
        tabs_->addTab(tab, QString());
    compare_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compare_->setSelectionBehavior(QAbstractItemView::SelectRows);
    compare_->verticalHeader()->setVisible(false);
    layout->addWidget(tabs_);

    for (int i = 0; i < 4; ++i) // TTFT p50, p99, TPOT p50, p99
        latency_->addGraph()->setPen(QPen(i < 2 ? QColor(0x1f, 0x77, 0xb4) : QColor(0xd6, 0x27, 0x28), 2,
                                          i % 2 ? Qt::DashLine : Qt::SolidLine));
    latency_->legend->setVisible(true);
    throughput_->addGraph()->setPen(QPen(QColor(0x2c, 0xa0, 0x2c), 2)); // requests/s
    throughput_->addGraph()->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2)); // failures/s
    throughput_->addGraph(throughput_->xAxis, throughput_->yAxis2)
        ->setPen(QPen(QColor(0x94, 0x67, 0xbd), 1.5, Qt::DashLine)); // in flight
    throughput_->yAxis2->setVisible(true);
    throughput_->legend->setVisible(true);
    server_->addGraph()->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 2)); // KV-cache use, %
    server_->addGraph(server_->xAxis, server_->yAxis2)
        ->setPen(QPen(QColor(0x8c, 0x56, 0x4b), 1.5)); // running
    server_->addGraph(server_->xAxis, server_->yAxis2)
        ->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1.5, Qt::DashLine)); // waiting
    server_->yAxis2->setVisible(true);
    server_->legend->setVisible(true);
    // The charts over time share their time axis: the same side margins put each second at one x.
    for (QCustomPlot* p : {latency_, throughput_, server_, gpus_}) {
        p->axisRect()->setAutoMargins(QCP::msTop | QCP::msBottom);
        p->axisRect()->setMargins(QMargins(72, 0, 72, 0));
    }
    new QCPBars(histogram_->xAxis, histogram_->yAxis);
    for (int i = 0; i < 2; ++i) { // TTFT tail, TPOT tail
        QCPGraph* g = sweep_->addGraph();
        g->setPen(QPen(i == 0 ? QColor(0x1f, 0x77, 0xb4) : QColor(0xd6, 0x27, 0x28), 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    }
    sweep_->legend->setVisible(true);
    retranslate();
    for (QCustomPlot* p : {latency_, throughput_, server_, gpus_, histogram_, sweep_})
        p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(timer_, &QTimer::timeout, this, &LoadChart::redrawIfChanged);
    timer_->start(250);
}

void LoadChart::retranslate() {
    if (!hasStatus_)
        status_->setText(tr("No inference load run yet."));
    const QString tabTitles[] = {tr("Over time"), tr("TTFT histogram"), tr("Sweep"), tr("Compare")};
    for (int i = 0; i < 4; ++i)
        tabs_->setTabText(i, tabTitles[i]);
    const QString latencyNames[] = {tr("TTFT p50"), tr("TTFT p99"), tr("TPOT p50"), tr("TPOT p99")};
    for (int i = 0; i < 4; ++i)
        latency_->graph(i)->setName(latencyNames[i]);
    latency_->xAxis->setLabel(tr("time (s)"));
    latency_->yAxis->setLabel(tr("latency (ms)"));
    throughput_->graph(0)->setName(tr("requests/s"));
    throughput_->graph(1)->setName(tr("failures/s"));
    throughput_->graph(2)->setName(tr("in flight"));
    throughput_->xAxis->setLabel(tr("time (s)"));
    throughput_->yAxis->setLabel(tr("per second"));
    throughput_->yAxis2->setLabel(tr("requests in flight"));
    server_->graph(0)->setName(tr("server KV-cache use (%)"));
    server_->graph(1)->setName(tr("running"));
    server_->graph(2)->setName(tr("waiting"));
    server_->xAxis->setLabel(tr("time (s)"));
    server_->yAxis->setLabel(tr("KV-cache use (%)"));
    server_->yAxis2->setLabel(tr("server's requests"));
    gpus_->xAxis->setLabel(tr("time (s)"));
    gpus_->yAxis->setLabel(tr("GPU utilisation (%)"));
    histogram_->plottable(0)->setName(tr("TTFT"));
    histogram_->xAxis->setLabel(tr("TTFT (ms)"));
    histogram_->yAxis->setLabel(tr("requests"));
    sweep_->graph(0)->setName(tr("TTFT tail"));
    sweep_->graph(1)->setName(tr("TPOT tail"));
    sweep_->xAxis->setLabel(tr("throughput (requests/s)"));
    sweep_->yAxis->setLabel(tr("latency (ms)"));
    for (QCustomPlot* p : {latency_, throughput_, server_, gpus_, histogram_, sweep_})
        p->replot();
}

void LoadChart::setComparison(const LoadComparison& c) {
    compare_->clear();
    compare_->setColumnCount(int(c.header.size()));
    compare_->setHorizontalHeaderLabels(c.header);
    compare_->setRowCount(int(c.rows.size()));
    for (int row = 0; row < int(c.rows.size()); ++row)
        for (int col = 0; col < int(c.rows[size_t(row)].size()); ++col) {
            auto* item = new QTableWidgetItem(c.rows[size_t(row)][col]);
            if (col >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            compare_->setItem(row, col, item);
        }
    compare_->resizeColumnsToContents();
    if (!c.rows.empty())
        tabs_->setCurrentWidget(compare_);
}

void LoadChart::setStatus(const QString& text) {
    hasStatus_ = true;
    status_->setText(text);
}
QString LoadChart::status() const {
    return status_->text();
}

void LoadChart::redrawIfChanged() {
    if (timeline_.revision() == drawn_)
        return;
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
    // The server's view, where a scrape said it; a gap where it was silent.
    QVector<double> st, kv, running, waiting;
    const auto orGap = [](const std::optional<double>& v, double scale = 1) {
        return v ? *v * scale : std::nan("");
    };
    for (const rsload::ServerSample& s : timeline_.server()) {
        st << s.tS;
        kv << orGap(s.load.kvCacheUse, 100);
        running << orGap(s.load.running);
        waiting << orGap(s.load.waiting);
    }
    server_->graph(0)->setData(st, kv, true);
    server_->graph(1)->setData(st, running, true);
    server_->graph(2)->setData(st, waiting, true);
    server_->setVisible(!st.isEmpty());
    drawGpus();
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
    for (QCustomPlot* p : {latency_, throughput_, server_, gpus_, histogram_, sweep_})
        p->rescaleAxes();
    // One time axis for the charts over time: the server's load and the GPUs read against the TTFT above.
    QCPRange time = latency_->xAxis->range();
    for (QCustomPlot* p : {throughput_, server_, gpus_})
        if (p->isVisibleTo(this) || p == throughput_)
            time.expand(p->xAxis->range());
    for (QCustomPlot* p : {latency_, throughput_, server_, gpus_})
        p->xAxis->setRange(time);
    server_->yAxis->setRange(0, 100);
    gpus_->yAxis->setRange(0, 100);
    for (QCustomPlot* p : {latency_, throughput_, server_, gpus_, histogram_, sweep_})
        p->replot(QCustomPlot::rpQueuedReplot);
}

// A line per worker: the mean utilisation of its GPUs at each reading (a GPU that did not say is left out).
void LoadChart::drawGpus() {
    static const QColor palette[] = {{0x17, 0xbe, 0xcf}, {0xbc, 0xbd, 0x22}, {0x94, 0x67, 0xbd},
                                     {0x8c, 0x56, 0x4b}, {0xe3, 0x77, 0xc2}, {0x7f, 0x7f, 0x7f},
                                     {0x2c, 0xa0, 0x2c}, {0x1f, 0x77, 0xb4}};
    const auto& workers = timeline_.gpus();
    while (gpus_->graphCount() > int(workers.size())) // a run of fewer workers after one of more
        gpus_->removeGraph(gpus_->graphCount() - 1);
    while (gpus_->graphCount() < int(workers.size())) {
        const int i = gpus_->graphCount();
        gpus_->addGraph()->setPen(QPen(palette[i % 8], 2, i < 8 ? Qt::SolidLine : Qt::DashLine));
    }
    for (int i = 0; i < int(workers.size()); ++i) {
        const auto& [worker, samples] = workers[size_t(i)];
        QVector<double> t, util;
        for (const rsload::GpuSample& s : samples) {
            t << s.tS;
            util << rsload::meanUtilisation(s).value_or(std::nan(""));
        }
        gpus_->graph(i)->setName(QString::fromStdString(worker));
        gpus_->graph(i)->setData(t, util, true);
    }
    gpus_->setVisible(!workers.empty());
}

} // namespace rackscope::gui
