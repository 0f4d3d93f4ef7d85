#pragma once
// Watching a running job through NCCL's RAS: the same question every few seconds on a thread of its own,
// each answer handed to the owner's thread as it comes. Stopping ends a question in flight within a fraction
// of a second.
#include "runs/nccl_ras_client.h"
#include "transport/fleet.h"

#include <QDateTime>
#include <QObject>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rackscope {

struct RasSnapshot {
    QDateTime at;       // when the question was asked
    double seconds = 0; // how long the answer took
    NcclRasAnswer answer;
};

// Opens a stream to the RAS port, giving up when `cancel` is set.
using RasPortOpener =
    std::function<std::unique_ptr<ByteStream>(const std::atomic<bool>* cancel, QString* error)>;

// Whether `node` names the machine rackscope runs on (localhost, its loopback addresses, its host name).
bool isThisMachine(const QString& node);
// The RAS port on `node`: directly on this machine (within connectTimeoutMs), else through the fleet's SSH
// connection to it (the fleet must outlive the watch).
RasPortOpener rasPortOpener(Fleet* fleet, const QString& node, quint16 port, int connectTimeoutMs);

class RasWatch : public QObject {
    Q_OBJECT
public:
    explicit RasWatch(QObject* parent = nullptr);
    ~RasWatch() override; // stops and waits

    // Asks now, then every intervalMs (from one question's start to the next; at once when one took longer).
    void start(RasPortOpener open, const QString& where, const NcclRasQuery& query, int intervalMs);
    void stop();
    bool running() const { return thread_.joinable(); }

signals:
    void snapshot(const rackscope::RasSnapshot& s);

private:
    void loop(RasPortOpener open, QString where, NcclRasQuery query, int intervalMs);
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::atomic<bool> stop_{false};
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::RasSnapshot)
