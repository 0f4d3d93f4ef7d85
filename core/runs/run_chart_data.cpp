#include "run_chart_data.h"

namespace rackscope {

int RunChartData::addSeries(const QString& name, SeriesRole role) {
    series_.push_back({name, role, {}, {}, {}});
    ++revision_;
    return int(series_.size()) - 1;
}

int RunChartData::addRun(const QString& name, SeriesRole role, const NcclTestsRun& run) {
    const int index = addSeries(name, role);
    for (const NcclTestsRow& r : run.rows)
        addRow(index, r);
    return index;
}

void RunChartData::addRow(int index, const NcclTestsRow& row) {
    if (index < 0 || index >= int(series_.size()) || row.size <= 0)
        return; // a zero size has no place on a log axis
    ChartSeries& s = series_[size_t(index)];
    s.sizes.push_back(double(row.size));
    s.busbw.push_back(row.outOfPlace.busbw);
    s.timeUs.push_back(row.outOfPlace.timeUs);
    ++revision_;
}

void RunChartData::removeRole(SeriesRole role) {
    std::erase_if(series_, [role](const ChartSeries& s) { return s.role == role; });
    ++revision_;
}

void RunChartData::setLineRate(const LineRate& rate) {
    if (rate.busbwGBs == lineRate_.busbwGBs && rate.explanation == lineRate_.explanation)
        return; // nothing to draw again
    lineRate_ = rate;
    ++revision_;
}

std::optional<double> RunChartData::percentOfLineRate(double busbw) const {
    if (!lineRate_.busbwGBs || *lineRate_.busbwGBs <= 0)
        return std::nullopt;
    return 100.0 * busbw / *lineRate_.busbwGBs;
}

} // namespace rackscope
