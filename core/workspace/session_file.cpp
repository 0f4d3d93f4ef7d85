#include "session_file.h"

#include "report/finding_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

namespace rackscope {
namespace {

const char kFormat[] = "rackscope-session";

bool isUtf8(const QByteArray& bytes) {
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    (void)QString(decoder(bytes));
    return !decoder.hasError();
}

} // namespace

bool looksLikeSession(const QByteArray& content) {
    const QByteArray head = content.left(256);
    return head.trimmed().startsWith('{') && head.contains("\"rackscope-session\"");
}

QByteArray sessionToJson(const Session& s) {
    QJsonArray sources;
    for (const RawSource& r : s.sources) {
        QJsonObject o{{"location", r.location}};
        if (!r.host.isEmpty())
            o.insert("host", r.host);
        if (isUtf8(r.content))
            o.insert("content", QString::fromUtf8(r.content));
        else
            o.insert("content_base64", QString::fromLatin1(r.content.toBase64()));
        sources.append(o);
    }
    QJsonArray findings;
    for (const auto& [host, f] : s.findings) {
        QJsonObject o = findingToJson(f);
        o.insert("host", host);
        findings.append(o);
    }
    const QJsonObject doc{{"version", 1},        {"title", s.title},
                          {"saved", s.saved},    {"rackscope", s.version},
                          {"sources", sources},  {"flagged", QJsonArray::fromStringList(s.flagged)},
                          {"findings", findings}};
    // QJsonDocument sorts its keys; the format goes first, so the file says what it is in its first line.
    const QByteArray json = QJsonDocument(doc).toJson(QJsonDocument::Indented);
    return "{\n    \"format\": \"" + QByteArray(kFormat) + "\",\n" + json.mid(json.indexOf('\n') + 1);
}

SessionLoad loadSession(const QByteArray& json, const QString& location) {
    SessionLoad out;
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError) {
        out.error = QStringLiteral("malformed JSON at offset %1: %2 (the file may be cut short)")
                        .arg(pe.offset)
                        .arg(pe.errorString());
        return out;
    }
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value("format").toString() != QLatin1String(kFormat)) {
        out.error = QStringLiteral("not a rackscope session (no \"format\": \"rackscope-session\")");
        return out;
    }
    if (root.value("version").toInt() != 1) {
        out.error = QStringLiteral("session version %1; this rackscope reads version 1")
                        .arg(root.value("version").toVariant().toString());
        return out;
    }
    out.title = root.value("title").toString().left(200);
    for (const QJsonValue& v : root.value("flagged").toArray())
        if (v.isString())
            out.flagged << v.toString().left(256);
    QStringList problems;
    const QJsonArray sources = root.value("sources").toArray();
    if (!root.value("sources").isArray())
        problems << QStringLiteral("no \"sources\" list");
    for (qsizetype i = 0; i < sources.size(); ++i) {
        const QJsonObject o = sources[i].toObject();
        RawSource r;
        r.location = o.value("location").toString();
        r.host = o.value("host").toString().left(256);
        if (o.value("content").isString())
            r.content = o.value("content").toString().toUtf8();
        else if (o.value("content_base64").isString())
            r.content = QByteArray::fromBase64(o.value("content_base64").toString().toLatin1());
        else {
            problems << QStringLiteral("source %1%2 has no content")
                            .arg(i + 1)
                            .arg(r.location.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(r.location));
            continue;
        }
        if (r.location.isEmpty())
            r.location = QStringLiteral("%1, source %2").arg(location).arg(i + 1);
        out.sources.push_back(std::move(r));
    }
    out.error = problems.join(QStringLiteral("; "));
    return out;
}

} // namespace rackscope
