#pragma once
// The options every command that reaches servers over SSH shares
// (--hosts, --hosts-file, --ssh-config, --known-hosts, --accept-new,
// --timeout, --concurrency), and one call that asks each host's agent and
// returns the answers in the order the hosts were given.
#include "transport/fleet.h"

#include <QCommandLineParser>

namespace rackscope::cli {

struct RemoteOptions {
    QCommandLineOption hosts{
        QStringLiteral("hosts"),
        QStringLiteral("Servers to reach over SSH: names, commas, ranges (gpu[001-128])."),
        QStringLiteral("LIST")};
    QCommandLineOption hostsFile{QStringLiteral("hosts-file"),
                                 QStringLiteral("A file of servers, one hostlist per line."),
                                 QStringLiteral("FILE")};
    QCommandLineOption sshConfig{QStringLiteral("ssh-config"),
                                 QStringLiteral("ssh_config to read (default ~/.ssh/config)."),
                                 QStringLiteral("FILE")};
    QCommandLineOption knownHosts{
        QStringLiteral("known-hosts"),
        QStringLiteral("known_hosts to check keys against (default ~/.ssh/known_hosts)."),
        QStringLiteral("FILE")};
    QCommandLineOption acceptNew{
        QStringLiteral("accept-new"),
        QStringLiteral("Record the keys of servers not yet in known_hosts (a changed key still fails).")};
    QCommandLineOption timeout{
        QStringLiteral("timeout"),
        QStringLiteral("Seconds allowed for each of connect, auth, deploy and every request (default 30)."),
        QStringLiteral("S"), QStringLiteral("30")};
    QCommandLineOption concurrency{QStringLiteral("concurrency"),
                                   QStringLiteral("Servers in flight at once (default 32)."),
                                   QStringLiteral("N"), QStringLiteral("32")};
    QCommandLineOption verbose{QStringLiteral("verbose"),
                               QStringLiteral("Print each server's stages and their times on stderr.")};

    // `withVerbose` false: the command gives --verbose a meaning of its own (it still prints the stages).
    void addTo(QCommandLineParser& parser, bool withVerbose = true) const {
        parser.addOptions({hosts, hostsFile, sshConfig, knownHosts, acceptNew, timeout, concurrency});
        if (withVerbose)
            parser.addOption(verbose);
    }
    bool wanted(const QCommandLineParser& parser) const {
        return parser.isSet(hosts) || parser.isSet(hostsFile);
    }
};

// The hosts and the SSH options the flags name (every RemoteOptions flag but --timeout and
// --concurrency, given here), with the agent to deploy; `error` when they are wrong.
struct FleetTarget {
    QStringList hosts;
    FleetOptions options;
    QString error;
};
FleetTarget fleetFromOptions(const QCommandLineParser& parser, const RemoteOptions& o, int timeoutS,
                             int concurrency);

// Each host's answer to `method`, or its error; an empty list and `error` when the options are wrong.
// `longerS`: seconds the method itself takes (a sample's window), added to every stage's timeout.
struct RemoteAnswers {
    std::vector<HostResult> results;
    QString error;
};
RemoteAnswers askHosts(const QCommandLineParser& parser, const RemoteOptions& o, const QString& method,
                       const QJsonObject& params = {}, int longerS = 0);

} // namespace rackscope::cli
