#include "straggler_hunt.h"

#include "run_compare.h"
#include "run_record.h"
#include "transport/shell_quote.h"

namespace rackscope {

struct StragglerHunt::Active {
    GroupRun run;
    NcclRunner runner;
    RunRecorder recorder;
};

StragglerHunt::StragglerHunt(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rackscope::GroupRun>();
    qRegisterMetaType<rackscope::StragglerVerdict>();
}

StragglerHunt::~StragglerHunt() { cancel(); }

std::vector<std::vector<QStringList>> StragglerHunt::rounds(const HuntOptions& options) {
    std::vector<std::vector<QStringList>> out;
    if (options.schedule == HuntSchedule::Pairs) {
        for (const auto& round : roundRobinRounds(options.spec.hosts)) {
            out.emplace_back();
            for (const HostPair& p : round) out.back().push_back({p.first, p.second});
        }
    } else {
        for (const auto& level : bisectionLevels(options.spec.hosts)) out.push_back(level);
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
    for (auto& a : active_) a->runner.cancel();
}

void StragglerHunt::startRound() {
    active_.clear();
    finishedInRound_ = 0;
    if (cancelled_ || round_ >= rounds_.size()) {
        std::vector<PairBandwidth> pairs;
        for (const GroupRun& r : runs_)
            if (r.hosts.size() == 2 && r.busbw) pairs.push_back({r.hosts[0], r.hosts[1], *r.busbw});
        emit finished(findStragglers(pairs, options_.rule));
        return;
    }
    for (const QStringList& group : rounds_[round_]) {
        auto a = std::make_unique<Active>();
        a->run.round = int(round_);
        a->run.hosts = group;
        NcclRunSpec spec = options_.spec;
        spec.hosts = group;
        const QStringList argv = launchArgv(spec);
        const QString command = shellCommand(argv).line;
        if (!options_.resultsDirectory.isEmpty()) {
            RunMeta meta;
            meta.label = QStringLiteral("%1 on %2").arg(collectiveName(spec.collective), group.join(QLatin1Char('+')));
            meta.command = command;
            meta.argv = argv;
            meta.hosts = group;
            meta.environment = spec.environment;
            if (options_.launchHost) meta.launchHost = options_.launchHost->alias;
            if (const QString e = a->recorder.open(options_.resultsDirectory, meta); !e.isEmpty()) {
                a->run.error = e + QStringLiteral(" (not run: it could not be saved)");
                runs_.push_back(a->run);
                emit groupFinished(a->run);
                ++finishedInRound_;
                continue;
            }
            a->run.record = a->recorder.path();
        }
        Active* raw = a.get();
        connect(&raw->runner, &NcclRunner::outputLine, this, [raw](const QString& l) { raw->recorder.line(l); });
        connect(&raw->runner, &NcclRunner::row, this, [raw](const NcclTestsRow& r) { raw->recorder.row(r); });
        connect(&raw->runner, &NcclRunner::finished, this, [this, raw](int status, const QString& error) {
            raw->recorder.finish(status, error);
            raw->run.busbw = peakBusbw(raw->runner.run());
            if (!error.isEmpty()) raw->run.error = error;
            else if (status != 0) raw->run.error = QStringLiteral("exit status %1").arg(status);
            if (!raw->run.error.isEmpty()) raw->run.busbw.reset(); // a run cut short measures nothing
            runs_.push_back(raw->run);
            emit groupFinished(raw->run);
            if (++finishedInRound_ == rounds_[round_].size()) nextRound();
        });
        emit groupStarted(int(round_), group, command);
        active_.push_back(std::move(a));
        if (options_.launchHost) raw->runner.startRemote(*options_.launchHost, options_.ssh, argv, options_.timeoutMs);
        else raw->runner.startLocal(argv);
    }
    if (finishedInRound_ == rounds_[round_].size()) nextRound(); // nothing in this round could start
}

void StragglerHunt::nextRound() {
    ++round_;
    QMetaObject::invokeMethod(this, [this] { startRound(); }, Qt::QueuedConnection); // not from inside a runner's signal
}

} // namespace rackscope
