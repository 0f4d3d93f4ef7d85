#include "run_record.h"

#include "import/input_file.h"
#include "model/json_values.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace rackscope {
namespace {

constexpr qint64 kMaxRecordBytes = 512LL << 20;

QJsonObject passJson(const NcclTestsPass& p) {
    return {{"time_us", p.timeUs}, {"algbw", p.algbw}, {"busbw", p.busbw}, {"wrong", orNull(p.wrong)}};
}

QString fileSafe(QString text) {
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    return text.replace(unsafe, QStringLiteral("_")).left(80);
}

} // namespace

QString RunRecorder::open(const QString& directory, const RunMeta& meta) {
    if (!QDir().mkpath(directory))
        return QStringLiteral("cannot create the results folder %1").arg(directory);
    const QDateTime started = meta.started.isValid() ? meta.started : QDateTime::currentDateTime();
    startedMs_ = started.toMSecsSinceEpoch();
    const QString base = QDir(directory).filePath(started.toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                                                  QLatin1Char('-') + fileSafe(meta.label));
    QString name = base + QStringLiteral(".rsrun");
    for (int n = 2; QFile::exists(name); ++n)
        name = base + QStringLiteral("-%1.rsrun").arg(n);
    file_.setFileName(name);
    if (!file_.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return QStringLiteral("cannot write %1: %2").arg(name, file_.errorString());
    QJsonArray environment;
    for (const auto& [k, v] : meta.environment)
        environment.append(QJsonArray{k, v});
    write({{"entry", "run"},
           {"format", kRunRecordFormat},
           {"kind", meta.kind},
           {"label", meta.label},
           {"command", meta.command},
           {"argv", QJsonArray::fromStringList(meta.argv)},
           {"hosts", QJsonArray::fromStringList(meta.hosts)},
           {"launch_host", meta.launchHost},
           {"environment", environment},
           {"started", started.toString(Qt::ISODateWithMs)}});
    return {};
}

void RunRecorder::write(QJsonObject entry) {
    if (!file_.isOpen())
        return;
    entry.insert("t", double(QDateTime::currentMSecsSinceEpoch() - startedMs_) / 1000.0);
    file_.write(QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n');
    file_.flush(); // each line reaches the kernel as it arrives
}

void RunRecorder::line(const QString& text) {
    write({{"entry", "line"}, {"text", text}});
}

void RunRecorder::row(const NcclTestsRow& r) {
    write({{"entry", "row"},
           {"size", r.size},
           {"count", r.count},
           {"type", r.type},
           {"redop", r.redop},
           {"root", orNull(r.root)},
           {"oop", passJson(r.outOfPlace)},
           {"ip", passJson(r.inPlace)}});
}

void RunRecorder::counters(const QString& host, const QString& when, const QJsonObject& sample) {
    write({{"entry", "counters"}, {"host", host}, {"when", when}, {"sample", sample}});
}

void RunRecorder::finish(int exitStatus, const QString& error) {
    write({{"entry", "end"},
           {"exit_status", exitStatus},
           {"error", error},
           {"finished", QDateTime::currentDateTime().toString(Qt::ISODateWithMs)}});
    file_.close();
}

bool looksLikeRunRecord(const QByteArray& content) {
    const QJsonObject o = QJsonDocument::fromJson(content.left(content.indexOf('\n'))).object();
    return o.value("entry").toString() == QLatin1String("run") &&
           o.value("format").toString() == QLatin1String(kRunRecordFormat);
}

RunRecord loadRunRecord(const QString& path, QString* error) {
    QByteArray bytes;
    if (const QString why = readBoundedFile(path, kMaxRecordBytes, &bytes); !why.isEmpty()) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, why);
        RunRecord rec;
        rec.path = path;
        return rec;
    }
    return parseRunRecord(bytes, path, error);
}

