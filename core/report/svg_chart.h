#pragma once
// Small charts as inline SVG, for reports that must open with no network: axes with round ticks,
// lines (a gap where a value is unknown), bars, points and horizontal spans, and a legend. The text is
// escaped; the output is well-formed XML, so an XHTML page can hold it.
#include <QString>
#include <optional>
#include <vector>

namespace rackscope {

struct SvgSeries {
    enum class Kind { Line, Bars, Points, Spans } kind = Kind::Line;
    QString name;
    QString color;                                                // "#1f77b4"
    std::vector<std::pair<double, std::optional<double>>> points; // (x, y); y unknown: a gap
    std::vector<std::pair<double, double>> spanEnds; // Spans: (x end, unused) beside points' (x start, y)
    bool rightAxis = false;
    bool dashed = false;
};

struct SvgChart {
    QString id;    // the svg element's id
    QString title; // over the plot
    QString xLabel, yLabel, y2Label;
    double width = 880, height = 300;
    std::optional<double> yMax; // a fixed top (100 for a percentage)
    std::vector<SvgSeries> series;
    std::vector<std::pair<double, QString>> xMarks; // vertical lines with a label (a capacity)
};

QString svgChart(const SvgChart& c);
QString xmlEscaped(const QString& s);

} // namespace rackscope
