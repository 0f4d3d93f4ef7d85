#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rackscope {
namespace {

struct Range {
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
    void take(double v) {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    bool empty() const { return lo > hi; }
};

// A step of 1, 2 or 5 times a power of ten giving about five ticks over the range.
double tickStep(double span) {
    if (!(span > 0))
        return 1;
    const double raw = span / 5, magnitude = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude)
            return m * magnitude;
    return 10 * magnitude;
}

QString num(double v) {
    return QString::number(v, 'g', 6);
}

// [lo, hi] widened to whole ticks, from 0 for counts and latencies (they start there).
Range nice(Range r, bool fromZero) {
    if (r.empty())
        r = {0, 1};
    if (fromZero)
        r.lo = std::min(0.0, r.lo);
    if (r.hi <= r.lo)
        r.hi = r.lo + 1;
    const double step = tickStep(r.hi - r.lo);
    return {std::floor(r.lo / step) * step, std::ceil(r.hi / step) * step};
}

} // namespace

QString xmlEscaped(const QString& s) {
    QString out = s.toHtmlEscaped();
    out.replace(QLatin1Char('\''), QStringLiteral("&#39;"));
    return out;
}

QString svgChart(const SvgChart& c) {
    const double left = 64, right = c.y2Label.isEmpty() ? 20 : 64, top = 28, bottom = 44;
    const double pw = c.width - left - right, ph = c.height - top - bottom;
    Range x, y, y2;
    for (const SvgSeries& s : c.series) {
        for (const auto& [px, py] : s.points) {
            x.take(px);
            if (py)
                (s.rightAxis ? y2 : y).take(*py);
        }
        for (const auto& [ex, unused] : s.spanEnds)
            x.take(ex);
    }
    for (const auto& [mx, label] : c.xMarks)
        x.take(mx);
    x = nice(x, false);
    y = nice(y, true);
    y2 = nice(y2, true);
    if (c.yMax)
        y = {0, *c.yMax};
    const auto sx = [&](double v) { return left + (v - x.lo) / (x.hi - x.lo) * pw; };
    const auto sy = [&](double v, bool r) {
        const Range& a = r ? y2 : y;
        return top + ph - (v - a.lo) / (a.hi - a.lo) * ph;
    };
    QString o =
        QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%1\" width=\"%2\" height=\"%3\" "
                       "viewBox=\"0 0 %2 %3\" font-family=\"sans-serif\" font-size=\"11\">\n")
            .arg(c.id, num(c.width), num(c.height));
    o += QStringLiteral("<text x=\"%1\" y=\"16\" font-size=\"13\" font-weight=\"bold\">%2</text>\n")
             .arg(num(left), xmlEscaped(c.title));
    o +=
        QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"none\" stroke=\"#999\"/>\n")
            .arg(num(left), num(top), num(pw), num(ph));
    const auto ticks = [&](const Range& r, auto place) {
        const double step = tickStep(r.hi - r.lo);
        for (double v = r.lo; v <= r.hi + step / 1000; v += step)
            place(std::abs(v) < step / 1e6 ? 0.0 : v);
    };
    ticks(x, [&](double v) {
        o += QStringLiteral(
                 "<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"#eee\"/><text x=\"%1\" y=\"%4\" "
                 "text-anchor=\"middle\">%5</text>\n")
                 .arg(num(sx(v)), num(top), num(top + ph), num(top + ph + 14), num(v));
    });
    ticks(y, [&](double v) {
        o += QStringLiteral(
                 "<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#eee\"/><text x=\"%4\" y=\"%5\" "
                 "text-anchor=\"end\">%6</text>\n")
                 .arg(num(left), num(sy(v, false)), num(left + pw), num(left - 4), num(sy(v, false) + 4),
                      num(v));
    });
    if (!c.y2Label.isEmpty())
        ticks(y2, [&](double v) {
            o += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n")
                     .arg(num(left + pw + 4), num(sy(v, true) + 4), num(v));
        });
    o += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\">%3</text>\n")
             .arg(num(left + pw / 2), num(c.height - 6), xmlEscaped(c.xLabel));
    o += QStringLiteral("<text transform=\"translate(14,%1) rotate(-90)\" text-anchor=\"middle\">%2</text>\n")
             .arg(num(top + ph / 2), xmlEscaped(c.yLabel));
    if (!c.y2Label.isEmpty())
        o += QStringLiteral(
                 "<text transform=\"translate(%1,%2) rotate(90)\" text-anchor=\"middle\">%3</text>\n")
                 .arg(num(c.width - 10), num(top + ph / 2), xmlEscaped(c.y2Label));
    for (const SvgSeries& s : c.series) {
        const QString dash = s.dashed ? QStringLiteral(" stroke-dasharray=\"5,3\"") : QString();
        switch (s.kind) {
        case SvgSeries::Kind::Line: {
            QString path;
            bool pen = false;
            for (const auto& [px, py] : s.points) {
                if (!py) {
                    pen = false;
                    continue;
                }
                path += QStringLiteral("%1%2,%3 ")
                            .arg(pen ? QStringLiteral("L") : QStringLiteral("M"), num(sx(px)),
                                 num(sy(*py, s.rightAxis)));
                pen = true;
            }
            o += QStringLiteral("<path d=\"%1\" fill=\"none\" stroke=\"%2\" stroke-width=\"1.5\"%3/>\n")
                     .arg(path.trimmed(), s.color, dash);
            break;
        }
        case SvgSeries::Kind::Bars: {
            const double w =
                s.points.size() > 1 ? std::abs(sx(s.points[1].first) - sx(s.points[0].first)) : 8;
            for (const auto& [px, py] : s.points)
                if (py)
                    o += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"/>\n")
                             .arg(num(sx(px)), num(sy(*py, s.rightAxis)), num(std::max(1.0, w - 1)),
                                  num(top + ph - sy(*py, s.rightAxis)), s.color);
            break;
        }
        case SvgSeries::Kind::Points:
            for (const auto& [px, py] : s.points)
                if (py)
                    o += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"3.5\" fill=\"%3\"/>\n")
                             .arg(num(sx(px)), num(sy(*py, s.rightAxis)), s.color);
            break;
        case SvgSeries::Kind::Spans:
            for (size_t i = 0; i < s.points.size() && i < s.spanEnds.size(); ++i)
                if (const auto& py = s.points[i].second)
                    o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"%4\"/>\n")
                             .arg(num(sx(s.points[i].first)), num(sy(*py, false)),
                                  num(sx(s.spanEnds[i].first)), s.color);
            break;
        }
    }
    for (const auto& [mx, label] : c.xMarks)
        o +=
            QStringLiteral(
                "<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"#555\" stroke-dasharray=\"3,3\"/>"
                "<text x=\"%4\" y=\"%5\">%6</text>\n")
                .arg(num(sx(mx)), num(top), num(top + ph), num(sx(mx) + 4), num(top + 12), xmlEscaped(label));
    // The legend in a row over the plot, right-aligned, where no data can be under it.
    double lx = left + pw;
    for (auto it = c.series.rbegin(); it != c.series.rend(); ++it) {
        if (it->name.isEmpty())
            continue;
        lx -= 18 + 6.5 * double(it->name.size());
        o += QStringLiteral(
                 "<rect x=\"%1\" y=\"8\" width=\"10\" height=\"10\" fill=\"%2\"/><text x=\"%3\" y=\"17\">"
                 "%4</text>\n")
                 .arg(num(lx), it->color, num(lx + 14), xmlEscaped(it->name));
    }
    o += QStringLiteral("</svg>\n");
    return o;
}

} // namespace rackscope
