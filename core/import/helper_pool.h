#pragma once
// Long-lived helper processes that each answer one request at a time: a length-prefixed frame in on
// their stdin, one out on their stdout (the same socket). A crash or hang inside a helper (libhwloc
// on a damaged file) becomes an error message, and the next request starts a fresh helper.
// Helpers are started with posix_spawn, never fork(): a process full of threads cannot safely fork
// and go on running its own code (a lock held by another thread stays held in the child for ever).
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <chrono>
#include <mutex>
#include <optional>
#include <vector>

namespace rackscope {

// One frame on a socket or pipe: a 4-byte big-endian length, then that many bytes. Each returns
// false on an error, at the end of input, on a frame over kMaxFrameBytes, or once `timeout` has
// gone by (then *timedOut is set, when given); with no timeout they wait as long as it takes.
using FrameTimeout = std::optional<std::chrono::milliseconds>;
bool writeFrame(int fd, const QByteArray& bytes, FrameTimeout timeout = std::nullopt,
                bool* timedOut = nullptr);
bool readFrame(int fd, QByteArray* bytes, FrameTimeout timeout = std::nullopt, bool* timedOut = nullptr);
inline constexpr qint64 kMaxFrameBytes = qint64(1) << 30;

struct HelperAnswer {
    std::optional<QByteArray> bytes;
    QString error; // why there is no answer, naming the helper as `what`
};

class HelperPool {
public:
    HelperPool(QString program, QStringList arguments = {});
    ~HelperPool(); // idle helpers read the end of their input and exit, unwaited for
    HelperPool(const HelperPool&) = delete;
    HelperPool& operator=(const HelperPool&) = delete;

    // Safe from any thread; concurrent requests go to helpers of their own.
    HelperAnswer ask(const QByteArray& request, const QString& what, std::chrono::milliseconds timeout);
    const QString& program() const { return program_; }

private:
    struct Helper {
        qint64 pid = -1;
        int socket = -1;
    };
    std::optional<Helper> take(QString* error);
    void giveBack(const Helper& h);
    static void end(const Helper& h); // closes its socket and waits for it to exit

    QString program_;
    QStringList arguments_;
    std::mutex mutex_;
    std::vector<Helper> idle_;
};

} // namespace rackscope
