#include "agent_client.h"

#include <QJsonDocument>

namespace rackscope {

AgentMessage parseAgentLine(const QByteArray& line, bool expectHello) {
    AgentMessage out;
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        out.problem = QStringLiteral("the agent sent something that is not a JSON object: %1")
                          .arg(QString::fromUtf8(line.left(80)));
        return out;
    }
    const QJsonObject m = doc.object();
    out.object = m;
    if (expectHello) {
        if (m.value("type").toString() != QLatin1String(rsagent::protocol::method::kHello)) {
            out.problem = QStringLiteral("the agent did not greet first (expected a hello message)");
            return out;
        }
        const int version = m.value("protocol").toInt(-1);
        if (version != kAgentProtocolVersion) {
            out.problem = QStringLiteral("agent %1 on %2 speaks protocol %3, this rackscope speaks %4: "
                                         "deploy the agent that ships with this rackscope")
                              .arg(m.value("agent").toString(), m.value("host").toString())
                              .arg(version)
                              .arg(kAgentProtocolVersion);
            return out;
        }
        out.kind = AgentMessage::Kind::Hello;
        return out;
    }
    const QJsonValue idValue = m.value("id");
    out.id = idValue.isDouble() ? qint64(idValue.toDouble()) : -1;
    if (m.contains("error"))
        out.kind = AgentMessage::Kind::Error;
    else if (m.contains("event"))
        out.kind = AgentMessage::Kind::Event;
    else if (m.contains("result"))
        out.kind = AgentMessage::Kind::Result;
    else
        out.problem = QStringLiteral("the agent sent a message with no result, event or error");
    return out;
}

QByteArray agentRequestLine(qint64 id, const QString& method, const QJsonObject& params) {
    QJsonObject r{{"id", id}, {"method", method}, {"protocol", kAgentProtocolVersion}};
    if (!params.isEmpty())
        r.insert("params", params);
    return QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n';
}

AgentClient::AgentClient(QIODevice* io, QObject* parent, qsizetype maxLine)
    : QObject(parent), io_(io), maxLine_(maxLine) {
    connect(io, &QIODevice::readyRead, this, &AgentClient::onReadyRead);
    if (io->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &AgentClient::onReadyRead, Qt::QueuedConnection);
}

qint64 AgentClient::request(const QString& method, const QJsonObject& params) {
    const qint64 id = nextId_++;
    if (io_)
        io_->write(agentRequestLine(id, method, params));
    return id;
}

void AgentClient::cancel(qint64 id) {
    if (io_)
        io_->write(QJsonDocument(QJsonObject{{"id", id}, {"method", rsagent::protocol::method::kCancel}})
                       .toJson(QJsonDocument::Compact) +
                   '\n');
}

void AgentClient::fail(const QString& message) {
    if (broken_)
        return;
    broken_ = true;
    emit protocolError(message);
}

void AgentClient::onReadyRead() {
    if (!io_ || broken_)
        return;
    buffer_ += io_->readAll();
    qsizetype start = 0;
    for (qsizetype nl; !broken_ && (nl = buffer_.indexOf('\n', start)) >= 0; start = nl + 1)
        handleLine(buffer_.mid(start, nl - start));
    buffer_.remove(0, start);
    if (buffer_.size() > maxLine_)
        fail(QStringLiteral("the agent sent a line longer than %1 bytes").arg(maxLine_));
}

void AgentClient::handleLine(const QByteArray& line) {
    if (line.trimmed().isEmpty())
        return;
    const AgentMessage m = parseAgentLine(line, !ready_);
    switch (m.kind) {
    case AgentMessage::Kind::Invalid:
        return fail(m.problem);
    case AgentMessage::Kind::Hello:
        ready_ = true;
        hello_ = m.object;
        emit ready(m.object);
        return;
    case AgentMessage::Kind::Error: {
        const QJsonObject e = m.object.value("error").toObject();
        emit failed(m.id, e.value("code").toString(), e.value("message").toString());
        return;
    }
    case AgentMessage::Kind::Event:
        emit event(m.id, m.object.value("event").toString(), m.object.value("data").toObject());
        return;
    case AgentMessage::Kind::Result:
        emit result(m.id, m.object.value("result"));
        return;
    }
}

} // namespace rackscope
