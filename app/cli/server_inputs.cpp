#include "server_inputs.h"

#include "protocol/protocol.h"
#include "transport/local_agent.h"

namespace rackscope::cli {

ServerInputs readServers(const QCommandLineParser& parser, const RemoteOptions& remote,
                         const QStringList& files, bool local, Workspace& ws) {
    ServerInputs in;
    auto fail = [&](const QString& input, const QString& message) {
        fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(input), qPrintable(message));
        in.failed.push_back({input, message});
    };
    if (local) {
        const AgentCollect c = collectWithLocalAgent(findLocalAgent());
        const QString error =
            c.snapshot ? ws.takeAgentAnswer(kLocalAgentLocation, *c.snapshot, Workspace::Mode::Add) : c.error;
        if (!error.isEmpty())
            fail(QStringLiteral("local machine"), error);
    }
    for (const FailedInput& f : ws.open(files, Workspace::Mode::Add))
        fail(f.input, f.message);
    if (!remote.wanted(parser))
        return in;

    // Servers over SSH, in the order given, whatever order they answer in; one that fails is listed with
    // the stage that failed.
    const RemoteAnswers answers =
        askHosts(parser, remote, QString::fromLatin1(rsagent::protocol::method::kCollect));
    if (!answers.error.isEmpty()) {
        in.error = answers.error;
        return in;
    }
    QStringList order;
    for (const HostResult& r : answers.results)
        order << r.host;
    ws.setServerOrder(order);
    for (const HostResult& r : answers.results) {
        const QString location = QStringLiteral("ssh://") + r.host;
        UnreachableServer failure{r.host, location, QStringLiteral("import"), {}};
        if (r.error)
            failure.stage = stageName(r.error->stage), failure.message = r.error->message;
        else if (!r.result)
            failure.message = QStringLiteral("no answer");
        else
            failure.message = ws.takeAgentAnswer(location, *r.result, Workspace::Mode::Add);
        if (failure.message.isEmpty())
            continue;
        if (!r.error) // the fleet has said its own
            fprintf(stderr, "rackscope-cli: %s: %s\n", qPrintable(r.host), qPrintable(failure.message));
        ws.takeUnreachable(std::move(failure));
    }
    return in;
}

} // namespace rackscope::cli
