#include "recorded_run.h"

#include "run_findings.h"
#include "transport/shell_quote.h"

namespace rackscope {

RecordedRun::RecordedRun(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rackscope::RunOutcome>();
    connect(&runner_, &NcclRunner::outputLine, this, [this](const QString& l) {
        recorder_.line(l);
        emit outputLine(l);
    });
    connect(&runner_, &NcclRunner::row, this, [this](const NcclTestsRow& r) {
        recorder_.row(r);
        emit row(r);
    });
    connect(&runner_, &NcclRunner::finished, this, [this](int status, const QString& error) {
        outcome_.exitStatus = status;
        outcome_.error = error;
        if (watch_ && !cancelled_) {
            emit stage(QStringLiteral("sampling counters after the run"));
            watch_->sample(request_.spec.hosts, QStringLiteral("after"));
        } else {
            done();
        }
    });
}

RecordedRun::~RecordedRun() {
    cancel();
}

void RecordedRun::cancel() {
    cancelled_ = true;
    runner_.cancel();
}

void RecordedRun::start(const RunRequest& request) {
    request_ = request;
    argv_ = launchArgv(request.spec);
    command_ = shellCommand(argv_).line;
    label_ = request.label.isEmpty() ? QStringLiteral("%1 on %2")
                                           .arg(collectiveName(request.spec.collective),
                                                request.spec.hosts.join(QLatin1Char(',')))
                                     : request.label;
    if (!request.resultsDirectory.isEmpty()) {
        RunMeta meta;
        meta.label = label_;
        meta.command = command_;
        meta.argv = argv_;
        meta.hosts = request.spec.hosts;
        meta.environment = request.spec.environment;
        if (request.launchHost)
            meta.launchHost = request.launchHost->alias;
        if (const QString e = recorder_.open(request.resultsDirectory, meta); !e.isEmpty()) {
            outcome_.error = e + QStringLiteral(" (not run: it could not be saved)");
            QMetaObject::invokeMethod(
                this, [this] { emit finished(outcome_); }, Qt::QueuedConnection);
            return;
        }
        outcome_.record = recorder_.path();
    }
    if (request.counters) {
        watch_ = std::make_unique<CounterWatch>(*request.counters);
        connect(watch_.get(), &CounterWatch::sampled, this,
                [this](const QString& when, const std::vector<HostResult>& results) {
                    takeCounters(when, results);
                    if (when == QLatin1String("before"))
                        launch();
                    else
                        done();
                });
        emit stage(QStringLiteral("sampling counters before the run"));
        watch_->sample(request.spec.hosts, QStringLiteral("before"));
        return;
    }
    launch();
}

void RecordedRun::takeCounters(const QString& when, const std::vector<HostResult>& results) {
    for (const HostResult& r : results) {
        if (r.error || r.events.empty()) {
            const QString why = r.error ? stageName(r.error->stage) + QStringLiteral(": ") + r.error->message
                                        : QStringLiteral("the agent sent no sample");
            outcome_.counterErrors << QStringLiteral("%1 (%2): %3").arg(r.host, when, why);
            continue;
        }
        recorder_.counters(r.host, when, r.events.front());
        if (when == QLatin1String("before"))
            before_[r.host] = r.events.front();
        else if (before_.count(r.host))
            for (CounterChange& c : counterChanges(r.host, before_[r.host], r.events.front()))
                outcome_.counterChanges.push_back(std::move(c));
    }
}

void RecordedRun::launch() {
    if (cancelled_) {
        outcome_.error = QStringLiteral("cancelled");
        return done();
    }
    emit stage(QStringLiteral("running"));
    if (request_.launchHost)
        runner_.startRemote(*request_.launchHost, request_.ssh, argv_, request_.timeoutMs);
    else
        runner_.startLocal(argv_);
}

void RecordedRun::done() {
    outcome_.findings =
        runFindings(label_,
                    cancelled_ ? std::nullopt // stopped by its starter: no verdict on its end
                               : std::optional(RunEnding{outcome_.exitStatus, outcome_.error}),
                    runner_.run(), outcome_.counterChanges, request_.topologies);
    if (recorder_.isOpen())
        recorder_.finish(outcome_.exitStatus, outcome_.error);
    emit finished(outcome_);
}

} // namespace rackscope
