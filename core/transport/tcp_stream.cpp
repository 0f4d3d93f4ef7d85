#include "tcp_stream.h"

#include <QDeadlineTimer>
#include <QStringList>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rackscope {
namespace {

class TcpStream final : public ByteStream {
public:
    explicit TcpStream(int fd) : fd_(fd) {}
    ~TcpStream() override { ::close(fd_); }
    bool write(const QByteArray& data) override {
        for (qsizetype done = 0; done < data.size();) {
            pollfd p{fd_, POLLOUT, 0};
            if (::poll(&p, 1, 5000) <= 0)
                return false; // a peer that reads nothing for 5 s is not served
            const ssize_t n = ::send(fd_, data.constData() + done, size_t(data.size() - done), MSG_NOSIGNAL);
            if (n < 0 && errno != EINTR && errno != EAGAIN)
                return false;
            done += std::max<ssize_t>(n, 0);
        }
        return true;
    }

protected:
    Got receive(QByteArray* buffer, int waitMs) override {
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, waitMs);
        if (ready < 0)
            return errno == EINTR ? Got::Nothing : Got::Failed;
        if (ready == 0)
            return Got::Nothing;
        char buf[65536];
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n > 0) {
            buffer->append(buf, n);
            return Got::Data;
        }
        if (n == 0)
            return Got::End;
        return errno == EINTR || errno == EAGAIN ? Got::Nothing : Got::Failed;
    }

private:
    int fd_;
};

// One address within the deadline: the socket, or -1 and *why.
int connectOne(const addrinfo& a, const QDeadlineTimer& deadline, QString* why) {
    const int fd = ::socket(a.ai_family, a.ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a.ai_protocol);
    if (fd < 0) {
        *why = QString::fromLocal8Bit(std::strerror(errno));
        return -1;
    }
    if (::connect(fd, a.ai_addr, a.ai_addrlen) != 0 && errno != EINPROGRESS) {
        *why = QString::fromLocal8Bit(std::strerror(errno));
        ::close(fd);
        return -1;
    }
    pollfd p{fd, POLLOUT, 0};
    int ready;
    while ((ready = ::poll(&p, 1, int(std::max<qint64>(deadline.remainingTime(), 0)))) < 0 &&
           errno == EINTR) {
    }
    int err = 0;
    socklen_t len = sizeof err;
    if (ready <= 0)
        err = ETIMEDOUT;
    else if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        err = errno;
    if (err != 0) {
        *why = QString::fromLocal8Bit(std::strerror(err));
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

std::unique_ptr<ByteStream> connectTcp(const QString& host, quint16 port, int timeoutMs, QString* error) {
    const QDeadlineTimer deadline(timeoutMs);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const QByteArray service = QByteArray::number(port);
    if (const int rc = ::getaddrinfo(host.toUtf8().constData(), service.constData(), &hints, &found);
        rc != 0) {
        *error = QStringLiteral("%1: %2").arg(host, QString::fromLocal8Bit(gai_strerror(rc)));
        return nullptr;
    }
    QStringList tried;
    int fd = -1;
    for (const addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        char name[NI_MAXHOST] = {};
        ::getnameinfo(a->ai_addr, a->ai_addrlen, name, sizeof name, nullptr, 0, NI_NUMERICHOST);
        QString why;
        fd = connectOne(*a, deadline, &why);
        if (fd < 0)
            tried << QStringLiteral("%1:%2: %3").arg(QString::fromLatin1(name)).arg(port).arg(why);
    }
    ::freeaddrinfo(found);
    if (fd < 0) {
        *error = tried.join(QStringLiteral("; "));
        return nullptr;
    }
    return std::make_unique<TcpStream>(fd);
}

} // namespace rackscope