RunRecord parseRunRecord(const QByteArray& bytes, const QString& path, QString* error) {
    RunRecord rec;
    rec.path = path;
    const QList<QByteArray> lines = bytes.split('\n');
    NcclTestsParser parser;
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed().isEmpty())
            continue;
        QJsonParseError pe{};
        const QJsonObject o = QJsonDocument::fromJson(lines[i], &pe).object();
        const QString entry = o.value("entry").toString();
        if (i == 0) {
            if (pe.error != QJsonParseError::NoError || entry != QLatin1String("run") ||
                o.value("format").toString() != QLatin1String(kRunRecordFormat)) {
                *error =
                    QStringLiteral("%1 is not a rackscope run record (its first line is not a \"%2\" header)")
                        .arg(path, QLatin1String(kRunRecordFormat));
                return rec;
            }
            rec.meta.kind = o.value("kind").toString();
            rec.meta.label = o.value("label").toString();
            rec.meta.command = o.value("command").toString();
            for (const QJsonValue& v : o.value("argv").toArray())
                rec.meta.argv << v.toString();
            for (const QJsonValue& v : o.value("hosts").toArray())
                rec.meta.hosts << v.toString();
            rec.meta.launchHost = o.value("launch_host").toString();
            for (const QJsonValue& v : o.value("environment").toArray())
                rec.meta.environment.emplace_back(v.toArray().at(0).toString(), v.toArray().at(1).toString());
            rec.meta.started = QDateTime::fromString(o.value("started").toString(), Qt::ISODateWithMs);
            continue;
        }
        if (pe.error != QJsonParseError::NoError) {
            // The last line of a record whose writer died may be cut; anything else is damage.
            rec.problems << QStringLiteral("line %1: %2%3")
                                .arg(i + 1)
                                .arg(pe.errorString(),
                                     i == lines.size() - 1 ? QStringLiteral(" (cut short)") : QString());
            continue;
        }
        if (entry == QLatin1String("line")) {
            rec.output << o.value("text").toString();
            parser.feed(o.value("text").toString().toUtf8() + '\n');
        } else if (entry == QLatin1String("counters")) {
            auto& list =
                o.value("when").toString() == QLatin1String("after") ? rec.countersAfter : rec.countersBefore;
            list.emplace_back(o.value("host").toString(), o.value("sample").toObject());
        } else if (entry == QLatin1String("end")) {
            rec.exitStatus = o.value("exit_status").toInt();
            rec.error = o.value("error").toString();
        } else if (entry != QLatin1String("row")) { // rows are there for other tools; the output is the truth
            rec.problems << QStringLiteral("line %1: an entry of unknown kind '%2'").arg(i + 1).arg(entry);
        }
    }
    parser.finish();
    rec.run = parser.run();
    return rec;
}

QStringList listRunRecords(const QString& directory) {
    QStringList out;
    for (const QFileInfo& fi :
         QDir(directory).entryInfoList({QStringLiteral("*.rsrun")}, QDir::Files, QDir::Name | QDir::Reversed))
        out << fi.filePath();
    return out;
}

QString defaultResultsDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/rackscope/runs");
}

QByteArray runRowsToCsv(const NcclTestsRun& run) {
    QByteArray out = "size,count,type,redop,root,oop_time_us,oop_algbw_gbs,oop_busbw_gbs,oop_wrong,ip_time_"
                     "us,ip_algbw_gbs,ip_busbw_gbs,ip_wrong\n";
    auto opt = [](const auto& v) { return v ? QByteArray::number(*v) : QByteArray(); };
    auto pass = [&](const NcclTestsPass& p) {
        return QByteArray::number(p.timeUs) + ',' + QByteArray::number(p.algbw) + ',' +
               QByteArray::number(p.busbw) + ',' + opt(p.wrong);
    };
    for (const NcclTestsRow& r : run.rows)
        out += QByteArray::number(r.size) + ',' + QByteArray::number(r.count) + ',' + r.type.toUtf8() + ',' +
               r.redop.toUtf8() + ',' + opt(r.root) + ',' + pass(r.outOfPlace) + ',' + pass(r.inPlace) + '\n';
    return out;
}

} // namespace rackscope
