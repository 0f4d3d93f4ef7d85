#pragma once
// A stream of bytes read as lines or to its end, each read bounded by a timeout and by a cancel flag: an SSH
// channel (a command's output, a port forwarded through the connection) or a TCP socket on this machine. A
// protocol written against it runs over either.
#include <QByteArray>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

class QDeadlineTimer;

namespace rackscope {

class ByteStream {
public:
    enum class Read { Line, Eof, Timeout, TooLong, Cancelled, Failed };
    virtual ~ByteStream();
    virtual bool write(const QByteArray& data) = 0;
    // The next complete line (without its newline), waiting at most timeoutMs.
    Read readLine(QByteArray* line, qsizetype maxLine, int timeoutMs);
    // Everything up to the stream's end (what readLine had read ahead included): Eof once it ended.
    Read readToEnd(QByteArray* all, qsizetype maxBytes, int timeoutMs);
    // Reads stop at this flag as at their timeout (null: only at the timeout).
    void setCancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }

protected:
    enum class Got { Data, Nothing, End, Failed };
    // Waits at most waitMs (at most 100 ms are asked for) and appends what came to `buffer`.
    virtual Got receive(QByteArray* buffer, int waitMs) = 0;
    const std::atomic<bool>* cancel_ = nullptr;

private:
    Read fill(const QDeadlineTimer& deadline);
    QByteArray buffer_;
};

// Opens a fresh stream to the same place each time it is called, or says why it could not.
using StreamOpener = std::function<std::unique_ptr<ByteStream>(QString* error)>;

} // namespace rackscope
