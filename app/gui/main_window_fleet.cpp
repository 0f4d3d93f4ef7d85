// The window's servers over SSH: connecting a fleet to them, asking them again, and what each answered (its
// stage in the Servers dock, its topology to the workspace).
#include "fleet_prompts.h"
#include "job_watch_panel.h"
#include "main_window.h"
#include "model/hostlist.h"
#include "protocol/protocol.h"
#include "servers_panel.h"

#include <QDir>
#include <QMessageBox>
#include <QStatusBar>

namespace rackscope::gui {

bool MainWindow::connectToHosts(const ConnectRequest& request) {
    const HostlistResult list = expandHostlist(request.hosts);
    QString error = list.error;
    request_ = request;
    FleetOptions o;
    if (error.isEmpty())
        o = fleetOptions(&error);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("rackscope"), tr("Cannot connect: %1").arg(error));
        return false;
    }
    if (ras_.running() && serverNames_.contains(jobNode_))
        stopWatchingJob();                          // it asks through the fleet that goes now
    fleet_ = std::make_unique<Fleet>(std::move(o)); // the one before is stopped: its open questions close
    connect(fleet_.get(), &Fleet::hostStage, this, [this](const QString& host, SshStage stage) {
        servers_->setStatus(host, tr("%1…").arg(stageName(stage)));
        log(host, stageName(stage));
    });
    connect(fleet_.get(), &Fleet::hostFinished, this, &MainWindow::onHostFinished);
    connect(fleet_.get(), &Fleet::finished, this, [this] {
        fleetDone_ = true;
        checkServersDone();
    });
    servers_->clear();
    serverNames_ = list.hosts;
    connecting_ = request.hosts;
    fleetDone_ = false;
    ++connection_;
    live_->setServerOrder(serverNames_);
    log({}, tr("connecting to %1 servers (%2)").arg(list.hosts.size()).arg(request.hosts));
    for (const QString& h : serverNames_)
        servers_->setStatus(h, tr("waiting"));
    fleet_->request(serverNames_, QString::fromLatin1(rsagent::protocol::method::kCollect));
    return true;
}

void MainWindow::refreshServers() {
    if (!fleet_ || serverNames_.isEmpty())
        return;
    fleetDone_ = false;
    fleet_->request(serverNames_, QString::fromLatin1(rsagent::protocol::method::kCollect));
}

void MainWindow::onHostFinished(const HostResult& r) {
    servers_->setSeconds(r.host, r.seconds);
    if (!r.result) {
        const QString why = r.error ? tr("failed at %1: %2").arg(stageName(r.error->stage), r.error->message)
                                    : tr("no answer");
        servers_->setFailed(r.host, why);
        log(r.host, why);
        return;
    }
    servers_->setStatus(r.host,
                        r.reused ? tr("ok (connection reused)") : tr("ok (agent %1)").arg(r.deployed));
    log(r.host, tr("collected in %1 s").arg(r.seconds, 0, 'f', 2));
    live_->takeAgentAnswer(connection_, r.host, *r.result);
}

// Once the fleet has ended and the workspace has shown every answer.
void MainWindow::checkServersDone() {
    if (!fleetDone_ || live_->busy())
        return;
    fleetDone_ = false;
    if (!connecting_.isEmpty()) { // no server answered: what was shown stays, and the Servers dock says why
        log({}, tr("no server of %1 answered; the view still shows %2").arg(connecting_, source_));
        statusBar()->showMessage(
            tr("No server answered (see the Servers list); still showing %1").arg(source_));
        connecting_.clear();
    }
    emit serversDone();
}

FleetOptions MainWindow::fleetOptions(QString* error) {
    FleetOptions o;
    o.config =
        SshConfig::fromFile(request_.sshConfig.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh/config")
                                                         : request_.sshConfig);
    if (!request_.jumpHost.isEmpty() && !o.config.addJumpForAll(request_.jumpHost))
        *error = tr("the jump host is not [user@]host[:port]: %1").arg(request_.jumpHost);
    o.ssh.knownHostsFile = request_.knownHosts;
    o.ssh.connectTimeoutMs = o.ssh.authTimeoutMs = o.requestTimeoutMs = o.deploy.timeoutMs =
        request_.timeoutS * 1000;
    o.concurrency = request_.concurrency;
    useDialogsFor(o.ssh, this);
    const AgentLoad& agent = agent_.get(); // read long before, off the GUI thread
    if (agent.binary)
        o.agent = *agent.binary;
    else if (error->isEmpty())
        *error = agent.error;
    return o;
}

} // namespace rackscope::gui
