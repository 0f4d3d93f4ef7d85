#pragma once
// The live charts of an inference load run, drawn from a LoadTimeline: TTFT
// and TPOT percentiles per second, throughput, in-flight requests and
// failures over time, and under them, on the same time axis, the server's
// KV-cache use and queue where its /metrics were scraped, and the workers' GPU
// utilisation where sampled; a TTFT histogram; and for a sweep, throughput
// against tail latency per step; and saved runs' main figures side by side. Redrawn at most four times a
// second, and only when the data changed, so thousands of requests a second never flood the window.
#include "runs/load_results.h"
#include "runs/load_timeline.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace rackscope::gui {

class LoadChart : public QWidget {
    Q_OBJECT
public:
    explicit LoadChart(QWidget* parent = nullptr);
    void retranslate(); // the charts' own words, in the language now installed
    LoadTimeline& timeline() { return timeline_; }
    void setStatus(const QString& text);
    QString status() const;
    int redraws() const { return redraws_; }
    QCustomPlot* latencyPlot() const { return latency_; }
    QCustomPlot* serverPlot() const { return server_; } // hidden while no scrape was read
    QCustomPlot* gpuPlot() const { return gpus_; }      // hidden while no worker's GPUs were read
    // The runs compared, one row each, shown on the Compare tab.
    void setComparison(const LoadComparison& c);
    QTableWidget* comparisonTable() const { return compare_; }

private:
    void redrawIfChanged();
    void drawGpus();
    LoadTimeline timeline_;
    QCustomPlot* latency_;
    QCustomPlot* throughput_;
    QCustomPlot* server_;
    QCustomPlot* gpus_;
    QCustomPlot* histogram_;
    QCustomPlot* sweep_;
    QTableWidget* compare_;
    QTabWidget* tabs_;
    QLabel* status_;
    QTimer* timer_;
    quint64 drawn_ = ~quint64(0);
    int redraws_ = 0;
    bool hasStatus_ = false;
};

} // namespace rackscope::gui
