#include "fleet.h"

#include "agent_client.h"

#include "thread_priority.h"
#include <QElapsedTimer>

namespace rackscope {
namespace {

// Writes each stage's time and round trips into the result when the next begins, and at the end of the scope.
struct StageClock {
    HostResult* r = nullptr;
    const SshConnection* ssh = nullptr;
    QElapsedTimer t;
    int roundTripsBefore = 0;
    int channelAnswers = 0; // answers read on a channel, beside those the connection counts
    bool running = false;
    void begin(SshStage s) {
        end();
        r->stages.push_back({s, 0.0, 0});
        t.start();
        roundTripsBefore = ssh->roundTrips();
        channelAnswers = 0;
        running = true;
    }
    void end() {
        if (running) {
            r->stages.back().seconds = double(t.nsecsElapsed()) / 1e9;
            r->stages.back().roundTrips = ssh->roundTrips() - roundTripsBefore + channelAnswers;
        }
        running = false;
    }
    ~StageClock() { end(); }
};

} // namespace

struct Fleet::Link {
    std::mutex mutex; // one request at a time per host
    SshConnection ssh;
    std::unique_ptr<SshChannel> agent;
    QString deployed;
    qint64 nextId = 1;
};

Fleet::Fleet(FleetOptions options, QObject* parent) : QObject(parent), options_(std::move(options)) {
    qRegisterMetaType<rackscope::HostResult>();
    pool_.setMaxThreadCount(std::max(1, options_.concurrency));
    options_.ssh.cancel = &cancel_;
}

Fleet::~Fleet() {
    cancel();
    pool_.waitForDone();
}

void Fleet::cancel() {
    cancel_ = true;
}

bool Fleet::waitForDone(int timeoutMs) {
    return pool_.waitForDone(timeoutMs);
}

void Fleet::request(const QStringList& hosts, const QString& method, const QJsonObject& params) {
    start(hosts, method, params, false);
}
void Fleet::stream(const QStringList& hosts, const QString& method, const QJsonObject& params) {
    start(hosts, method, params, true);
}

void Fleet::start(const QStringList& hosts, const QString& method, const QJsonObject& params,
                  bool streaming) {
    cancel_ = false;
    if (hosts.isEmpty()) {
        QMetaObject::invokeMethod(this, &Fleet::finished, Qt::QueuedConnection);
        return;
    }
    pending_ += int(hosts.size());
    for (const QString& host : hosts)
        pool_.start([this, host, method, params, streaming] {
            runBesideTheWindow(); // key exchange, ciphers and copying the agent yield to the window
            const HostResult r = run(host, method, params, streaming);
            QMetaObject::invokeMethod(
                this,
                [this, r] {
                    emit hostFinished(r);
                    if (--pending_ == 0)
                        emit finished();
                },
                Qt::QueuedConnection);
        });
}

std::optional<SshError> Fleet::ensureAgent(Link& link, const QString& host, HostResult* r) {
    if (link.ssh.isOpen() && link.agent) {
        r->reused = true;
        r->deployed = link.deployed;
        return std::nullopt;
    }
    link.agent.reset();
    StageClock clock;
    clock.r = r;
    clock.ssh = &link.ssh;
    auto stage = [&](SshStage s) {
        clock.begin(s);
        QMetaObject::invokeMethod(
            this, [this, host, s] { emit hostStage(host, s); }, Qt::QueuedConnection);
    };
    stage(SshStage::Connect);
    const SshTarget target = options_.config.resolve(host);
    if (auto e = link.ssh.open(target, options_.ssh))
        return e;
    // One exec starts the agent where the server has it; the upload, and a second exec, only where not.
    stage(SshStage::Agent);
    for (bool uploaded = false;;) {
        SshError startError;
        link.agent = link.ssh.start(launchCommand(options_.agent, options_.deploy), &startError);
        if (!link.agent)
            return startError;
        const Launch launch = readLaunch(*link.agent, options_.agent, options_.requestTimeoutMs);
        ++clock.channelAnswers; // its first words
        if (launch.kind == Launch::Kind::Started) {
            link.deployed = r->deployed = uploaded ? QStringLiteral("uploaded") : launch.how;
            break;
        }
        link.agent.reset();
        if (launch.kind == Launch::Kind::Failed)
            return launch.error;
        if (uploaded)
            return SshError{SshStage::Deploy, QStringLiteral("the agent uploaded to ~/%1 on %2 is not there")
                                                  .arg(remoteAgentPath(options_.agent), link.ssh.peer())};
        stage(SshStage::Deploy);
        if (auto e = uploadAgent(link.ssh, options_.agent, launch.machine, options_.deploy))
            return e;
        uploaded = true;
        stage(SshStage::Agent);
    }
    QByteArray line;
    switch (link.agent->readLine(&line, AgentClient::kMaxLine, options_.requestTimeoutMs)) {
    case SshChannel::Read::Line: {
        const AgentMessage hello = parseAgentLine(line, true);
        if (hello.kind != AgentMessage::Kind::Hello) {
            link.agent.reset();
            return SshError{SshStage::Agent, hello.problem};
        }
        return std::nullopt;
    }
    case SshChannel::Read::Cancelled:
        link.agent.reset();
        return SshError{SshStage::Agent, QStringLiteral("cancelled")};
    case SshChannel::Read::Timeout:
        link.agent.reset();
        return SshError{
            SshStage::Agent,
            QStringLiteral("the agent did not greet within %1 s").arg(options_.requestTimeoutMs / 1000.0)};
    default: {
        const QByteArray err = link.agent->errorOutput();
        const int status = link.agent->exitStatus().value_or(-1);
        link.agent.reset();
        return SshError{SshStage::Agent, explainAgentStartFailure(status, err, options_.agent.machine)};
    }
    }
}

std::shared_ptr<Fleet::Link> Fleet::link(const QString& host) {
    std::lock_guard lock(linksMutex_);
    auto& slot = links_[host];
    if (!slot)
        slot = std::make_shared<Link>();
    return slot;
}

std::unique_ptr<ByteStream> Fleet::openPort(const QString& host, quint16 port,
                                            const std::atomic<bool>* cancel, QString* error) {
    // The channel holds the host's link, locked, until it closes: one user of the libssh session at a time.
    struct Held {
        std::shared_ptr<Link> link;
        std::unique_lock<std::mutex> lock;
    };
    auto held = std::make_shared<Held>();
    held->link = link(host);
    held->lock = std::unique_lock(held->link->mutex);
    SshConnection& ssh = held->link->ssh;
    if (!ssh.isOpen()) {
        held->link->agent.reset();
        if (auto e = ssh.open(options_.config.resolve(host), options_.ssh)) {
            ssh.close();
            *error = QStringLiteral("%1: %2").arg(stageName(e->stage), e->message);
            return nullptr;
        }
    }
    SshError e;
    std::unique_ptr<SshChannel> channel = ssh.forward(QStringLiteral("localhost"), port, &e);
    if (!channel) {
        *error = e.message;
        return nullptr;
    }
    channel->setCancel(cancel);
    channel->holdWhileOpen(std::move(held));
    return channel;
}

HostResult Fleet::run(const QString& host, const QString& method, const QJsonObject& params, bool streaming) {
    QElapsedTimer clock;
    clock.start();
    HostResult r;
    r.host = host;
    const std::shared_ptr<Link> link = this->link(host);
    std::lock_guard lock(link->mutex);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (cancel_) {
            r.error = SshError{SshStage::Connect, QStringLiteral("cancelled")};
            break;
        }
        r.reused = false;
        r.events.clear(); // a retried request starts its events afresh
        if (auto e = ensureAgent(*link, host, &r)) {
            r.error = e;
            link->agent.reset();
            link->ssh.close();
            break;
        }
        const qint64 id = link->nextId++;
        QMetaObject::invokeMethod(
            this, [this, host] { emit hostStage(host, SshStage::Request); }, Qt::QueuedConnection);
        QElapsedTimer requestClock;
        requestClock.start();
        std::optional<SshError> dropped;
        bool cancelSent = false;
        int waitMs = options_.requestTimeoutMs;
        if (!link->agent->write(agentRequestLine(id, method, params)))
            dropped = SshError{SshStage::Request, QStringLiteral("the connection dropped")};
        while (!dropped && !r.result && !r.error) {
            QByteArray line;
            const SshChannel::Read read = link->agent->readLine(&line, AgentClient::kMaxLine, waitMs);
            if (read == SshChannel::Read::Line) {
                if (line.trimmed().isEmpty())
                    continue;
                const AgentMessage m = parseAgentLine(line, false);
                if (m.kind == AgentMessage::Kind::Invalid)
                    r.error = SshError{SshStage::Request, m.problem};
                else if (m.id != id)
                    continue; // answers to other requests
                else if (m.kind == AgentMessage::Kind::Event) {
                    if (streaming)
                        emit hostEvent(host, m.object.value("event").toString(),
                                       m.object.value("data").toObject());
                    else if (r.events.size() < kMaxEvents)
                        r.events.push_back(m.object.value("data").toObject());
                } else if (m.kind == AgentMessage::Kind::Result)
                    r.result = m.object.value("result").toObject();
                else if (m.kind == AgentMessage::Kind::Error) {
                    const QJsonObject e = m.object.value("error").toObject();
                    r.error = SshError{SshStage::Request, QStringLiteral("the agent refused %1: %2 (%3)")
                                                              .arg(method, e.value("message").toString(),
                                                                   e.value("code").toString())};
                }
            } else if (read == SshChannel::Read::Timeout) {
                r.error =
                    SshError{SshStage::Request,
                             cancelSent ? QStringLiteral("cancelled; the agent did not end %1 within %2 s")
                                              .arg(method)
                                              .arg(waitMs / 1000.0)
                                        : QStringLiteral("no answer to %1 within %2 s")
                                              .arg(method)
                                              .arg(options_.requestTimeoutMs / 1000.0)};
            } else if (read == SshChannel::Read::Cancelled) {
                // A streamed request is asked to stop and read to its end: the agent sends the events of
                // what it stopped (a load run's requests in flight), then its result. Anything else just
                // stops.
                if (streaming && link->agent->write(agentRequestLine(
                                     id, QString::fromLatin1(rsagent::protocol::method::kCancel)))) {
                    cancelSent = true;
                    link->agent->ignoreCancel();
                    waitMs = std::min(waitMs, kCancelDrainMs);
                } else {
                    r.error = SshError{SshStage::Request, QStringLiteral("cancelled")};
                }
            } else if (read == SshChannel::Read::TooLong) {
                r.error = SshError{
                    SshStage::Request,
                    QStringLiteral("the agent sent a line longer than %1 bytes").arg(AgentClient::kMaxLine)};
            } else {
                dropped =
                    SshError{SshStage::Request,
                             QStringLiteral("the connection to %1 dropped during %2").arg(host, method)};
            }
        }
        r.stages.push_back({SshStage::Request, double(requestClock.nsecsElapsed()) / 1e9, 1});
        if (cancelSent) { // the channel no longer looks at the cancel flag: it is not used again
            link->agent.reset();
            link->ssh.close();
        }
        if (r.result)
            break;
        if (r.error && !dropped) { // the channel's state is unknown now: start afresh next time
            link->agent.reset();
            link->ssh.close();
            break;
        }
        // A reused connection that dropped before answering is opened again once.
        link->agent.reset();
        link->ssh.close();
        r.error = dropped;
        if (!r.reused || streaming)
            break; // a streamed run is never sent twice: its events are out already
        r.error.reset();
    }
    r.seconds = double(clock.nsecsElapsed()) / 1e9;
    return r;
}

} // namespace rackscope
