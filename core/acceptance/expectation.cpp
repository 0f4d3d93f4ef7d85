#include "expectation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace rackscope {
namespace {

// The keys that may carry patterns: the families whose last part is the interface's name.
bool knownKey(const QString& key) {
    if (!factKind(key).check.isEmpty())
        return true;
    for (const char* family : {"mtu.", "qos.", "lldp."})
        if (key.startsWith(QLatin1String(family)) && key.size() > int(qstrlen(family)))
            return true;
    return false;
}

QString valueText(const QJsonValue& v) {
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    return v.isString() ? v.toString() : QString();
}

} // namespace

bool wildcardMatch(const QString& pattern, const QString& text) {
    QString rx;
    for (const QChar c : pattern)
        rx += c == u'*'   ? QStringLiteral(".*")
              : c == u'?' ? QStringLiteral(".")
                          : QRegularExpression::escape(c);
    return QRegularExpression(QRegularExpression::anchoredPattern(rx)).match(text).hasMatch();
}

std::optional<Expectation> readExpectation(const QByteArray& json, const QString& location, QString* error) {
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1: not JSON (%2 at byte %3)")
                     .arg(location, parse.errorString())
                     .arg(parse.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: an expectation is a JSON object of fact keys and values").arg(location);
        return std::nullopt;
    }
    Expectation e;
    e.location = location;
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!knownKey(it.key())) {
            *error = QStringLiteral("%1: \"%2\" is not a fact rackscope checks (see docs/acceptance.md)")
                         .arg(location, it.key());
            return std::nullopt;
        }
        Expectation::Rule rule{it.key(), {}};
        const QJsonArray list = it.value().isArray() ? it.value().toArray() : QJsonArray{it.value()};
        for (const QJsonValue& v : list)
            rule.allowed << valueText(v);
        if (rule.allowed.isEmpty() || rule.allowed.contains(QString())) {
            *error = QStringLiteral("%1: \"%2\": give a number, a string or a list of them")
                         .arg(location, it.key());
            return std::nullopt;
        }
        e.rules.push_back(std::move(rule));
    }
    return e;
}

} // namespace rackscope
