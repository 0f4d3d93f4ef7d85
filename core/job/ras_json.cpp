#include "ras_json.h"

#include <QJsonArray>

namespace rackscope {
namespace {

template <typename T> QJsonValue orNull(const std::optional<T>& v) {
    return v ? QJsonValue(*v) : QJsonValue();
}

QJsonObject rankJson(const NcclRasRank& k) {
    return {{"rank", orNull(k.rank)},        {"host", k.host},
            {"pid", orNull(k.pid)},          {"gpu", orNull(k.gpu)},
            {"nvml_gpu", orNull(k.nvmlGpu)}, {"status", k.status}};
}

} // namespace

QJsonObject rasReportJson(const NcclRasReport& r) {
    QJsonArray problems;
    for (const NcclRasProblem& p : r.problems) {
        QJsonArray ranks;
        for (const NcclRasRank& k : p.ranks)
            ranks.append(rankJson(k));
        problems.append(QJsonObject{{"kind", p.kind},
                                    {"communicator", p.communicator},
                                    {"warning", p.warning},
                                    {"lines", QJsonArray::fromStringList(p.lines)},
                                    {"ranks", ranks}});
    }
    return {{"format", r.format},
            {"nccl_version", r.ncclVersion},
            {"repaired", r.repaired.isEmpty() ? QJsonValue() : QJsonValue(r.repaired)},
            {"problems", problems}};
}

QJsonObject rasVerdictJson(const RasVerdict& v) {
    const auto orEmpty = [](const QString& s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); };
    QJsonArray ranks;
    for (const RasRankPlace& p : v.ranks) {
        QJsonObject o = rankJson(p.rank);
        o.insert("problem", p.problem);
        o.insert("communicator", p.communicator);
        o.insert("state", p.state);
        o.insert("severe", p.severe);
        o.insert("server", orEmpty(p.server));
        o.insert("server_by", orEmpty(p.serverBy));
        o.insert("server_gpu", orEmpty(p.gpu));
        o.insert("server_gpu_by", orEmpty(p.gpuBy));
        o.insert("leaves", QJsonArray::fromStringList(p.leaves));
        o.insert("rails", QJsonArray::fromStringList(p.rails));
        ranks.append(o);
    }
    QJsonArray groups;
    for (const RasGroupVerdict& g : v.groups)
        groups.append(QJsonObject{{"text", g.text},
                                  {"server", orEmpty(g.server)},
                                  {"gpus", QJsonArray::fromStringList(g.gpus)},
                                  {"severe", g.severe},
                                  {"next", QJsonArray::fromStringList(g.next)}});
    return {{"healthy", v.healthy()},
            {"ranks", ranks},
            {"groups", groups},
            {"unplaced", QJsonArray::fromStringList(v.unplaced)}};
}

} // namespace rackscope
