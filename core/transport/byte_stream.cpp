#include "byte_stream.h"

#include <QDeadlineTimer>
#include <algorithm>

namespace rackscope {

ByteStream::~ByteStream() = default;

// One wait for more bytes; Line when some came (or none came yet and there is time left).
ByteStream::Read ByteStream::fill(const QDeadlineTimer& deadline) {
    if (cancel_ && cancel_->load())
        return Read::Cancelled;
    if (deadline.hasExpired())
        return Read::Timeout;
    switch (receive(&buffer_, int(std::clamp<qint64>(deadline.remainingTime(), 1, 100)))) {
    case Got::Data:
    case Got::Nothing:
        return Read::Line;
    case Got::End:
        return Read::Eof;
    case Got::Failed:
        break;
    }
    return Read::Failed;
}

ByteStream::Read ByteStream::readLine(QByteArray* line, qsizetype maxLine, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (const qsizetype nl = buffer_.indexOf('\n'); nl >= 0) {
            *line = buffer_.left(nl);
            buffer_.remove(0, nl + 1);
            return Read::Line;
        }
        if (buffer_.size() > maxLine)
            return Read::TooLong;
        if (const Read r = fill(deadline); r != Read::Line)
            return r;
    }
}

ByteStream::Read ByteStream::readToEnd(QByteArray* all, qsizetype maxBytes, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (buffer_.size() > maxBytes)
            return Read::TooLong;
        const Read r = fill(deadline);
        if (r == Read::Line)
            continue;
        if (r == Read::Eof)
            *all = std::exchange(buffer_, {});
        return r;
    }
}

} // namespace rackscope
