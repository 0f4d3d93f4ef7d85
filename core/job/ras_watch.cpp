#include "ras_watch.h"

#include "transport/tcp_stream.h"

#include <QElapsedTimer>
#include <QSysInfo>

namespace rackscope {

bool isThisMachine(const QString& node) {
    return node == QLatin1String("localhost") || node == QLatin1String("127.0.0.1") ||
           node == QLatin1String("::1") || node == QSysInfo::machineHostName();
}

RasPortOpener rasPortOpener(Fleet* fleet, const QString& node, quint16 port, int connectTimeoutMs) {
    const bool direct = isThisMachine(node);
    return [fleet, direct, node, port, connectTimeoutMs](const std::atomic<bool>* cancel, QString* error) {
        std::unique_ptr<ByteStream> s = direct ? connectTcp(node, port, connectTimeoutMs, error)
                                               : fleet->openPort(node, port, cancel, error);
        if (s)
            s->setCancel(cancel);
        return s;
    };
}

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
            this, [this, s] { emit snapshot(s); }, Qt::QueuedConnection);
        std::unique_lock lock(mutex_);
        wake_.wait_until(lock, next, [this] { return stop_.load(); });
    }
}

} // namespace rackscope
