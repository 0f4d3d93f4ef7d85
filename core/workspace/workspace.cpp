#include "workspace.h"

#include "analysis/fabric_merge.h"
#include "analysis/nvlink_findings.h"

#include <QJsonDocument>

namespace rackscope {

std::vector<FailedInput> Workspace::open(const QStringList& paths, Mode mode) {
    LoadedSources loaded = loadSources(paths);
    std::vector<FailedInput> failed = std::move(loaded.failed);
    takeOpened(std::move(loaded), mode);
    return failed;
}

void Workspace::take(LoadedSources loaded, Mode mode, const QString& key) {
    if (mode == Mode::Replace)
        clear();
    DiagramInput& in = loaded.input;
    // What this source shows replaces what was shown of the same server: by name, or by where an agent
    // answered from.
    std::erase_if(hosts_, [&](const InspectedHost& old) {
        return old.host.source.location == key ||
               std::any_of(in.hosts.begin(), in.hosts.end(),
                           [&](const InspectedHost& h) { return h.host.name == old.host.name; });
    });
    std::erase_if(raw_, [&](const RawSource& old) {
        return old.location == key ||
               std::any_of(loaded.raw.begin(), loaded.raw.end(),
                           [&](const RawSource& r) { return !r.host.isEmpty() && r.host == old.host; });
    });
    std::erase_if(unreachable_, [&](const UnreachableServer& u) { return u.location == key; });
    for (RunRecord& record : loaded.runs) { // a run opened again replaces itself
        std::erase_if(raw_, [&](const RawSource& r) { return r.location == record.path; });
        std::erase_if(runs_, [&](const JudgedRun& r) { return r.record.path == record.path; });
        runs_.push_back({std::move(record), {}});
    }
    for (NcclLog& log : loaded.ncclLogs) { // and a log
        std::erase_if(ncclLogs_, [&](const NcclLog& l) { return l.location == log.location; });
        ncclLogs_.push_back(std::move(log));
    }
    for (SavedLoadRun& run : loaded.loadRuns) { // so does a load run's folder
        std::erase_if(raw_, [&](const RawSource& r) { return r.location == run.location; });
        std::erase_if(loadRuns_, [&](const SavedLoadRun& r) { return r.location == run.location; });
        loadRuns_.push_back(std::move(run));
    }
    std::move(in.hosts.begin(), in.hosts.end(), std::back_inserter(hosts_));
    std::move(loaded.raw.begin(), loaded.raw.end(), std::back_inserter(raw_));
    for (const QString& h : in.flaggedHosts)
        if (!flagged_.contains(h))
            flagged_ << h;
    if (!in.title.isEmpty())
        title_ = in.title;
    // A server answering again replaces what it said of the fabric before.
    if (in.fabric)
        fabricParts_.insert_or_assign(key, std::move(*in.fabric));
    else
        fabricParts_.erase(key);
    if (!in.nvlink.empty())
        nvlinkParts_.insert_or_assign(key, std::move(in.nvlink));
    else
        nvlinkParts_.erase(key);
    sortHosts();
    mergeFabric();
    mergeNvlink();
    judgeRuns();
}

QString Workspace::takeAgentAnswer(const QString& location, const QJsonObject& snapshot, Mode mode) {
    LoadedSources imported =
        importSources({{location, {}, QJsonDocument(snapshot).toJson(QJsonDocument::Compact)}});
    if (imported.input.hosts.empty() && !imported.input.fabric &&
        imported.input.nvlink.empty()) // an answer of only some sections may hold only a fabric
        return imported.failed.empty() ? QStringLiteral("the answer holds no topology")
                                       : imported.failed.front().message;
    take(std::move(imported), mode, location);
    return {};
}

void Workspace::takeUnreachable(UnreachableServer server) {
    std::erase_if(unreachable_, [&](const UnreachableServer& u) { return u.location == server.location; });
    unreachable_.push_back(std::move(server));
}

std::vector<ServerEntry> Workspace::servers() const {
    std::vector<ServerEntry> all;
    for (const InspectedHost& h : hosts_)
        all.push_back({&h, nullptr});
    for (const UnreachableServer& u : unreachable_)
        all.push_back({nullptr, &u});
    const auto location = [](const ServerEntry& e) {
        return e.host ? e.host->host.source.location : e.unreachable->location;
    };
    std::stable_sort(all.begin(), all.end(), [&](const ServerEntry& a, const ServerEntry& b) {
        return rank(location(a)) < rank(location(b));
    });
    return all;
}

qsizetype Workspace::rank(const QString& location) const {
    const QString host = sshHostOf(location);
    const qsizetype i = host.isEmpty() ? -1 : order_.indexOf(host);
    return i < 0 ? order_.size() : i;
}

void Workspace::addRunFindings(const std::vector<Finding>& findings) {
    runFindings_.insert(runFindings_.end(), findings.begin(), findings.end());
}

void Workspace::clear() {
    const QStringList order = order_;
    *this = Workspace{};
    order_ = order;
}

void Workspace::reanalyse() {
    for (InspectedHost& h : hosts_)
        h.analysis = analyzeHost(h.host);
    mergeFabric();
    mergeNvlink();
    judgeRuns();
}

// Again whenever the servers change: where GPUDirect RDMA was possible for a rank depends on its host's
// topology.
void Workspace::judgeRuns() {
    if (runs_.empty() && ncclLogs_.empty())
        return;
    std::map<QString, HostTopology> topologies;
    for (const InspectedHost& h : hosts_)
        topologies.emplace(h.host.name, h.host);
    for (JudgedRun& r : runs_)
        r.findings = recordFindings(r.record, topologies);
    for (NcclLog& l : ncclLogs_)
        l.findings = ncclTransportFindings(l.transport, ranksFromInitLines(l.transport), topologies);
}

const InspectedHost* Workspace::host(const QString& name) const {
    for (const InspectedHost& h : hosts_)
        if (h.host.name == name)
            return &h;
    return nullptr;
}

void Workspace::sortHosts() {
    if (order_.isEmpty())
        return;
    std::stable_sort(hosts_.begin(), hosts_.end(), [&](const InspectedHost& a, const InspectedHost& b) {
        return rank(a.host.source.location) < rank(b.host.source.location);
    });
}

void Workspace::mergeNvlink() {
    nvlink_ = {};
    for (const auto& [key, part] : nvlinkParts_)
        nvlink_.append(part);
    // The fabric's blocks (a topology.conf's or topology.yaml's) are the racks the design joins by NVLink.
    nvlinkFindings_ = nvlinkFindings(nvlink_, fabric_ ? fabric_->blocks : std::vector<FabricBlock>{});
}

void Workspace::mergeFabric() {
    fabric_.reset();
    fabricAnalysis_.reset();
    if (fabricParts_.empty())
        return;
    if (fabricParts_.size() == 1) {
        fabric_ = fabricParts_.begin()->second;
    } else {
        std::vector<Fabric> parts;
        for (const auto& [key, part] : fabricParts_)
            parts.push_back(part);
        fabric_ = mergeFabrics(parts);
    }
    fabricAnalysis_ = analyseFabric(*fabric_);
}

std::vector<WorkspaceFinding> Workspace::findings() const {
    std::vector<WorkspaceFinding> out;
    for (const InspectedHost& h : hosts_)
        for (const Finding& f : h.analysis.findings)
            out.push_back({h.host.name, f});
    if (fabricAnalysis_)
        for (const Finding& f : fabricAnalysis_->findings)
            out.push_back({{}, f});
    for (const JudgedRun& r : runs_)
        for (const Finding& f : r.findings)
            out.push_back({f.target.host, f});
    for (const NcclLog& l : ncclLogs_)
        for (const Finding& f : l.findings)
            out.push_back({f.target.host, f});
    for (const SavedLoadRun& r : loadRuns_)
        for (const Finding& f : r.findings)
            out.push_back({{}, f});
    for (const Finding& f : runFindings_)
        out.push_back({f.subjects.value(0).section(QLatin1Char('/'), 0, 0), f});
    for (const Finding& f : nvlinkFindings_)
        out.push_back({f.target.host, f});
    return out;
}

DiagramInput Workspace::diagramInput() const {
    DiagramInput in;
    in.title = title_;
    in.hosts = hosts_;
    in.fabric = fabric_;
    in.flaggedHosts = flagged_;
    in.checkMarks = checkMarks_;
    in.jobMarks = jobMarks_;
    in.runFindings = runFindings_;
    in.nvlink = nvlink_;
    for (const JudgedRun& r : runs_)
        in.runFindings.insert(in.runFindings.end(), r.findings.begin(), r.findings.end());
    for (const NcclLog& l : ncclLogs_)
        in.runFindings.insert(in.runFindings.end(), l.findings.begin(), l.findings.end());
    return in;
}

Session Workspace::session() const {
    Session s;
    s.title = title_;
    s.sources = raw_;
    s.flagged = flagged_;
    for (WorkspaceFinding& f : findings())
        s.findings.emplace_back(std::move(f.host), std::move(f.finding));
    return s;
}

QJsonObject Workspace::agentSnapshot(const InspectedHost& h) const {
    for (const RawSource& r : raw_)
        if (r.location == h.host.source.location) {
            const QJsonObject o = QJsonDocument::fromJson(r.content).object();
            if (o.value("type").toString() == QLatin1String("rackscope-snapshot"))
                return o;
        }
    return {};
}

} // namespace rackscope
