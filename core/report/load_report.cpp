#include "load_report.h"

#include "svg_chart.h"

#include <QDateTime>
#include <QFile>
#include <QSaveFile>
#include <algorithm>
#include <cmath>

namespace rackscope {
namespace {

constexpr size_t kMaxTimelineRequests = 4000; // more are drawn evenly sampled: the page stays light

QString e(const QString& s) {
    return xmlEscaped(s);
}
QString e(const std::string& s) {
    return xmlEscaped(QString::fromStdString(s));
}

QString figure(const rsload::Json& summary, const std::string& key, int decimals = 2) {
    const auto it = summary.find(key);
    return it != summary.end() && it->is_number() ? QString::number(it->get<double>(), 'f', decimals)
                                                  : QStringLiteral("\u2014");
}

SvgSeries series(SvgSeries::Kind kind, const QString& name, const char* color) {
    SvgSeries s;
    s.kind = kind;
    s.name = name;
    s.color = QLatin1String(color);
    return s;
}

QString describeSpec(const rsload::Json& spec) {
    QStringList parts;
    const auto text = [&](const char* key) { return QString::fromStdString(spec.value(key, std::string())); };
    parts << QStringLiteral("<b>%1</b> at <code>%2</code> (%3)")
                 .arg(e(text("model")), e(text("url")), e(text("endpoint")));
    if (spec.value("trace_count", 0) > 0)
        parts << QStringLiteral("a trace of %1 requests replayed at %2× speed")
                     .arg(spec.value("trace_count", 0))
                     .arg(spec.value("trace_speed", 1.0));
    else
        parts << QStringLiteral("concurrency %1, rate %2/s (burstiness %3), %4 requests, input %5, output %6")
                     .arg(spec.value("concurrency", 0))
                     .arg(spec.value("rate", 0.0))
                     .arg(spec.value("burstiness", 1.0))
                     .arg(spec.value("requests", 0))
                     .arg(e(spec.value("input_len", rsload::Json()).dump()),
                          e(spec.value("output_len", rsload::Json()).dump()));
    const std::string metrics = spec.value("metrics_url", std::string());
    parts << (metrics.empty() ? QStringLiteral("server metrics not scraped")
                              : QStringLiteral("server metrics from <code>%1</code>").arg(e(metrics)));
    return parts.join(QStringLiteral("; "));
}

QString summaryTable(const std::vector<LoadResults>& runs) {
    QString t =
        QStringLiteral("<table><tr><th>run</th><th>ok</th><th>failed</th><th>req/s</th><th>output tok/s</th>"
                       "<th>TTFT p50</th><th>TTFT p99</th><th>TPOT p50</th><th>TPOT p99</th><th>ITL p99</th>"
                       "<th>E2E p99</th><th>goodput req/s</th></tr>\n");
    for (const LoadResults& r : runs) {
        const rsload::Json& s = r.summary;
        QString name = r.sweepValue
                           ? QStringLiteral("%1 %2").arg(QString::fromStdString(r.sweep)).arg(*r.sweepValue)
                           : QStringLiteral("the run");
        t += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td>")
                 .arg(e(name), figure(s, "completed", 0), figure(s, "failed", 0));
        for (const char* key :
             {"request_throughput", "output_throughput", "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms",
              "p99_tpot_ms", "p99_itl_ms", "p99_e2el_ms", "request_goodput"})
            t += QStringLiteral("<td>%1</td>").arg(figure(s, key));
        t += QStringLiteral("</tr>\n");
    }
    return t + QStringLiteral(
                   "</table>\n<p class=\"note\">Latencies in ms; \u2014 where no request measured it.</p>\n");
}

SvgChart histogram(const QString& id, const QString& title, std::vector<double> values, const char* color) {
    SvgChart c;
    c.id = id;
    c.title = title;
    c.xLabel = QStringLiteral("ms");
    c.yLabel = QStringLiteral("requests");
    c.width = 430;
    c.height = 240;
    SvgSeries bars = series(SvgSeries::Kind::Bars, QString(), color);
    if (!values.empty()) {
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        const int bins = 30;
        const double width = *hi > *lo ? (*hi - *lo) / bins : 1;
        std::vector<double> counts(bins, 0);
        for (double v : values)
            counts[size_t(std::min(bins - 1, int((v - *lo) / width)))] += 1;
        for (int i = 0; i < bins; ++i)
            bars.points.emplace_back(*lo + i * width, counts[size_t(i)]);
    }
    c.series.push_back(bars);
    return c;
}

QString distributions(const LoadResults& r) {
    std::vector<double> ttft, tpot, itl;
    for (const rsload::RequestRecord& rec : r.records) {
        if (rec.warmup || !rec.ok())
            continue;
        if (rec.ttftMs)
            ttft.push_back(*rec.ttftMs);
        if (const auto t = rec.tpotMs())
            tpot.push_back(*t);
        itl.insert(itl.end(), rec.itlMs.begin(), rec.itlMs.end());
    }
    if (ttft.empty())
        return QStringLiteral("<p>No request streamed a token: there is no latency to draw.</p>\n");
    return svgChart(histogram(QStringLiteral("ttft-histogram"), QStringLiteral("TTFT"), ttft, "#1f77b4")) +
           svgChart(histogram(QStringLiteral("tpot-histogram"), QStringLiteral("TPOT"), tpot, "#d62728")) +
           svgChart(histogram(QStringLiteral("itl-histogram"),
                              QStringLiteral("ITL (every gap between chunks)"), itl, "#2ca02c"));
}

QString timeline(const LoadResults& r) {
    SvgChart c;
    c.id = QStringLiteral("request-timeline");
    c.title = QStringLiteral("Each request from its send to its end");
    c.xLabel = QStringLiteral("time (s)");
    c.yLabel = QStringLiteral("request, in order of sending");
    c.height = 360;
    SvgSeries ok = series(SvgSeries::Kind::Spans, QStringLiteral("ok"), "#1f77b4");
    SvgSeries failed = series(SvgSeries::Kind::Spans, QStringLiteral("failed"), "#d62728");
    SvgSeries first = series(SvgSeries::Kind::Points, QStringLiteral("first token"), "#ff7f0e");
    std::vector<const rsload::RequestRecord*> measured;
    for (const rsload::RequestRecord& rec : r.records)
        if (!rec.warmup)
            measured.push_back(&rec);
    const size_t stride =
        std::max<size_t>(1, (measured.size() + kMaxTimelineRequests - 1) / kMaxTimelineRequests);
    for (size_t i = 0; i < measured.size(); i += stride) {
        const rsload::RequestRecord& rec = *measured[i];
        const double end = rec.sentS + rec.e2elMs.value_or(0) / 1000;
        SvgSeries& s = rec.ok() ? ok : failed;
        s.points.emplace_back(rec.sentS, double(rec.index));
        s.spanEnds.emplace_back(std::max(end, rec.sentS + 1e-4), 0);
        if (rec.ttftMs && measured.size() <= 400)
            first.points.emplace_back(rec.sentS + *rec.ttftMs / 1000, double(rec.index));
    }
    c.series = {ok, failed};
    if (!first.points.empty()) {
        c.series.push_back(first);
        c.title += QStringLiteral(", its first token marked");
    }
    QString note = stride > 1 ? QStringLiteral("<p class=\"note\">Every %1th of the %2 requests drawn.</p>\n")
                                    .arg(stride)
                                    .arg(measured.size())
                              : QString();
    return svgChart(c) + note;
}

QString serverSection(const LoadResults& r) {
    const std::string url = r.spec.value("metrics_url", std::string());
    if (url.empty())
        return QStringLiteral("<p>The server's metrics were not scraped in this run.</p>\n");
    std::vector<const rsload::ServerSample*> read;
    QString firstError;
    for (const rsload::ServerSample& s : r.serverSamples)
        if (s.tS >= 0 && s.error.empty())
            read.push_back(&s);
        else if (firstError.isEmpty() && !s.error.empty())
            firstError = QString::fromStdString(s.error);
    if (read.empty())
        return QStringLiteral("<p>No scrape of <code>%1</code> was read: %2</p>\n")
            .arg(e(url), e(firstError.isEmpty() ? QStringLiteral("none in the measured phase") : firstError));
    SvgChart c;
    c.id = QStringLiteral("server-metrics");
    c.title = QStringLiteral("The server's view (%1)").arg(QString::fromStdString(read.front()->load.server));
    c.xLabel = QStringLiteral("time (s)");
    c.yLabel = QStringLiteral("KV-cache use (%)");
    c.y2Label = QStringLiteral("requests");
    c.yMax = 100;
    SvgSeries kv = series(SvgSeries::Kind::Line, QStringLiteral("KV-cache use (%)"), "#ff7f0e");
    SvgSeries running = series(SvgSeries::Kind::Line, QStringLiteral("running"), "#8c564b");
    SvgSeries waiting = series(SvgSeries::Kind::Line, QStringLiteral("waiting"), "#d62728");
    waiting.dashed = true;
    running.rightAxis = waiting.rightAxis = true;
    for (const rsload::ServerSample* s : read) {
        kv.points.emplace_back(s->tS, s->load.kvCacheUse ? std::optional<double>(*s->load.kvCacheUse * 100)
                                                         : std::nullopt);
        running.points.emplace_back(s->tS, s->load.running);
        waiting.points.emplace_back(s->tS, s->load.waiting);
    }
    c.series = {kv, running, waiting};
    QString t = svgChart(c);
    if (const auto m = r.summary.find("server_metrics"); m != r.summary.end() && m->is_object()) {
        const auto percent = [&](const char* key) {
            const auto v = m->find(key);
            return v != m->end() && v->is_number() ? QString::number(v->get<double>() * 100, 'f', 1)
                                                   : QStringLiteral("\u2014");
        };
        t += QStringLiteral(
                 "<p>Peak KV-cache use %1 %, mean %2 %; peak running %3, peak waiting %4; preemptions %5; "
                 "prefix-cache hit rate %6 %.</p>\n")
                 .arg(percent("peak_kv_cache_use"), percent("mean_kv_cache_use"),
                      figure(*m, "peak_running", 0), figure(*m, "peak_waiting", 0),
                      figure(*m, "preemptions", 0), percent("prefix_cache_hit_rate"));
    }
    return t;
}

// Each worker's mean GPU utilisation over time, then a row per GPU, then the workers whose GPUs were not
// read.
QString gpuSection(const LoadResults& r) {
    const std::vector<std::string> workers = savedWorkers(r.spec);
    if (workers.empty())
        return QStringLiteral(
            "<p>Not sampled in this run (<code>load --workers HOSTS</code> samples them).</p>\n");
    static const char* const palette[] = {"#17becf", "#bcbd22", "#9467bd", "#8c564b",
                                          "#e377c2", "#7f7f7f", "#2ca02c", "#1f77b4"};
    SvgChart c;
    c.id = QStringLiteral("gpu-use");
    c.title = QStringLiteral("GPU utilisation, the mean of each worker's GPUs");
    c.xLabel = QStringLiteral("time (s)");
    c.yLabel = QStringLiteral("utilisation (%)");
    c.yMax = 100;
    for (size_t i = 0; i < workers.size(); ++i) {
        SvgSeries line = series(SvgSeries::Kind::Line, QString::fromStdString(workers[i]), palette[i % 8]);
        line.dashed = i >= 8;
        for (const rsload::GpuSample& s : r.gpuSamples) {
            if (s.host != workers[i] || s.tS < 0 || !s.error.empty())
                continue;
            line.points.emplace_back(s.tS, rsload::meanUtilisation(s));
        }
        if (!line.points.empty())
            c.series.push_back(std::move(line));
    }
    const rsload::GpuUseSummary use = rsload::summarizeGpuUse(r.gpuSamples, workers);
    QString t = c.series.empty() ? QString() : svgChart(c);
    if (!use.gpus.empty()) {
        t += QStringLiteral("<table><tr><th>worker</th><th>GPU</th><th>utilisation mean / peak (%)</th>"
                            "<th>memory used peak (MiB)</th><th>power mean / peak (W)</th><th>SM clock mean "
                            "(MHz)</th></tr>\n");
        const auto known = [](const std::optional<double>& v, int decimals) {
            return v ? QString::number(*v, 'f', decimals) : QStringLiteral("\u2014");
        };
        for (const rsload::GpuUse& u : use.gpus)
            t += QStringLiteral(
                     "<tr><td>%1</td><td>%2 %3</td><td>%4 / %5</td><td>%6 of %7</td><td>%8 / %9</td>"
                     "<td>%10</td></tr>\n")
                     .arg(e(u.host))
                     .arg(u.index)
                     .arg(e(u.name), known(u.utilMean, 1), known(u.utilPeak, 0), known(u.memUsedPeakMiB, 0),
                          known(u.memTotalMiB, 0), known(u.powerMeanW, 1), known(u.powerPeakW, 1),
                          known(u.smClockMeanMHz, 0));
        t += QStringLiteral("</table>\n");
    }
    for (const auto& [host, why] : use.unread)
        t += QStringLiteral("<p>%1's GPUs were not read: %2</p>\n").arg(e(host), e(why));
    return t;
}

QString capacitySection(const rsload::Json& capacity) {
    if (!capacity.is_object())
        return {};
    QString t =
        QStringLiteral("<h2 id=\"capacity\">Capacity at %1</h2>\n<p>%2</p>\n")
            .arg(e(capacity.value("slo", std::string())), e(capacity.value("description", std::string())));
    SvgChart c;
    c.id = QStringLiteral("capacity-curve");
    c.title = QStringLiteral("Throughput against tail latency, one point a step");
    c.xLabel = QStringLiteral("throughput (requests/s)");
    c.yLabel = QStringLiteral("TTFT p99 (ms)");
    SvgSeries held = series(SvgSeries::Kind::Points, QStringLiteral("the SLO held"), "#2ca02c");
    SvgSeries broke = series(SvgSeries::Kind::Points, QStringLiteral("the SLO broke"), "#d62728");
    QString rows;
    for (const rsload::Json& step : capacity.value("steps", rsload::Json::array())) {
        const auto number = [&](const char* key) {
            return step.contains(key) && step[key].is_number()
                       ? std::optional<double>(step[key].get<double>())
                       : std::nullopt;
        };
        if (const auto x = number("request_throughput"))
            (step.value("held", false) ? held : broke).points.emplace_back(*x, number("p99_ttft_ms"));
        rows += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>\n")
                    .arg(figure(step, "value", 3),
                         step.value("repeat", false) ? QStringLiteral(" (again)") : QString(),
                         figure(step, "request_throughput"), figure(step, "p99_ttft_ms"),
                         figure(step, "p99_tpot_ms"),
                         step.value("held", false)
                             ? QStringLiteral("held")
                             : e(QStringLiteral("broke: ") +
                                 QString::fromStdString(step.value("slo_broken", std::string()))));
    }
    c.series = {held, broke};
    t += svgChart(c);
    t += QStringLiteral(
             "<table><tr><th>%1</th><th>req/s</th><th>TTFT p99</th><th>TPOT p99</th><th>SLO</th></tr>\n")
             .arg(e(capacity.value("by", std::string()))) +
         rows + QStringLiteral("</table>\n");
    return t;
}

QString failures(const std::vector<LoadResults>& runs) {
    QString t;
    for (const LoadResults& r : runs) {
        const auto f = r.summary.find("failures");
        if (f == r.summary.end() || !f->is_object() || f->empty())
            continue;
        for (const auto& [kind, info] : f->items())
            t += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>\n")
                     .arg(e(r.sweepValue ? QString::number(*r.sweepValue) : QStringLiteral("the run")),
                          e(kind),
                          info.is_object() ? figure(info, "count", 0) : figure(r.summary, "failed", 0),
                          e(info.is_object() ? info.value("example", std::string()) : info.dump()));
    }
    return t.isEmpty()
               ? QStringLiteral("<p>No request failed.</p>\n")
               : QStringLiteral(
                     "<table><tr><th>run</th><th>kind</th><th>requests</th><th>first example</th></tr>\n") +
                     t + QStringLiteral("</table>\n");
}

} // namespace

QString loadReportHtml(const std::vector<LoadResults>& runs, const rsload::Json& capacity,
                       const QString& source) {
    QString h = QStringLiteral(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n<html "
        "xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
        "<head><meta charset=\"UTF-8\"/><title>rackscope inference load run</title>\n<style>\n"
        "body{font-family:sans-serif;margin:24px;max-width:940px;color:#222}table{border-collapse:collapse;"
        "margin:8px 0}"
        "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;font-size:12px}th{background:#f4f4f4}"
        "td:first-child{text-align:left}.note{color:#666;font-size:12px}svg{display:inline-block;margin:4px "
        "0}"
        "code{font-size:12px}\n</style></head>\n<body>\n");
    if (runs.empty())
        return h + QStringLiteral("<p>No run.</p></body></html>\n");
    const LoadResults& last = runs.back();
    h += QStringLiteral(
             "<h1>Inference load run</h1>\n<p>%1</p>\n<p class=\"note\">From <code>%2</code>; %3; written %4 "
             "by rackscope.</p>\n")
             .arg(describeSpec(last.spec), e(source), e(last.summary.value("date", std::string())),
                  QDateTime::currentDateTime().toString(Qt::ISODate));
    h += QStringLiteral("<h2 id=\"summary\">Summary</h2>\n") + summaryTable(runs);
    h += capacitySection(capacity);
    const QString which = runs.size() > 1 ? QStringLiteral(" (the last step)") : QString();
    h += QStringLiteral("<h2 id=\"distributions\">Latency distributions%1</h2>\n").arg(which) +
         distributions(last);
    h += QStringLiteral("<h2 id=\"timeline\">Requests over time%1</h2>\n").arg(which) + timeline(last);
    h += QStringLiteral("<h2 id=\"server\">The server's metrics%1</h2>\n").arg(which) + serverSection(last);
    h += QStringLiteral("<h2 id=\"gpus\">The workers' GPUs%1</h2>\n").arg(which) + gpuSection(last);
    h += QStringLiteral("<h2 id=\"failures\">Failures</h2>\n") + failures(runs);
    for (const LoadResults& r : runs)
        for (const QString& p : r.problems)
            h += QStringLiteral("<p class=\"note\">%1: %2</p>\n").arg(e(r.directory), e(p));
    return h + QStringLiteral("</body>\n</html>\n");
}

QString writeLoadReport(const QString& resultsDirectory, const QString& path) {
    QString error;
    const std::optional<std::vector<LoadResults>> runs = openLoadResults(resultsDirectory, &error);
    if (!runs)
        return error;
    rsload::Json capacity;
    QFile c(resultsDirectory + QStringLiteral("/capacity.json"));
    if (c.open(QIODevice::ReadOnly) && c.size() < (16 << 20)) {
        const QByteArray bytes = c.readAll();
        capacity = rsload::Json::parse(bytes.begin(), bytes.end(), nullptr, false);
        if (capacity.is_discarded())
            capacity = rsload::Json();
    }
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
    out.write(loadReportHtml(*runs, capacity, resultsDirectory).toUtf8());
    if (!out.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
    return {};
}

} // namespace rackscope
