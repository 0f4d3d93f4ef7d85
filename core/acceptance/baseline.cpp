#include "baseline.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace rackscope {
namespace {
constexpr char kType[] = "rackscope-baseline";
constexpr int kFormat = 1;
} // namespace

QByteArray baselineToJson(const std::vector<HostFacts>& hosts,
                          const std::map<QString, std::map<QString, double>>& measured,
                          const QDateTime& savedAt) {
    QJsonObject all, figures;
    for (const HostFacts& h : hosts) {
        QJsonObject facts;
        for (const Fact& f : h.facts)
            facts.insert(f.key, f.text());
        all.insert(h.host, facts);
    }
    for (const auto& [host, values] : measured) {
        QJsonObject o;
        for (const auto& [key, value] : values)
            o.insert(key, value);
        figures.insert(host, o);
    }
    QJsonObject doc{{"type", QLatin1String(kType)},
                    {"format", kFormat},
                    {"saved_at", savedAt.toUTC().toString(Qt::ISODate)},
                    {"hosts", all}};
    if (!figures.isEmpty())
        doc.insert("measured", figures); // an addition within format 1: an older reader ignores it
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

std::optional<Baseline> readBaseline(const QByteArray& json, const QString& location, QString* error) {
    QJsonParseError parse;
    const QJsonObject o = QJsonDocument::fromJson(json, &parse).object();
    if (parse.error != QJsonParseError::NoError || o.value("type").toString() != QLatin1String(kType)) {
        *error = QStringLiteral("%1: not a rackscope baseline (write one with check --save-baseline)")
                     .arg(location);
        return std::nullopt;
    }
    if (o.value("format").toInt() != kFormat) {
        *error = QStringLiteral("%1: baseline format %2; this rackscope reads format %3")
                     .arg(location)
                     .arg(o.value("format").toInt())
                     .arg(kFormat);
        return std::nullopt;
    }
    Baseline b;
    b.location = location;
    b.savedAt = QDateTime::fromString(o.value("saved_at").toString(), Qt::ISODate);
    const QJsonObject hosts = o.value("hosts").toObject();
    for (auto h = hosts.begin(); h != hosts.end(); ++h) {
        const QJsonObject facts = h.value().toObject();
        for (auto f = facts.begin(); f != facts.end(); ++f)
            if (f.value().isString())
                b.facts[h.key()][f.key()] = f.value().toString();
    }
    const QJsonObject measured = o.value("measured").toObject();
    for (auto h = measured.begin(); h != measured.end(); ++h) {
        const QJsonObject values = h.value().toObject();
        for (auto v = values.begin(); v != values.end(); ++v)
            if (v.value().isDouble() && v.value().toDouble() >= 0)
                b.measured[h.key()][v.key()] = v.value().toDouble();
    }
    if (b.facts.empty() && b.measured.empty()) {
        *error = QStringLiteral("%1: the baseline names no server").arg(location);
        return std::nullopt;
    }
    return b;
}

} // namespace rackscope
