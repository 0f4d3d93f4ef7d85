#include "ras_watch.h"

#include <QElapsedTimer>

namespace rackscope {

RasWatch::RasWatch(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rackscope::RasSnapshot>();
}

RasWatch::~RasWatch() {
    stop();
}

void RasWatch::start(RasPortOpener open, const QString& where, const NcclRasQuery& query, int intervalMs) {
    stop();
    stop_ = false;
    thread_ = std::thread(
        [this, open = std::move(open), where, query, intervalMs] { loop(open, where, query, intervalMs); });
}

void RasWatch::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

void RasWatch::loop(RasPortOpener open, QString where, NcclRasQuery query, int intervalMs) {
    const StreamOpener opener = [this, &open](QString* error) { return open(&stop_, error); };
    while (!stop_) {
        const auto next = std::chrono::steady_clock::now() + std::chrono::milliseconds(intervalMs);
        RasSnapshot s;
        s.at = QDateTime::currentDateTime();
        QElapsedTimer clock;
        clock.start();
        s.answer = queryNcclRas(opener, where, query);
        s.seconds = double(clock.nsecsElapsed()) / 1e9;
        if (stop_)
            break;
        QMetaObject::invokeMethod(
            this,
            [this, s] {
                timeline_.push_back(s);
                if (timeline_.size() > kMaxTimeline)
                    timeline_.erase(timeline_.begin());
                emit snapshot(s);
            },
            Qt::QueuedConnection);
        std::unique_lock lock(mutex_);
        wake_.wait_until(lock, next, [this] { return stop_.load(); });
    }
}

} // namespace rackscope
