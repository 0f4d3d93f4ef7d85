#pragma once
// "Find the slow one": the chosen collective run on small groups of a host
// list, round by round (disjoint pairs, every pair once; or bisection
// levels), each round's groups at once since they share no host. Every run
// is saved, with counters where asked; at the end the pairs' bus
// bandwidths go to findStragglers.
#include "recorded_run.h"
#include "straggler.h"

#include <QObject>
#include <memory>

namespace rackscope {

enum class HuntSchedule { Pairs, Bisection };

struct HuntOptions {
    RunRequest request; // its spec's hosts are the hosts to search
    HuntSchedule schedule = HuntSchedule::Pairs;
    StragglerRule rule;
};

struct GroupRun {
    int round = 0;
    QStringList hosts;
    std::optional<double> busbw;   // out-of-place at the largest size, GB/s; empty when the run failed
    QString error, record;         // record: the saved run's path
    std::vector<Finding> findings; // counters that rose, NCCL's transport
};

class StragglerHunt : public QObject {
    Q_OBJECT
public:
    explicit StragglerHunt(QObject* parent = nullptr);
    ~StragglerHunt() override;
    // The rounds the options lead to, as host groups; what start() will run.
    static std::vector<std::vector<QStringList>> rounds(const HuntOptions& options);
    void start(const HuntOptions& options);
    void cancel();
    const std::vector<GroupRun>& runs() const { return runs_; }

signals:
    void groupStarted(int round, const QStringList& hosts, const QString& command);
    void groupFinished(const rackscope::GroupRun& run);
    void finished(const rackscope::StragglerVerdict& verdict);

private:
    void startRound();
    HuntOptions options_;
    std::vector<std::vector<QStringList>> rounds_;
    size_t round_ = 0, finishedInRound_ = 0;
    std::vector<std::unique_ptr<RecordedRun>> active_;
    std::vector<GroupRun> runs_;
    bool cancelled_ = false;
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::GroupRun)
Q_DECLARE_METATYPE(rackscope::StragglerVerdict)
