#include "input_file.h"

#include <QFile>
#include <QXmlStreamReader>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rackscope {

QString readBoundedFile(const QString& path, qint64 maxBytes, QByteArray* content, int idleMs) {
    const auto tooLarge = [&] {
        return QStringLiteral("larger than the %1 MiB limit for this kind of file")
            .arg(maxBytes / (1024 * 1024));
    };
    if (path.startsWith(QLatin1Char(':'))) { // a Qt resource (the demo cluster): in memory, never a FIFO
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("cannot open: %1").arg(file.errorString());
        *content = file.read(maxBytes + 1);
        return content->size() > maxBytes ? tooLarge() : QString();
    }
    // Opened without blocking: open() of a FIFO with no writer would wait for one.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return QStringLiteral("cannot open: %1").arg(QString::fromLocal8Bit(::strerror(errno)));
    struct stat st {};
    ::fstat(fd, &st);
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return QStringLiteral("is a directory");
    }
    content->clear();
    QString error;
    char buf[65536];
    while (content->size() <= maxBytes) {
        const ssize_t n =
            ::read(fd, buf, size_t(std::min<qint64>(qint64(sizeof buf), maxBytes + 1 - content->size())));
        if (n > 0) {
            content->append(buf, n);
        } else if (n == 0) {
            break; // the end; for a FIFO, no writer (left)
        } else if (errno == EAGAIN) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, idleMs) == 0) {
                error =
                    QStringLiteral("nothing came to read for %1 s (a FIFO or device that no one writes to?)")
                        .arg(idleMs / 1000);
                break;
            }
        } else if (errno != EINTR) {
            error = QStringLiteral("cannot read: %1").arg(QString::fromLocal8Bit(::strerror(errno)));
            break;
        }
    }
    ::close(fd);
    if (!error.isEmpty())
        return error;
    if (content->size() > maxBytes)
        return tooLarge();
    return {};
}

QString readInputFile(const QString& path, qint64 maxBytes, QByteArray* content, int idleMs) {
    if (QString e = readBoundedFile(path, maxBytes, content, idleMs); !e.isEmpty())
        return e;
    if (content->trimmed().isEmpty())
        return QStringLiteral("the file is empty");
    return {};
}

QString xmlParseError(const QByteArray& xml) {
    QXmlStreamReader r(xml);
    while (!r.atEnd())
        r.readNext();
    return r.hasError()
               ? QStringLiteral("malformed XML at line %1: %2").arg(r.lineNumber()).arg(r.errorString())
               : QString();
}

} // namespace rackscope
