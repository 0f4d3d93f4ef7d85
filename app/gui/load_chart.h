#pragma once
// The live charts of an inference load run, drawn from a LoadTimeline: TTFT
// and TPOT percentiles per second, throughput, in-flight requests and
// failures over time; a TTFT histogram; and for a sweep, throughput against
// tail latency per step. Redrawn at most four times a second, and only when
// the data changed, so thousands of requests a second never flood the window.
#include "runs/load_timeline.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QTimer;

namespace rackscope::gui {

class LoadChart : public QWidget {
    Q_OBJECT
public:
    explicit LoadChart(QWidget* parent = nullptr);
    LoadTimeline& timeline() { return timeline_; }
    void setStatus(const QString& text);
    QString status() const;
    int redraws() const { return redraws_; }
    QCustomPlot* latencyPlot() const { return latency_; }

private:
    void redrawIfChanged();
    LoadTimeline timeline_;
    QCustomPlot* latency_;
    QCustomPlot* throughput_;
    QCustomPlot* histogram_;
    QCustomPlot* sweep_;
    QLabel* status_;
    QTimer* timer_;
    quint64 drawn_ = ~quint64(0);
    int redraws_ = 0;
};

} // namespace rackscope::gui
