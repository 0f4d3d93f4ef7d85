#pragma once
// The core's side of the agent protocol (docs/protocol.md), over any
// QIODevice: a QProcess running `rackscope-agent --stdio`, an SSH channel,
// or a local socket. It consumes only complete lines, and the agent's hello
// must come first with a matching protocol version.
#include "protocol/protocol.h"

#include <QIODevice>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace rackscope {

// One line of the protocol, read: what AgentClient and the SSH fleet share.
struct AgentMessage {
    enum class Kind { Hello, Result, Event, Error, Invalid } kind = Kind::Invalid;
    qint64 id = -1;
    QJsonObject object;
    QString problem; // for Invalid: what is wrong, as a sentence
};
constexpr int kAgentProtocolVersion = rsagent::protocol::kVersion;
AgentMessage parseAgentLine(const QByteArray& line, bool expectHello);
QByteArray agentRequestLine(qint64 id, const QString& method, const QJsonObject& params = {});

class AgentClient : public QObject {
    Q_OBJECT
public:
    static constexpr int kProtocolVersion = kAgentProtocolVersion;
    static constexpr qsizetype kMaxLine = qsizetype(rsagent::protocol::kMaxResponseLine);

    explicit AgentClient(QIODevice* io, QObject* parent = nullptr, qsizetype maxLine = kMaxLine);

    bool isReady() const { return ready_; }
    const QJsonObject& hello() const { return hello_; }
    // Sends a request and returns its id.
    qint64 request(const QString& method, const QJsonObject& params = {});
    void cancel(qint64 id);

signals:
    void ready(const QJsonObject& hello);
    void result(qint64 id, const QJsonValue& result);
    void event(qint64 id, const QString& name, const QJsonObject& data);
    void failed(qint64 id, const QString& code,
                const QString& message);        // id -1 when the agent could not tell
    void protocolError(const QString& message); // the connection is unusable

private:
    void onReadyRead();
    void handleLine(const QByteArray& line);
    void fail(const QString& message);

    QPointer<QIODevice> io_;
    QByteArray buffer_;
    QJsonObject hello_;
    bool ready_ = false;
    bool broken_ = false;
    qint64 nextId_ = 1;
    qsizetype maxLine_;
};

} // namespace rackscope
