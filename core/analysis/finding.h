#pragma once
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

namespace rackscope {

enum class Severity { Error, Warning, Info };
QString severityName(Severity s); // "error", "warning", "info"
QString severityText(Severity s); // the same in the reader's language, for a window

// A finding's sentence before it is rendered: its English source text, marked for translation with
// QT_TRANSLATE_NOOP("rackscope", ...), with %1..%n for the values in `args`. The face that shows the
// finding renders it: the CLI and JSON in English (Finding::message), the window in its language
// at display time (findingText).
struct FindingText {
    QByteArray source; // empty: no text of rackscope's (Finding::message is a source's own words)
    QStringList args;
};

// What a finding is about, for a face to point at it: the server, its devices ("GPU0", "mlx5_0"),
// in the fabric the links (indexes into Fabric::links) and nodes (FabricNode ids) it concerns, and
// other servers it concerns (the far end of a slow pair).
struct FindingTarget {
    QString host;
    QStringList devices;
    std::vector<std::size_t> links;
    QStringList nodes;
    QStringList peers;
};

// The target of a finding on one server, at some of its devices.
inline FindingTarget serverTarget(QString host, QStringList devices = {}) {
    FindingTarget t;
    t.host = std::move(host);
    t.devices = std::move(devices);
    return t;
}

// A verdict a person can act on: a stable code, the devices it concerns,
// and a sentence that says what is wrong and why it matters.
struct Finding {
    Severity severity = Severity::Info;
    QString code;
    QStringList subjects; // as the sentence names them
    QString message;      // the sentence in English
    FindingText text;     // its source and values
    FindingTarget target;
};

// A finding whose message is `text` rendered in English.
Finding makeFinding(Severity severity, const QString& code, QStringList subjects, FindingText text,
                    FindingTarget target = {});
// `source` with %1..%99 replaced by `args` in one pass (a value that holds "%2" stays as it is).
QString fillText(const QString& source, const QStringList& args);
// The finding's sentence in the language installed now.
QString findingText(const Finding& f);

} // namespace rackscope
