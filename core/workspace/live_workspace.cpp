#include "live_workspace.h"

#include "logging.h"
#include "report/inspect_report.h"
#include "thread_priority.h"
#include "transport/local_agent.h"

namespace rackscope {

// Owns the Workspace on the worker thread; every member is touched there only, except `queued`.
class WorkspaceWorker : public QObject {
    Q_OBJECT
public:
    std::atomic<int> queued{0}; // commands posted and not yet begun

    void run(const std::function<void(WorkspaceWorker&)>& command) {
        runBesideTheWindow(); // imports, analyses and layouts yield to the window
        --queued;
        command(*this);
        if (queued == 0 && dirty)
            publish(); // a burst of answers is laid out once, after its last
        emit commandDone();
    }

    void open(const QStringList& paths, Workspace::Mode mode) {
        LoadedSources loaded = loadSources(paths);
        TakeReport r;
        r.input = paths.join(QStringLiteral(", "));
        r.paths = paths;
        r.failed = loaded.failed;
        for (const InspectedHost& h : loaded.input.hosts)
            r.hosts << h.host.name;
        if (loaded.input.fabric)
            r.fabricSource = loaded.input.fabric->source;
        for (const RunRecord& run : loaded.runs)
            r.runs << run.path;
        for (const SavedLoadRun& run : loaded.loadRuns)
            r.runs << run.location;
        if (r.taken()) {
            ws.takeOpened(std::move(loaded), mode);
            r.replaced = mode == Workspace::Mode::Replace;
            dirty = true;
        }
        emit reported(r);
    }

    bool takeAnswer(const QString& location, const QJsonObject& snapshot, Workspace::Mode mode,
                    const QString& input) {
        TakeReport r;
        r.input = input;
        if (const QString error = ws.takeAgentAnswer(location, snapshot, mode); !error.isEmpty()) {
            r.failed.push_back({input, error});
        } else {
            for (const InspectedHost& h : ws.hosts())
                if (h.host.source.location == location)
                    r.hosts << h.host.name;
            r.replaced = mode == Workspace::Mode::Replace;
            dirty = true;
        }
        emit reported(r);
        return r.taken();
    }

    void publish() {
        auto view = std::make_shared<WorkspaceView>();
        view->generation = ++generation;
        view->workspace = ws;
        view->findings = ws.findings();
        view->diagram = buildDiagram(ws.diagramInput(), options);
        view->report = inspectToText(ws.hosts(), ws.fabricAnalysis() ? &*ws.fabricAnalysis() : nullptr,
                                     ws.runs(), ws.loadRuns());
        std::vector<HostTopology> topologies;
        for (const InspectedHost& h : ws.hosts())
            topologies.push_back(h.host);
        view->lineRate = expectedBusbw(topologies);
        view->options = options;
        dirty = false;
        emit published(view);
    }

    Workspace ws;
    DiagramOptions options;
    bool dirty = false;
    int shownConnection = -1;
    quint64 generation = 0;

signals:
    void published(rackscope::WorkspaceViewPtr view);
    void reported(const rackscope::TakeReport& report);
    void commandDone();
};

LiveWorkspace::LiveWorkspace(QObject* parent)
    : QObject(parent), worker_(new WorkspaceWorker), view_(std::make_shared<WorkspaceView>()) {
    qRegisterMetaType<WorkspaceViewPtr>();
    qRegisterMetaType<TakeReport>();
    thread_.setObjectName(QStringLiteral("rackscope workspace"));
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &WorkspaceWorker::published, this, [this](const WorkspaceViewPtr& v) {
        if (v->generation <= view_->generation)
            return; // an older view than the one shown
        view_ = v;
        emit changed(v);
    });
    connect(worker_, &WorkspaceWorker::reported, this, &LiveWorkspace::taken);
    connect(worker_, &WorkspaceWorker::commandDone, this, &LiveWorkspace::done);
    collectors_.setMaxThreadCount(1);
    thread_.start();
}

