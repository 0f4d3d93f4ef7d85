#include "agent_client.h"

#include <QJsonDocument>

namespace rackscope {

AgentClient::AgentClient(QIODevice* io, QObject* parent, qsizetype maxLine)
    : QObject(parent), io_(io), maxLine_(maxLine) {
    connect(io, &QIODevice::readyRead, this, &AgentClient::onReadyRead);
    if (io->bytesAvailable() > 0) QMetaObject::invokeMethod(this, &AgentClient::onReadyRead, Qt::QueuedConnection);
}

qint64 AgentClient::request(const QString& method, const QJsonObject& params) {
    const qint64 id = nextId_++;
    QJsonObject r{{"id", id}, {"method", method}, {"protocol", kProtocolVersion}};
    if (!params.isEmpty()) r.insert("params", params);
    if (io_) io_->write(QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n');
    return id;
}

void AgentClient::cancel(qint64 id) {
    if (io_) io_->write(QJsonDocument(QJsonObject{{"id", id}, {"method", "cancel"}}).toJson(QJsonDocument::Compact) + '\n');
}

void AgentClient::fail(const QString& message) {
    if (broken_) return;
    broken_ = true;
    emit protocolError(message);
}

void AgentClient::onReadyRead() {
    if (!io_ || broken_) return;
    buffer_ += io_->readAll();
    qsizetype start = 0;
    for (qsizetype nl; !broken_ && (nl = buffer_.indexOf('\n', start)) >= 0; start = nl + 1)
        handleLine(buffer_.mid(start, nl - start));
    buffer_.remove(0, start);
    if (buffer_.size() > maxLine_) fail(QStringLiteral("the agent sent a line longer than %1 bytes").arg(maxLine_));
}

void AgentClient::handleLine(const QByteArray& line) {
    if (line.trimmed().isEmpty()) return;
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return fail(QStringLiteral("the agent sent something that is not a JSON object: %1")
                        .arg(QString::fromUtf8(line.left(80))));
    const QJsonObject m = doc.object();
    if (!ready_) {
        if (m.value("type").toString() != QLatin1String("hello"))
            return fail(QStringLiteral("the agent did not greet first (expected a hello message)"));
        const int version = m.value("protocol").toInt(-1);
        if (version != kProtocolVersion)
            return fail(QStringLiteral("agent %1 on %2 speaks protocol %3, this rackscope speaks %4: deploy the agent "
                                       "that ships with this rackscope")
                            .arg(m.value("agent").toString(), m.value("host").toString())
                            .arg(version)
                            .arg(kProtocolVersion));
        ready_ = true;
        hello_ = m;
        emit ready(m);
        return;
    }
    const QJsonValue idValue = m.value("id");
    const qint64 id = idValue.isDouble() ? qint64(idValue.toDouble()) : -1;
    if (m.contains("error")) {
        const QJsonObject e = m.value("error").toObject();
        emit failed(id, e.value("code").toString(), e.value("message").toString());
    } else if (m.contains("event")) {
        emit event(id, m.value("event").toString(), m.value("data").toObject());
    } else if (m.contains("result")) {
        emit result(id, m.value("result"));
    } else {
        fail(QStringLiteral("the agent sent a message with no result, event or error"));
    }
}

} // namespace rackscope
