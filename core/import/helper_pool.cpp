#include "helper_pool.h"

#include "logging.h"
#include <QFile>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rackscope {
namespace {

using Clock = std::chrono::steady_clock;

// Milliseconds left before `deadline` for poll(): -1 without one, 0 once it has passed.
int msLeft(const std::optional<Clock::time_point>& deadline) {
    if (!deadline)
        return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
    return int(std::max<qint64>(0, left.count()));
}

// Waits until fd is ready for `events`; false on a timeout (with *timedOut set) or an error.
bool waitFor(int fd, short events, const std::optional<Clock::time_point>& deadline, bool* timedOut) {
    for (;;) {
        pollfd p{fd, events, 0};
        const int n = ::poll(&p, 1, msLeft(deadline));
        if (n > 0)
            return true;
        if (n == 0) {
            if (timedOut)
                *timedOut = true;
            return false;
        }
        if (errno != EINTR)
            return false;
    }
}

std::optional<Clock::time_point> deadlineOf(FrameTimeout timeout) {
    if (!timeout)
        return std::nullopt;
    return Clock::now() + *timeout;
}

bool writeAll(int fd, const char* data, qint64 size, const std::optional<Clock::time_point>& deadline,
              bool* timedOut) {
    while (size > 0) {
        if (!waitFor(fd, POLLOUT, deadline, timedOut))
            return false;
        // send() so that a helper that has gone away is an error here, not SIGPIPE for the whole
        // program; a pipe is no socket, and is written plainly.
        ssize_t n = ::send(fd, data, size_t(size), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == ENOTSOCK)
            n = ::write(fd, data, size_t(size));
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= n;
    }
    return true;
}

bool readAll(int fd, char* data, qint64 size, const std::optional<Clock::time_point>& deadline,
             bool* timedOut) {
    while (size > 0) {
        if (!waitFor(fd, POLLIN, deadline, timedOut))
            return false;
        const ssize_t n = ::read(fd, data, size_t(size));
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= n;
    }
    return true;
}

} // namespace

bool writeFrame(int fd, const QByteArray& bytes, FrameTimeout timeout, bool* timedOut) {
    if (bytes.size() > kMaxFrameBytes)
        return false;
    const quint32 size = quint32(bytes.size());
    const unsigned char header[4] = {uchar(size >> 24), uchar(size >> 16), uchar(size >> 8), uchar(size)};
    const auto deadline = deadlineOf(timeout);
    return writeAll(fd, reinterpret_cast<const char*>(header), 4, deadline, timedOut) &&
           writeAll(fd, bytes.constData(), bytes.size(), deadline, timedOut);
}

bool readFrame(int fd, QByteArray* bytes, FrameTimeout timeout, bool* timedOut) {
    const auto deadline = deadlineOf(timeout);
    unsigned char header[4];
    if (!readAll(fd, reinterpret_cast<char*>(header), 4, deadline, timedOut))
        return false;
    const qint64 size = qint64(header[0]) << 24 | header[1] << 16 | header[2] << 8 | header[3];
    if (size > kMaxFrameBytes)
        return false;
    bytes->resize(size);
    return readAll(fd, bytes->data(), size, deadline, timedOut);
}

HelperPool::HelperPool(QString program, QStringList arguments)
    : program_(std::move(program)), arguments_(std::move(arguments)) {}

HelperPool::~HelperPool() {
    // At the program's end nobody need wait for them: each reads the end of its input and exits.
    for (const Helper& h : idle_)
        ::close(h.socket);
}

void HelperPool::end(const Helper& h) {
    ::close(h.socket);
    int status = 0;
    while (::waitpid(pid_t(h.pid), &status, 0) < 0 && errno == EINTR) {
    }
}

std::optional<HelperPool::Helper> HelperPool::take(QString* error) {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            const Helper h = idle_.back();
            idle_.pop_back();
            return h;
        }
    }
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return std::nullopt;
    }
    // The helper's stdin and stdout are its end of the socket; its stderr is ours, for what the
    // library it runs says. Only the duplicates survive exec: both ends are close-on-exec.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 0);
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 1);
    std::vector<QByteArray> args{QFile::encodeName(program_)};
    for (const QString& a : arguments_)
        args.push_back(a.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int failed = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(sockets[1]);
    if (failed != 0) {
        ::close(sockets[0]);
        *error = QStringLiteral("%1: %2").arg(program_, QString::fromLocal8Bit(std::strerror(failed)));
        return std::nullopt;
    }
    qCDebug(lcImport) << "started helper" << program_ << "as process" << pid;
    return Helper{pid, sockets[0]};
}

void HelperPool::giveBack(const Helper& h) {
    {
        std::lock_guard lock(mutex_);
        // As many idle helpers as requests have ever run at once, up to a bound.
        if (idle_.size() < 16) {
            idle_.push_back(h);
            return;
        }
    }
    end(h);
}

HelperAnswer HelperPool::ask(const QByteArray& request, const QString& what,
                             std::chrono::milliseconds timeout) {
    QString error;
    const std::optional<Helper> h = take(&error);
    if (!h)
        return {std::nullopt, QStringLiteral("%1 could not be started (%2)").arg(what, error)};
    const auto deadline = Clock::now() + timeout;
    const auto left = [&] {
        return std::max(std::chrono::milliseconds(0),
                        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    };
    bool timedOut = false;
    QByteArray reply;
    if (writeFrame(h->socket, request, left(), &timedOut) &&
        readFrame(h->socket, &reply, left(), &timedOut)) {
        giveBack(*h);
        return {std::move(reply), {}};
    }
    if (timedOut)
        ::kill(pid_t(h->pid), SIGKILL);
    ::close(h->socket);
    int status = 0;
    while (::waitpid(pid_t(h->pid), &status, 0) < 0 && errno == EINTR) {
    }
    qCDebug(lcImport) << "helper" << h->pid << "ended; status" << status << "timed out" << timedOut;
    if (timedOut)
        return {std::nullopt,
                QStringLiteral("%1 did not finish in %2 s").arg(what).arg(double(timeout.count()) / 1000.0)};
    if (WIFSIGNALED(status))
        return {std::nullopt, QStringLiteral("%1 crashed on this input (%2): the file is damaged in a way "
                                             "the library does not check")
                                  .arg(what, QString::fromLocal8Bit(::strsignal(WTERMSIG(status))))};
    return {std::nullopt, QStringLiteral("%1 ended without a result (exit status %2)")
                              .arg(what)
                              .arg(WIFEXITED(status) ? WEXITSTATUS(status) : -1)};
}

} // namespace rackscope
