#include "nccl_ras_client.h"

#include <QDeadlineTimer>
#include <QRegularExpression>

namespace rackscope {
namespace {

constexpr int kProtocol = 2; // NCCL_RAS_CLIENT_PROTOCOL of every NCCL so far
constexpr qsizetype kMaxReplyLine = 4096;

// A reply shown in a message: its first line, printable, short.
QString shown(const QByteArray& reply) {
    QString s = QString::fromUtf8(reply.left(120)).section(QLatin1Char('\n'), 0, 0).trimmed();
    s.replace(QRegularExpression(QStringLiteral("[^\\x20-\\x7e]")), QStringLiteral("?"));
    return s.isEmpty() ? QStringLiteral("nothing") : QLatin1Char('"') + s + QLatin1Char('"');
}

int remaining(const QDeadlineTimer& deadline) {
    return int(std::max<qint64>(deadline.remainingTime(), 0));
}

class Conversation {
public:
    Conversation(ByteStream& stream, const QString& where, const QDeadlineTimer& deadline)
        : stream_(stream), where_(where), deadline_(deadline) {}

    // Sends one command and reads its one-line reply; nullopt with `error` set when none came.
    std::optional<QByteArray> ask(const QByteArray& command) {
        if (!stream_.write(command + '\n')) {
            error = QStringLiteral("%1 closed the connection").arg(where_);
            return std::nullopt;
        }
        QByteArray line;
        switch (stream_.readLine(&line, kMaxReplyLine, remaining(deadline_))) {
        case ByteStream::Read::Line:
            return line.trimmed();
        case ByteStream::Read::Timeout:
            error = QStringLiteral("%1 accepted the connection but did not answer %2 in time")
                        .arg(where_, QString::fromLatin1(command.split(' ').first()));
            break;
        case ByteStream::Read::Eof:
            error =
                QStringLiteral("%1 closed the connection after %2").arg(where_, QString::fromLatin1(command));
            break;
        case ByteStream::Read::TooLong:
            error = QStringLiteral("%1 answered %2 with a line longer than %3 bytes: not NCCL's RAS service")
                        .arg(where_, QString::fromLatin1(command))
                        .arg(kMaxReplyLine);
            break;
        case ByteStream::Read::Cancelled:
            error = QStringLiteral("cancelled");
            break;
        case ByteStream::Read::Failed:
            error = QStringLiteral("the connection to %1 failed").arg(where_);
            break;
        }
        return std::nullopt;
    }
    QString error;

private:
    ByteStream& stream_;
    const QString& where_;
    const QDeadlineTimer& deadline_;
};

// One connection: handshake, gathering time, format, status; the output read to its end.
NcclRasAnswer askOnce(const StreamOpener& open, const QString& where, const NcclRasQuery& q, bool json,
                      const QDeadlineTimer& deadline) {
    NcclRasAnswer a;
    QString why;
    const std::unique_ptr<ByteStream> stream = open(&why);
    if (!stream) {
        a.error =
            QStringLiteral("cannot reach the RAS service at %1: %2 (is an NCCL 2.24 or later job running "
                           "there, with RAS on, NCCL_RAS_ENABLE=1, its default?)")
                .arg(where, why);
        return a;
    }
    Conversation c(*stream, where, deadline);
    const auto hello = c.ask("CLIENT PROTOCOL " + QByteArray::number(kProtocol));
    if (!hello)
        return a.error = c.error, a;
    static const QRegularExpression kServer(QStringLiteral("^SERVER PROTOCOL (\\d+)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = kServer.match(QString::fromLatin1(*hello));
    if (!m.hasMatch()) {
        a.error = QStringLiteral("%1 is not NCCL's RAS service: it answered the handshake with %2")
                      .arg(where, shown(*hello));
        return a;
    }
    a.serverProtocol = m.captured(1).toInt();
    if (a.serverProtocol != kProtocol)
        a.notes << QStringLiteral("NCCL speaks RAS client protocol %1, rackscope %2; read as far as it goes")
                       .arg(a.serverProtocol)
                       .arg(kProtocol);
    // NCCL may spend part of the time gathering from the other processes; the rest carries the answer.
    const int gatherS = std::max(1, remaining(deadline) / 1000 / 3);
    const auto timeoutReply = c.ask("TIMEOUT " + QByteArray::number(gatherS));
    if (!timeoutReply)
        return a.error = c.error, a;
    if (timeoutReply->toUpper() != "OK")
        a.notes << QStringLiteral("NCCL refused a gathering time of %1 s (%2); its own applies")
                       .arg(gatherS)
                       .arg(shown(*timeoutReply));
    if (json) {
        const auto formatReply = c.ask("SET FORMAT json");
        if (!formatReply)
            return a.error = c.error, a;
        if (formatReply->toUpper() != "OK") {
            a.notes << QStringLiteral("NCCL here speaks only text (JSON came with NCCL 2.28): %1")
                           .arg(shown(*formatReply));
            json = false;
        }
    }
    if (!stream->write(q.verbose ? "VERBOSE STATUS\n" : "STATUS\n")) {
        a.error = QStringLiteral("%1 closed the connection before STATUS").arg(where);
        return a;
    }
    switch (stream->readToEnd(&a.output, kMaxRasOutput, remaining(deadline))) {
    case ByteStream::Read::Eof:
        break;
    case ByteStream::Read::Timeout:
        a.error = QStringLiteral("%1 did not finish its report within the %2 s allowed (--timeout)")
                      .arg(where)
                      .arg(q.timeoutMs / 1000.0);
        return a;
    case ByteStream::Read::TooLong:
        a.error = QStringLiteral("%1 sent a report larger than %2 MiB").arg(where).arg(kMaxRasOutput >> 20);
        return a;
    case ByteStream::Read::Cancelled:
        a.error = QStringLiteral("cancelled");
        return a;
    default:
        a.error = QStringLiteral("the connection to %1 failed during the report").arg(where);
        return a;
    }
    if (a.output.trimmed().isEmpty()) {
        a.error = QStringLiteral("%1 closed the connection without a report").arg(where);
        return a;
    }
    QString readError;
    a.report = readNcclRas(a.output, &readError);
    if (!a.report)
        a.error = QStringLiteral("%1 answered with what rackscope cannot read as a RAS report (%2): %3")
                      .arg(where, readError, shown(a.output));
    return a;
}

} // namespace

NcclRasAnswer queryNcclRas(const StreamOpener& open, const QString& where, const NcclRasQuery& query) {
    const QDeadlineTimer deadline(query.timeoutMs);
    NcclRasAnswer a = askOnce(open, where, query, query.json, deadline);
    if (a.report || !query.json || a.output.isEmpty() || !a.output.trimmed().startsWith('{'))
        return a;
    // JSON that could not be read even mended: the same question again, in text.
    NcclRasAnswer text = askOnce(open, where, query, false, deadline);
    text.notes.prepend(
        QStringLiteral("NCCL's JSON could not be read (%1); its text report was read instead").arg(a.error));
    return text;
}

} // namespace rackscope
