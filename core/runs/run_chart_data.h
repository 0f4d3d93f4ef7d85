#pragma once
// What the run charts draw, without a widget: one series per run (bus
// bandwidth and time per message size, filled in as rows arrive), earlier
// runs and a baseline beside it, and the expected line rate with each
// point's share of it. The chart widget redraws only when `revision` moved.
#include "line_rate.h"
#include "nccl_tests_output.h"

#include <vector>

namespace rackscope {

enum class SeriesRole { Live, Earlier, Baseline };

struct ChartSeries {
    QString name;
    SeriesRole role = SeriesRole::Live;
    std::vector<double> sizes, busbw, timeUs; // out-of-place, in arrival order
};

class RunChartData {
public:
    int addSeries(const QString& name, SeriesRole role); // its index
    int addRun(const QString& name, SeriesRole role, const NcclTestsRun& run);
    void addRow(int series, const NcclTestsRow& row);
    void removeRole(SeriesRole role); // e.g. the old baseline when a new one is chosen
    void setLineRate(const LineRate& rate);
    const LineRate& lineRate() const { return lineRate_; }
    std::optional<double> percentOfLineRate(double busbw) const;
    const std::vector<ChartSeries>& series() const { return series_; }
    quint64 revision() const { return revision_; }

private:
    std::vector<ChartSeries> series_;
    LineRate lineRate_;
    quint64 revision_ = 0;
};

} // namespace rackscope
