#pragma once
// A saved session ("rackscope-session", version 1, JSON): every source the
// window showed, byte for byte (topology files, agent snapshots, fabric
// sources) with the server each one is, the hosts a straggler hunt flagged,
// and the findings as they were, for a colleague reading it without
// rackscope. Opening it runs the analysis again on the same facts, so what
// is drawn always follows from what is in the file.
#include "analysis/finding.h"
#include "raw_source.h"

#include <QStringList>
#include <vector>

namespace rackscope {

constexpr qint64 kMaxSessionBytes = 512LL * 1024 * 1024;

bool looksLikeSession(const QByteArray& content);

struct Session {
    QString title;
    QString saved;   // ISO date and time
    QString version; // the rackscope that wrote it
    std::vector<RawSource> sources;
    QStringList flagged;
    std::vector<std::pair<QString, Finding>> findings; // (host, finding); host empty for the fabric's
};

QByteArray sessionToJson(const Session& s);

struct SessionLoad {
    QString title;
    std::vector<RawSource> sources;
    QStringList flagged;
    QString error; // what was wrong; the entries that could be read are still there
};

SessionLoad loadSession(const QByteArray& json, const QString& location);

} // namespace rackscope
