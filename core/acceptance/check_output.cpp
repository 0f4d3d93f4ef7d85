#include "check_output.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QXmlStreamWriter>

namespace rackscope {
namespace {

QString title(const QString& id) {
    const CheckInfo* c = checkInfo(id);
    return c ? QString::fromLatin1(c->title) : id;
}

QString itemLine(const CheckItem& i) {
    return i.subject.isEmpty() ? i.evidence : QStringLiteral("[%1] %2").arg(i.subject, i.evidence);
}

int count(const RackCheck& rack, Verdict v) {
    return int(std::count_if(rack.servers.begin(), rack.servers.end(),
                             [v](const ServerCheck& s) { return s.verdict == v; }));
}

} // namespace

QString rackCheckText(const RackCheck& rack) {
    QString out;
    QTextStream t(&out);
    t << "Rack check of " << rack.servers.size() << " servers, " << rack.checkedAt.toString(Qt::ISODate)
      << "\n";
    if (!rack.expectation.isEmpty())
        t << "  expected: " << rack.expectation << "\n";
    if (!rack.baseline.isEmpty())
        t << "  baseline: " << rack.baseline << "\n";
    t << "  pass " << count(rack, Verdict::Pass) << ", warn " << count(rack, Verdict::Warn) << ", fail "
      << count(rack, Verdict::Fail) << ", unknown " << count(rack, Verdict::Unknown) << "\n\n";
    for (const ServerCheck& s : rack.servers) {
        t << verdictName(s.verdict).toUpper().leftJustified(8) << s.host << "  (" << s.source << ")\n";
        for (const CheckResult& c : s.checks) {
            if (c.verdict == Verdict::Pass)
                continue;
            t << "    " << verdictName(c.verdict).leftJustified(8) << c.id << ": " << title(c.id) << "\n";
            for (const CheckItem& i : c.items) {
                t << "        " << itemLine(i) << "\n";
                if (!i.action.isEmpty())
                    t << "        -> " << i.action << "\n";
            }
        }
    }
    if (!rack.drift.empty()) {
        t << "\nDrift across the rack:\n";
        for (const Drift& d : rack.drift)
            for (const QString& s : d.sentences)
                t << "  " << d.key << ": " << s << "\n";
    }
    for (const QString& n : rack.notes)
        t << "note: " << n << "\n";
    t << "\nVerdict: " << verdictName(rack.verdict()) << "\n";
    return out;
}

QJsonObject rackCheckJson(const RackCheck& rack) {
    QJsonArray servers;
    for (const ServerCheck& s : rack.servers) {
        QJsonArray checks;
        for (const CheckResult& c : s.checks) {
            QJsonArray items;
            for (const CheckItem& i : c.items)
                items.append(
                    QJsonObject{{"verdict", verdictName(i.verdict)},
                                {"subject", i.subject.isEmpty() ? QJsonValue() : QJsonValue(i.subject)},
                                {"evidence", i.evidence},
                                {"action", i.action.isEmpty() ? QJsonValue() : QJsonValue(i.action)}});
            const CheckInfo* info = checkInfo(c.id);
            checks.append(QJsonObject{{"id", c.id},
                                      {"title", title(c.id)},
                                      {"severity", info ? severityName(info->severity) : QString()},
                                      {"verdict", verdictName(c.verdict)},
                                      {"items", items}});
        }
        QJsonObject server{
            {"host", s.host}, {"source", s.source}, {"verdict", verdictName(s.verdict)}, {"checks", checks}};
        // What the active checks measured: "rdma.mlx5_0" in Gb/s, "nccl.all_reduce" bus bandwidth in GB/s.
        if (const auto m = rack.measured.find(s.host); m != rack.measured.end()) {
            QJsonObject figures;
            for (const auto& [key, value] : m->second)
                figures.insert(key, value);
            server.insert("measured", figures);
        }
        servers.append(server);
    }
    QJsonArray drift;
    for (const Drift& d : rack.drift) {
        QJsonArray groups;
        for (const auto& [value, hosts] : d.groups)
            groups.append(QJsonObject{{"value", value}, {"servers", QJsonArray::fromStringList(hosts)}});
        drift.append(QJsonObject{{"key", d.key},
                                 {"check", d.check},
                                 {"majority", d.majority ? QJsonValue(d.groups.front().first) : QJsonValue()},
                                 {"groups", groups},
                                 {"sentences", QJsonArray::fromStringList(d.sentences)}});
    }
    return QJsonObject{
        {"type", "rackscope-check"},
        {"format", 1},
        {"checked_at", rack.checkedAt.toString(Qt::ISODate)},
        {"expectation", rack.expectation.isEmpty() ? QJsonValue() : QJsonValue(rack.expectation)},
        {"baseline", rack.baseline.isEmpty() ? QJsonValue() : QJsonValue(rack.baseline)},
        {"verdict", verdictName(rack.verdict())},
        {"servers", servers},
        {"drift", drift},
        {"notes", QJsonArray::fromStringList(rack.notes)}};
}

QByteArray rackCheckJUnit(const RackCheck& rack) {
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("rackscope check"));
    for (const ServerCheck& s : rack.servers) {
        int failures = 0, skipped = 0;
        for (const CheckResult& c : s.checks) {
            failures += c.verdict == Verdict::Fail;
            skipped += c.verdict == Verdict::Unknown;
        }
        w.writeStartElement(QStringLiteral("testsuite"));
        w.writeAttribute(QStringLiteral("name"), s.host);
        w.writeAttribute(QStringLiteral("tests"), QString::number(s.checks.size()));
        w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
        w.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
        w.writeAttribute(QStringLiteral("skipped"), QString::number(skipped));
        w.writeAttribute(QStringLiteral("timestamp"), rack.checkedAt.toString(Qt::ISODate));
        for (const CheckResult& c : s.checks) {
            w.writeStartElement(QStringLiteral("testcase"));
            w.writeAttribute(QStringLiteral("classname"), s.host);
            w.writeAttribute(QStringLiteral("name"), c.id);
            QStringList lines;
            for (const CheckItem& i : c.items)
                lines << itemLine(i) +
                             (i.action.isEmpty() ? QString() : QStringLiteral("\n  -> ") + i.action);
            const QString text = lines.join(u'\n');
            if (c.verdict == Verdict::Fail) {
                w.writeStartElement(QStringLiteral("failure"));
                w.writeAttribute(QStringLiteral("type"), c.id);
                w.writeAttribute(QStringLiteral("message"),
                                 c.items.empty() ? c.id : itemLine(c.items.front()));
                w.writeCharacters(text);
                w.writeEndElement();
            } else if (c.verdict == Verdict::Unknown) {
                w.writeStartElement(QStringLiteral("skipped"));
                w.writeAttribute(QStringLiteral("message"), text);
                w.writeEndElement();
            } else {
                w.writeTextElement(QStringLiteral("system-out"),
                                   verdictName(c.verdict) + QLatin1String(": ") + text);
            }
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

} // namespace rackscope
