#include "inference_panel.h"

#include "report/load_report.h"

#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QVBoxLayout>
#include <algorithm>

namespace rackscope::gui {

InferencePanel::InferencePanel(QWidget* parent)
    : QWidget(parent), chart_(new LoadChart(this)), runner_(new LoadRunner(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart_);
    connect(runner_, &LoadRunner::requestFinished, this,
            [this](const rsload::RequestRecord& r) { chart_->timeline().add(r); });
    connect(
        runner_, &LoadRunner::progress, this,
        [this](const QString& client, double t, qint64 sent, qint64 done, qint64 failed, qint64 inFlight) {
            chart_->timeline().progress(client.toStdString(), t, inFlight);
            chart_->setStatus(tr("%1 s: %2 sent, %3 done, %4 failed, %5 in flight")
                                  .arg(t, 0, 'f', 1)
                                  .arg(sent)
                                  .arg(done)
                                  .arg(failed)
                                  .arg(inFlight));
        });
    connect(runner_, &LoadRunner::serverSampled, this,
            [this](const rsload::ServerSample& s) { chart_->timeline().serverSample(s); });
    connect(runner_, &LoadRunner::gpuSampled, this,
            [this](const rsload::GpuSample& s) { chart_->timeline().gpuSample(s); });
    connect(runner_, &LoadRunner::clientFailed, this, &InferencePanel::log);
    connect(runner_, &LoadRunner::stepFinished, this, &InferencePanel::onStepFinished);
    connect(runner_, &LoadRunner::finished, this, [this](bool ok, const QString& error) {
        lastRun_ = runner_->request().resultsDirectory;
        if (const CapacitySearch* search = runner_->capacitySearch()) {
            const QString found =
                tr("Capacity at %1: %2")
                    .arg(QString::fromStdString(rsload::formatSlos(runner_->request().slos)),
                         capacityText(*search));
            chart_->setStatus(found);
            emit log({}, found);
        }
        emit log({}, ok ? tr("inference load run finished") : tr("inference load run ended: %1").arg(error));
    });
}

void InferencePanel::retranslate() {
    chart_->retranslate();
}

bool InferencePanel::start(LoadRequest request) {
    if (runner_->isRunning()) {
        QMessageBox::information(this, tr("rackscope"), tr("An inference load run is already running."));
        return false;
    }
    chart_->timeline().clear();
    emit log({},
             tr("inference load run against %1 (%2) from %3")
                 .arg(QString::fromStdString(request.spec.url), QString::fromStdString(request.spec.model),
                      request.hosts.isEmpty() ? tr("this machine") : request.hosts.join(QLatin1Char(','))));
    runner_->start(std::move(request));
    return true;
}

// What a capacity search found, in the window's language (CapacitySearch::describe() words it for the CLI).
QString InferencePanel::capacityText(const CapacitySearch& s) const {
    const bool rate = s.by() == CapacitySearch::By::Rate;
    const auto value = [&](double v) {
        return rate ? QString::number(v, 'g', 3) : QString::number(v, 'f', 0);
    };
    const QString unit = rate ? tr("requests/s") : tr("requests in flight");
    if (!s.capacity())
        return s.brokenAbove() ? tr("the SLO broke at every value tried") : tr("no step ran");
    if (!s.brokenAbove())
        return tr("at least %1 %2 (the SLO held at every value tried)").arg(value(*s.capacity()), unit);
    const bool repeated = !s.steps().empty() && s.steps().back().repeat && s.steps().back().held;
    return (repeated ? tr("about %1 %2 (held at %1, broke at %3; held again when repeated)")
                     : tr("about %1 %2 (held at %1, broke at %3; not repeated)"))
        .arg(value(*s.capacity()), unit, value(*s.brokenAbove()));
}

// What the server's /metrics said, for the status line: its KV-cache and queue peaks, or why there were none.
QString InferencePanel::serverStatus(const rsload::ServerMetricsSummary& m) const {
    if (m.scrapes == m.failedScrapes)
        return tr("; no server metrics: %1")
            .arg(m.firstError.empty() ? tr("no scrape in the measured phase")
                                      : QString::fromStdString(m.firstError));
    const auto shown = [](std::optional<double> v, double scale) {
        return v ? QString::number(*v * scale, 'f', 0) : QStringLiteral("—");
    };
    return tr("; server KV-cache peak %1 %, mean %2 %; queue peak %3")
        .arg(shown(m.kvCachePeak, 100), shown(m.kvCacheMean, 100), shown(m.waitingPeak, 1));
}

// What the workers' GPUs did, for the status line: the mean and peak utilisation over their GPUs, and the
// workers that could not be read, with why.
QString InferencePanel::gpuStatus(const rsload::GpuUseSummary& g) const {
    double sum = 0, peak = 0;
    int n = 0;
    for (const rsload::GpuUse& u : g.gpus)
        if (u.utilMean) {
            sum += *u.utilMean;
            peak = std::max(peak, u.utilPeak.value_or(0));
            ++n;
        }
    QString t = n ? tr("; %n GPU(s) of the workers at %1 % mean, %2 % peak utilisation", "", n)
                        .arg(sum / n, 0, 'f', 0)
                        .arg(peak, 0, 'f', 0)
                  : QString();
    for (const auto& [host, why] : g.unread)
        t += tr("; %1's GPUs not read: %2").arg(QString::fromStdString(host), QString::fromStdString(why));
    return t;
}

void InferencePanel::onStepFinished(const LoadStepResult& r) {
    chart_->timeline().addStep(r.value, r.summary);
    const rsload::LoadSummary& s = r.summary;
    // No request measured: its latencies are unknown, not 0; a failure says what it was.
    const auto ms = [&](const char* metric) {
        return s.metrics.at(metric).count ? tr("%1 ms").arg(s.metrics.at(metric).median, 0, 'f', 2)
                                          : QStringLiteral("—");
    };
    QString status = tr("%1 ok, %2 failed, %3 req/s, TTFT p50 %4, TPOT p50 %5")
                         .arg(s.completed)
                         .arg(s.failed)
                         .arg(s.requestThroughput, 0, 'f', 2)
                         .arg(ms("ttft"), ms("tpot"));
    if (s.failed)
        status += tr("; failed: %1").arg(QString::fromStdString(rsload::failureSummary(s)));
    if (r.serverMetrics)
        status += serverStatus(*r.serverMetrics);
    if (r.gpuUse)
        status += gpuStatus(*r.gpuUse);
    if (!r.directory.isEmpty())
        status += tr("; saved in %1").arg(r.directory);
    chart_->setStatus(status);
    emit log({}, tr("inference load step %1 ended: %2 requests ok, %3 failed")
                     .arg(r.step)
                     .arg(s.completed)
                     .arg(s.failed));
    QString ignored;
    if (r.directory.isEmpty())
        return;
    if (auto saved = openLoadResults(r.directory, &ignored))
        compare(std::move(*saved)); // beside what was opened before
}

void InferencePanel::compare(std::vector<LoadResults> runs) {
    for (LoadResults& one : runs)
        compared_.push_back(std::move(one));
    chart_->setComparison(loadComparison(compared_));
}

bool InferencePanel::openResults(const QString& directory) {
    QString error;
    std::optional<std::vector<LoadResults>> runs = openLoadResults(directory, &error);
    if (!runs) {
        QMessageBox::warning(this, tr("rackscope"), tr("Cannot open the inference load run: %1").arg(error));
        return false;
    }
    showSaved(directory, std::move(*runs));
    return true;
}

void InferencePanel::showSavedRuns(const std::vector<SavedLoadRun>& runs) {
    for (const SavedLoadRun& r : runs)
        if (!shown_.contains(r.location))
            showSaved(r.location, r.steps);
}

void InferencePanel::showSaved(const QString& directory, std::vector<LoadResults> runs) {
    shown_ << directory;
    lastRun_ = directory;
    chart_->timeline().clear();
    for (const LoadResults& r : runs) {
        for (const QString& p : r.problems)
            emit log({}, QStringLiteral("%1: %2").arg(r.directory, p));
        if (runs.size() == 1) {
            chart_->timeline().replay(r.records);
            for (const rsload::ServerSample& sample : r.serverSamples)
                chart_->timeline().serverSample(sample);
            for (const rsload::GpuSample& sample : r.gpuSamples)
                chart_->timeline().gpuSample(sample);
        }
        if (r.sweepValue)
            chart_->timeline().addStep(*r.sweepValue, rsload::summarize(r.records, {}, {50, 90, 95, 99}));
    }
    const rsload::Json& s = runs.back().summary;
    QString status = tr("Saved run %1: %2 ok, %3 failed, %4 req/s")
                         .arg(QDir(directory).dirName())
                         .arg(s.value("completed", 0))
                         .arg(s.value("failed", 0))
                         .arg(s.value("request_throughput", 0.0), 0, 'f', 2);
    if (const rsload::LoadSummary last = rsload::summarize(runs.back().records, {}, {}); last.failed)
        status += tr("; failed: %1").arg(QString::fromStdString(rsload::failureSummary(last)));
    chart_->setStatus(status);
    compare(std::move(runs));
    emit log({}, tr("opened the inference load run %1").arg(directory));
}

void InferencePanel::clearComparison() {
    compared_.clear();
    chart_->setComparison({});
}

bool InferencePanel::exportCsv(const QString& path) {
    std::vector<rsload::RequestRecord> all;
    for (const LoadResults& r : compared_)
        all.insert(all.end(), r.records.begin(), r.records.end());
    QFile f(path);
    const QByteArray csv = loadRecordsCsv(all).toUtf8();
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(csv) != csv.size()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not write %1: %2").arg(path, f.errorString()));
        return false;
    }
    emit log({}, tr("wrote %1 requests to %2").arg(all.size()).arg(path));
    return true;
}

bool InferencePanel::exportReport(const QString& path) {
    const QString error = lastRun_.isEmpty() ? tr("no inference load run was saved or opened yet")
                                             : writeLoadReport(lastRun_, path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Could not write the report: %1").arg(error));
        return false;
    }
    emit log({}, tr("wrote the report of %1 to %2").arg(lastRun_, path));
    return true;
}

} // namespace rackscope::gui
