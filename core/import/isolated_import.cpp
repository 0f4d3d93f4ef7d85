#include "isolated_import.h"

#include "model/host_topology_stream.h"

#include <QBuffer>
#include <QDataStream>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace rackscope {
namespace {

bool writeAll(int fd, const QByteArray& data) {
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

QByteArray readAll(int fd) {
    QByteArray out;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(buf, n);
    }
    return out;
}

} // namespace

ImportResult importIsolated(const std::function<ImportResult()>& importer, const QString& what,
                            int timeoutSeconds) {
    int fds[2];
    if (::pipe(fds) != 0)
        return importer(); // cannot isolate: run it here, as the library's own tools do
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return importer();
    }
    if (pid == 0) {
        ::close(fds[0]);
        for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL})
            std::signal(sig, SIG_DFL); // no sanitizer report
        ::alarm(unsigned(timeoutSeconds));
        const ImportResult r = importer();
        QByteArray bytes;
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out << r.host.has_value() << r.error;
        if (r.host)
            out << *r.host;
        ::_exit(writeAll(fds[1], bytes) ? 0 : 1);
    }
    ::close(fds[1]);
    const QByteArray bytes = readAll(fds[0]);
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        if (WTERMSIG(status) == SIGALRM)
            return ImportResult::fail(
                QStringLiteral("%1 did not finish in %2 s").arg(what).arg(timeoutSeconds));
        return ImportResult::fail(
            QStringLiteral("%1 crashed on this input (%2): the file is damaged in a way "
                           "the library does not check")
                .arg(what, QString::fromLocal8Bit(strsignal(WTERMSIG(status)))));
    }
    QDataStream in(bytes);
    bool ok = false;
    ImportResult r;
    in >> ok >> r.error;
    if (ok) {
        HostTopology h;
        in >> h;
        r.host = std::move(h);
    }
    if (in.status() != QDataStream::Ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return ImportResult::fail(QStringLiteral("%1 ended without a result").arg(what));
    return r;
}

} // namespace rackscope
