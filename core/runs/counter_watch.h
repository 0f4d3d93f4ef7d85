#pragma once
// NIC counters around a run: every host's agent sampled just before and
// just after (the agent protocol's `sample`), and what changed in between.
// A link with rising symbol errors, retransmits, PFC pauses or CNPs stands
// out beside the run's bandwidth.
#include "analysis/finding.h"
#include "transport/fleet.h"

#include <QJsonObject>
#include <memory>

namespace rackscope {

enum class CounterKind { Error, Congestion, Traffic, Other };
CounterKind counterKind(const QString& counter); // by the kernel's name: "ib/mlx5_0/1/symbol_error" -> Error
QString counterKindName(CounterKind kind);       // "error", "congestion", "traffic", "other"

struct CounterChange {
    QString host, counter;
    std::optional<qint64> delta; // empty when it cannot be known (the counter went back)
    QString note;                // why it is unknown or a lower bound
    CounterKind kind = CounterKind::Other;
};

// From one `sample` event's data on each side of a run; counters only one side has are left out.
std::vector<CounterChange> counterChanges(const QString& host, const QJsonObject& before,
                                          const QJsonObject& after);

// Error counters that rose: warnings; congestion signals that rose: information.
std::vector<Finding> counterFindings(const std::vector<CounterChange>& changes);

namespace codes {
inline constexpr char kRunCounterErrors[] = "run-counter-errors";
inline constexpr char kRunCounterCongestion[] = "run-counter-congestion";
} // namespace codes

class CounterWatch : public QObject {
    Q_OBJECT
public:
    explicit CounterWatch(FleetOptions options, QObject* parent = nullptr);
    ~CounterWatch() override;
    void sample(const QStringList& hosts,
                const QString& when); // "before" or "after"; `sampled` when every host answered

signals:
    void sampled(const QString& when,
                 const std::vector<rackscope::HostResult>& results); // in the order of `hosts`

private:
    std::unique_ptr<Fleet> fleet_;
};

} // namespace rackscope

Q_DECLARE_METATYPE(std::vector<rackscope::HostResult>)
