#pragma once
// Bus bandwidth against message size (log2) and time per size, drawn from
// RunChartData: the live run, earlier runs and a baseline, and the expected
// line rate as a reference. Redrawn at most ten times a second, and only
// when the data changed, so a streaming run never floods the window.
#include "runs/run_chart_data.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QTimer;

namespace rackscope::gui {

class RunChart : public QWidget {
    Q_OBJECT
public:
    explicit RunChart(QWidget* parent = nullptr);
    void retranslate();
    RunChartData& data() { return data_; }
    const RunChartData& data() const { return data_; }
    int redraws() const { return redraws_; }
    QCustomPlot* bandwidthPlot() const { return busbw_; }
    QString summary() const; // the line above the plots: last point, share of the line rate

private:
    void redrawIfChanged();
    RunChartData data_;
    QCustomPlot* busbw_;
    QCustomPlot* time_;
    QLabel* summary_;
    QTimer* timer_;
    quint64 drawn_ = ~quint64(0);
    int redraws_ = 0;
};

} // namespace rackscope::gui
