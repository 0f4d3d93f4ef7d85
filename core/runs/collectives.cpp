#include "collectives.h"

#include <array>

namespace rackscope {
namespace {

struct Entry {
    Collective c;
    const char* name;
};
constexpr std::array<Entry, 7> kAll{{{Collective::AllReduce, "all_reduce"},
                                     {Collective::AllGather, "all_gather"},
                                     {Collective::ReduceScatter, "reduce_scatter"},
                                     {Collective::AllToAll, "alltoall"},
                                     {Collective::Broadcast, "broadcast"},
                                     {Collective::Reduce, "reduce"},
                                     {Collective::SendRecv, "sendrecv"}}};

} // namespace

std::optional<Collective> collectiveFromName(const QString& text) {
    QString name = text.section(QLatin1Char('/'), -1).toLower();
    if (name.endsWith(QLatin1String("_perf")))
        name.chop(5);
    const QString bare = QString(name).remove(QLatin1Char('_'));
    for (const Entry& e : kAll)
        if (name == QLatin1String(e.name) || bare == QString::fromLatin1(e.name).remove(QLatin1Char('_')))
            return e.c;
    return std::nullopt;
}

QString collectiveName(Collective c) {
    for (const Entry& e : kAll)
        if (e.c == c)
            return QLatin1String(e.name);
    return {};
}

QString collectiveBinary(Collective c) {
    return collectiveName(c) + QStringLiteral("_perf");
}

double busBandwidthFactor(Collective c, int n) {
    if (n <= 0)
        return 0;
    switch (c) {
    case Collective::AllReduce:
        return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
        return double(n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv:
        return 1.0;
    }
    return 0;
}

} // namespace rackscope
