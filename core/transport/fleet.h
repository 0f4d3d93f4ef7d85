#pragma once
// Many servers at once over SSH: a bounded number in flight, each with its
// own deadlines for connect, auth, deploy and every request, so one dead,
// slow or misbehaving server delays only its own result. Connections and
// agent channels are kept for the next request and re-established once
// after a drop. cancel() stops what is in flight within a fraction of a
// second (a server in the middle of authentication: within the auth
// timeout). Results arrive per host, on the thread that owns the Fleet.
#include "agent_deploy.h"

#include <QJsonObject>
#include <QObject>
#include <QThreadPool>
#include <map>
#include <mutex>

namespace rackscope {

struct FleetOptions {
    SshConfig config;
    SshOptions ssh; // known_hosts, unknown-key policy, prompts, connect/auth timeouts
    DeployOptions deploy;
    AgentBinary agent;
    int concurrency = 32;
    int requestTimeoutMs = 60000;
};

struct StageTime {
    SshStage stage;
    double seconds = 0;
    int roundTrips = 0; // the server's answers waited for
};

struct HostResult {
    QString host;
    std::optional<QJsonObject> result; // the agent's answer (for collect: a snapshot)
    std::vector<QJsonObject>
        events; // the data of the events before it (for sample: each sample), at most kMaxEvents
    std::optional<SshError> error;
    QString deployed;    // how the agent got there
    bool reused = false; // the connection was already open
    double seconds = 0;
    std::vector<StageTime> stages; // how long each stage took, in order
};

class Fleet : public QObject {
    Q_OBJECT
public:
    static constexpr size_t kMaxEvents = 10000;
    static constexpr int kCancelDrainMs = 10000; // how long a cancelled stream is read on for its last events
    explicit Fleet(FleetOptions options, QObject* parent = nullptr);
    ~Fleet() override; // cancels and waits for what is in flight

    // Sends `method` to every host's agent; hostFinished for each, then finished.
    void request(const QStringList& hosts, const QString& method, const QJsonObject& params = {});
    // The same, for a long method whose events matter as they come (a load run): each is emitted as
    // hostEvent when it arrives and not kept, and a dropped connection is not retried.
    void stream(const QStringList& hosts, const QString& method, const QJsonObject& params);
    void cancel();
    bool waitForDone(int timeoutMs = -1);
    // A stream to `port` on the host's own loopback (NCCL's RAS service), carried by the host's SSH
    // connection as a direct-tcpip channel (what `ssh -L` opens; nothing listens on this machine). The
    // connection is opened if need be, without the agent; it serves nothing else while the stream lives.
    // Blocks: call it, use the stream and close it on one thread that is not the window's.
    std::unique_ptr<ByteStream> openPort(const QString& host, quint16 port, const std::atomic<bool>* cancel,
                                         QString* error);

signals:
    void hostStage(const QString& host, rackscope::SshStage stage);
    void hostEvent(const QString& host, const QString& name, const QJsonObject& data); // stream() only
    void hostFinished(const rackscope::HostResult& result);
    void finished();

private:
    struct Link;
    void start(const QStringList& hosts, const QString& method, const QJsonObject& params, bool streaming);
    HostResult run(const QString& host, const QString& method, const QJsonObject& params, bool streaming);
    std::shared_ptr<Link> link(const QString& host);
    std::optional<SshError> ensureAgent(Link& link, const QString& host, HostResult* r);

    FleetOptions options_;
    QThreadPool pool_;
    std::atomic<bool> cancel_{false};
    std::mutex linksMutex_;
    std::map<QString, std::shared_ptr<Link>> links_;
    std::atomic<int> pending_{0};
};

} // namespace rackscope

Q_DECLARE_METATYPE(rackscope::HostResult)
