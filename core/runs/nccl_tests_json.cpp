#include "nccl_tests_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rackscope {
namespace {

// The report writes every number with %lf, NaN as the string "nan", and a
// pass without a data check as "nwrong": null.
std::optional<double> number(const QJsonValue& v) {
    if (v.isDouble())
        return v.toDouble();
    return std::nullopt;
}

// NCCL_VERSION_CODE since 2.9: major*10000 + minor*100 + patch.
QString versionText(int code) {
    if (code < 20900)
        return QString::number(code);
    return QStringLiteral("%1.%2.%3").arg(code / 10000).arg(code / 100 % 100).arg(code % 100);
}

bool readPass(const QJsonValue& v, NcclTestsPass* p) {
    const QJsonObject o = v.toObject();
    const auto t = number(o.contains(QLatin1String("time")) ? o.value("time") : o.value("cpu_time"));
    const auto a = number(o.value("alg_bw")), b = number(o.value("bus_bw"));
    if (!t || !a || !b)
        return false;
    p->timeUs = *t;
    p->algbw = *a;
    p->busbw = *b;
    if (const auto w = number(o.value("nwrong")))
        p->wrong = qint64(*w);
    return true;
}

void readConfig(const QJsonObject& config, NcclTestsRun* run) {
    // The same names the text header uses, so both layouts report alike.
    static const std::pair<const char*, const char*> kKeys[] = {{"nthreads", "nThread"},
                                                                {"ngpus", "nGpus"},
                                                                {"minimum_bytes", "minBytes"},
                                                                {"maximum_bytes", "maxBytes"},
                                                                {"warmup_iters", "warmup iters"},
                                                                {"iterations", "iters"},
                                                                {"aggregated_iterations", "agg iters"},
                                                                {"validation", "validation"},
                                                                {"graph", "graph"}};
    for (const auto& [json, text] : kKeys)
        if (config.value(QLatin1String(json)).isDouble())
            run->header[QLatin1String(text)] = QString::number(config.value(QLatin1String(json)).toInteger());
    if (config.value("step_factor").isDouble())
        run->header[QStringLiteral("step")] =
            QStringLiteral("%1(factor)").arg(config.value("step_factor").toInteger());
    else if (config.value("step_bytes").isDouble())
        run->header[QStringLiteral("step")] =
            QStringLiteral("%1(bytes)").arg(config.value("step_bytes").toInteger());
    for (const QJsonValue& d : config.value("devices").toArray()) {
        const QJsonObject o = d.toObject();
        NcclTestsRank r;
        r.rank = o.value("rank").toInt();
        if (o.value("group").isDouble())
            r.group = o.value("group").toInt();
        r.pid = o.value("pid").toInteger();
        r.host = o.value("hostname").toString();
        r.device = o.value("device").toInt();
        r.pci = o.value("device_hex").toString();
        r.gpu = o.value("device_info").toString().trimmed();
        run->ranks.push_back(r);
    }
}

} // namespace

bool looksLikeNcclTestsJson(const QByteArray& bytes) {
    for (const char c : bytes) {
        if (c == '{')
            return true;
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return false;
    }
    return false;
}

NcclTestsRun parseNcclTestsJson(const QByteArray& bytes) {
    NcclTestsRun run;
    auto fail = [&](const QString& message) {
        run.diagnostics.push_back({1, QString::fromUtf8(bytes.left(80)), message});
        return run;
    };
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not a complete JSON document (%1 at byte %2; a run cut short leaves "
                                   "nccl-tests' report unclosed)")
                        .arg(error.errorString())
                        .arg(error.offset));
    const QJsonObject root = doc.object();
    if (!root.value("results").isArray() || !root.value("config").isObject())
        return fail(QStringLiteral("JSON, but not an nccl-tests -J report (no config and results)"));
    readConfig(root.value("config").toObject(), &run);
    if (root.value("nccl_version").isDouble())
        run.ncclVersion = versionText(root.value("nccl_version").toInt());
    int index = 0;
    for (const QJsonValue& v : root.value("results").toArray()) {
        ++index;
        const QJsonObject o = v.toObject();
        NcclTestsRow row;
        row.line = index; // the result's position, as the text layout gives a line
        row.size = o.value("size").toInteger(-1);
        row.count = o.value("count").toInteger(-1);
        row.type = o.value("type").toString();
        row.redop = o.value("redop").toString().trimmed();
        bool rootOk = false;
        const int rootValue = o.value("root").toString().trimmed().toInt(&rootOk);
        if (rootOk)
            row.root = rootValue;
        // In-place only results (trace replay) carry "out_of_place": null.
        const bool oop = o.value("out_of_place").isObject();
        if (row.size < 0 || row.count < 0 || (oop && !readPass(o.value("out_of_place"), &row.outOfPlace)) ||
            !readPass(o.value("in_place"), &row.inPlace)) {
            run.diagnostics.push_back(
                {index, QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact).left(200)),
                 QStringLiteral("a result whose numbers cannot be read")});
            continue;
        }
        run.rows.push_back(row);
    }
    run.rootColumn = true;
    const QJsonObject bounds = root.value("out_of_bounds").toObject();
    if (bounds.value("count").isDouble())
        run.outOfBounds = bounds.value("count").toInteger();
    run.avgBusbw = number(root.value("average_bus_bandwidth").toObject().value("bandwidth"));
    for (const QJsonValue& e : root.value("errors").toArray())
        if (!e.toString().isEmpty())
            run.diagnostics.push_back({0, e.toString(), QStringLiteral("NCCL reported an error")});
    return run;
}

NcclTestsRun parseNcclTestsFile(const QByteArray& bytes) {
    return looksLikeNcclTestsJson(bytes) ? parseNcclTestsJson(bytes) : parseNcclTestsOutput(bytes);
}

} // namespace rackscope