LiveWorkspace::~LiveWorkspace() {
    stopping_ = true;
    collectors_.waitForDone();
    thread_.quit();
    thread_.wait();
}

void LiveWorkspace::done() {
    if (--pending_ == 0)
        emit idle();
}

void LiveWorkspace::post(std::function<void(WorkspaceWorker&)> command) {
    ++pending_;
    ++worker_->queued;
    QMetaObject::invokeMethod(
        worker_, [w = worker_, c = std::move(command)] { w->run(c); }, Qt::QueuedConnection);
}

void LiveWorkspace::open(const QStringList& paths, Workspace::Mode mode) {
    if (mode == Workspace::Mode::Replace)
        ++replaceEpoch_;
    post([paths, mode](WorkspaceWorker& w) { w.open(paths, mode); });
}

void LiveWorkspace::collectLocal(const QString& agentPath) {
    const quint64 epoch = ++replaceEpoch_;
    ++pending_; // until the worker has taken or dropped the answer
    collectors_.start([this, agentPath, epoch] {
        runBesideTheWindow(); // and the agent it starts
        const AgentCollect c = collectWithLocalAgent(agentPath, {}, 60000, &stopping_);
        ++worker_->queued;
        QMetaObject::invokeMethod(
            worker_,
            [this, c, epoch] {
                worker_->run([&](WorkspaceWorker& w) {
                    if (epoch != replaceEpoch_) { // something else replaced the view while the agent ran
                        qCDebug(lcTransport) << "dropped this machine's answer: a newer view replaced it";
                        return;
                    }
                    if (!c.snapshot)
                        emit w.reported(TakeReport{
                            kLocalAgentLocation, {}, {{kLocalAgentLocation, c.error}}, {}, {}, false, {}});
                    else
                        w.takeAnswer(kLocalAgentLocation, *c.snapshot, Workspace::Mode::Replace,
                                     kLocalAgentLocation);
                });
            },
            Qt::QueuedConnection);
    });
}

void LiveWorkspace::takeAgentAnswer(int connection, const QString& host, const QJsonObject& snapshot) {
    post([connection, host, snapshot](WorkspaceWorker& w) {
        const bool first = connection != w.shownConnection;
        if (w.takeAnswer(QStringLiteral("ssh://") + host, snapshot,
                         first ? Workspace::Mode::Replace : Workspace::Mode::Add, host))
            w.shownConnection = connection; // else the next answer may still replace the view
    });
}

void LiveWorkspace::setServerOrder(const QStringList& hosts) {
    post([hosts](WorkspaceWorker& w) { w.ws.setServerOrder(hosts); }); // shown with the next answer
}

void LiveWorkspace::setFlagged(const QStringList& hosts) {
    post([hosts](WorkspaceWorker& w) {
        w.ws.setFlagged(hosts);
        w.dirty = true;
    });
}

void LiveWorkspace::setCheckMarks(const std::vector<CheckMark>& marks) {
    post([marks](WorkspaceWorker& w) {
        w.ws.setCheckMarks(marks);
        w.dirty = true;
    });
}

void LiveWorkspace::setJobMarks(const std::vector<JobMark>& marks) {
    post([marks](WorkspaceWorker& w) {
        w.ws.setJobMarks(marks);
        w.dirty = true;
    });
}

void LiveWorkspace::addRunFindings(const std::vector<Finding>& findings) {
    post([findings](WorkspaceWorker& w) {
        w.ws.addRunFindings(findings);
        w.dirty = true;
    });
}

void LiveWorkspace::setDiagramOptions(const DiagramOptions& options) {
    post([options](WorkspaceWorker& w) {
        w.options = options;
        w.dirty = true;
    });
}

void LiveWorkspace::reanalyse() {
    post([](WorkspaceWorker& w) {
        w.ws.reanalyse();
        w.dirty = true;
    });
}

} // namespace rackscope

#include "live_workspace.moc"
