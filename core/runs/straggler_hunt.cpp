#include "straggler_hunt.h"

#include "run_compare.h"

namespace rackscope {

StragglerHunt::StragglerHunt(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rackscope::GroupRun>();
    qRegisterMetaType<rackscope::StragglerVerdict>();
}

StragglerHunt::~StragglerHunt() {
    cancel();
}

std::vector<std::vector<QStringList>> StragglerHunt::rounds(const HuntOptions& options) {
    std::vector<std::vector<QStringList>> out;
    if (options.schedule == HuntSchedule::Pairs) {
        for (const auto& round : roundRobinRounds(options.request.spec.hosts)) {
            out.emplace_back();
            for (const HostPair& p : round)
                out.back().push_back({p.first, p.second});
        }
    } else {
        for (const auto& level : bisectionLevels(options.request.spec.hosts))
            out.push_back(level);
    }
    return out;
}

void StragglerHunt::start(const HuntOptions& options) {
    options_ = options;
    rounds_ = rounds(options);
    round_ = 0;
    runs_.clear();
    cancelled_ = false;
    startRound();
}

void StragglerHunt::cancel() {
    cancelled_ = true;
    for (auto& a : active_)
        a->cancel();
}

void StragglerHunt::startRound() {
    active_.clear();
    finishedInRound_ = 0;
    if (cancelled_ || round_ >= rounds_.size()) {
        std::vector<PairBandwidth> pairs;
        for (const GroupRun& r : runs_)
            if (r.hosts.size() == 2 && r.busbw)
                pairs.push_back({r.hosts[0], r.hosts[1], *r.busbw});
        emit finished(findStragglers(pairs, options_.rule));
        return;
    }
    for (const QStringList& group : rounds_[round_]) {
        RunRequest request = options_.request;
        request.spec.hosts = group;
        request.label = QStringLiteral("%1 on %2")
                            .arg(collectiveName(request.spec.collective), group.join(QLatin1Char('+')));
        auto run = std::make_unique<RecordedRun>();
        RecordedRun* raw = run.get();
        const int round = int(round_);
        connect(raw, &RecordedRun::finished, this, [this, raw, group, round](const RunOutcome& o) {
            GroupRun g;
            g.round = round;
            g.hosts = group;
            g.record = o.record;
            g.findings = o.findings;
            g.error = o.failure();
            if (g.error.isEmpty())
                g.busbw = peakBusbw(raw->run()); // a run cut short measures nothing
            runs_.push_back(g);
            emit groupFinished(g);
            if (++finishedInRound_ == rounds_[round_].size()) {
                ++round_;
                QMetaObject::invokeMethod(
                    this, [this] { startRound(); }, Qt::QueuedConnection); // not from inside a run's signal
            }
        });
        active_.push_back(std::move(run));
        raw->start(request);
        emit groupStarted(round, group, raw->command());
    }
}

} // namespace rackscope
