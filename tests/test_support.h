#pragma once
// Helpers shared by the tests: where the real fixtures are, and a loader
// that returns a host with its analysis.
#include "analysis/host_analysis.h"
#include "import/topology_loader.h"
#include "runs/run_record.h"
#include "workspace/sources.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTest>

namespace rackscope::test {

inline QString fixturesDir() {
    return QStringLiteral(RACKSCOPE_FIXTURES_DIR);
}
inline QString fixture(const QString& name) {
    return fixturesDir() + QLatin1Char('/') + name;
}

inline QByteArray fixtureBytes(const QString& name) {
    QFile f(fixture(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

#ifdef RACKSCOPE_INCOMING_FIXTURES_DIR
// Captures for the readers being built now (../shared/fixtures/incoming), read in place.
inline QString incoming(const QString& name) {
    return QStringLiteral(RACKSCOPE_INCOMING_FIXTURES_DIR) + QLatin1Char('/') + name;
}
inline QByteArray incomingBytes(const QString& name) {
    QFile f(incoming(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
#endif

// Every fixture whose name matches glob; empty (and the caller fails) when the folder is missing.
inline QStringList fixtures(const QString& glob) {
    return QDir(fixturesDir()).entryList({glob}, QDir::Files, QDir::Name);
}

// Fixtures read the way the window and `export` read files (topologies, fabric sources), by name.
inline LoadedSources loadFixtureSources(const QStringList& names) {
    QStringList paths;
    for (const QString& n : names)
        paths << fixture(n);
    return loadSources(paths);
}

struct Loaded {
    HostTopology host;
    HostAnalysis analysis;
    QString error;
    bool ok() const { return error.isEmpty(); }

    QString path(const QString& a, const QString& b) const {
        for (const auto& p : analysis.gpuGpu)
            if ((p.a == a && p.b == b) || (p.a == b && p.b == a))
                return p.path ? pathTypeName(*p.path, p.nvlinks) : QStringLiteral("?");
        if (const auto* p = analysis.pair(a, b))
            return p->path ? pathTypeName(*p->path) : QStringLiteral("?");
        if (const auto* p = analysis.pair(b, a))
            return p->path ? pathTypeName(*p->path) : QStringLiteral("?");
        return QStringLiteral("-");
    }
    QString ncclNic(const QString& gpu) const {
        for (const auto& [g, n] : analysis.ncclNic)
            if (g == gpu)
                return n;
        return {};
    }
    bool hasFinding(const QString& code, const QString& subject = {}) const {
        for (const auto& f : analysis.findings)
            if (f.code == code && (subject.isEmpty() || f.subjects.contains(subject)))
                return true;
        return false;
    }
};

inline Loaded load(const QString& fixtureName) {
    ImportResult r = loadTopologyFile(fixture(fixtureName));
    if (!r.host)
        return {{}, {}, r.error};
    HostAnalysis a = analyzeHost(*r.host);
    return {std::move(*r.host), std::move(a), {}};
}

// A saved run as the runner writes it: the real nccl-tests output `outputFixture`, `host`'s `counter` going
// from `before` to `after` around it, and its end. The record's path, or empty when it could not be written.
struct RecordedCounter {
    QString host, counter;
    qint64 before = 0, after = 0;
};
inline QString writeRunRecord(const QString& dir, const QString& label, const QStringList& hosts,
                              const QString& outputFixture, const RecordedCounter& c, int exitStatus,
                              const QString& error) {
    RunRecorder r;
    RunMeta meta;
    meta.label = label;
    meta.hosts = hosts;
    if (!r.open(dir, meta).isEmpty())
        return {};
    for (const QByteArray& line : fixtureBytes(outputFixture).split('\n'))
        r.line(QString::fromUtf8(line));
    const auto sample = [&](qint64 v) {
        return QJsonObject{{"counters", QJsonObject{{c.counter, QJsonObject{{"value", v}}}}}};
    };
    r.counters(c.host, QStringLiteral("before"), sample(c.before));
    r.counters(c.host, QStringLiteral("after"), sample(c.after));
    r.finish(exitStatus, error);
    return r.path();
}

} // namespace rackscope::test
