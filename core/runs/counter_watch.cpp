#include "counter_watch.h"

#include "protocol/protocol.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <map>

namespace rackscope {

CounterKind counterKind(const QString& counter) {
    const QString name = counter.section(QLatin1Char('/'), -1).toLower();
    // Congestion first: "rx_prio3_pause" and "np_cnp_sent" are not faults but the network pushing back.
    static const QRegularExpression congestion(QStringLiteral("pause|cnp|ecn|pfc|xmit_wait|congest"));
    static const QRegularExpression error(
        QStringLiteral("err|discard|drop|downed|out_of_sequence|out_of_buffer|timeout|retry|crc|missed|"
                       "integrity|overrun|collisions|carrier|recovery|nak"));
    static const QRegularExpression traffic(QStringLiteral("data$|bytes|packets|pkts$|_octets"));
    if (congestion.match(name).hasMatch())
        return CounterKind::Congestion;
    if (error.match(name).hasMatch())
        return CounterKind::Error;
    if (traffic.match(name).hasMatch())
        return CounterKind::Traffic;
    return CounterKind::Other;
}

QString counterKindName(CounterKind kind) {
    switch (kind) {
    case CounterKind::Error:
        return QStringLiteral("error");
    case CounterKind::Congestion:
        return QStringLiteral("congestion");
    case CounterKind::Traffic:
        return QStringLiteral("traffic");
    case CounterKind::Other:
        break;
    }
    return QStringLiteral("other");
}

std::vector<CounterChange> counterChanges(const QString& host, const QJsonObject& before,
                                          const QJsonObject& after) {
    std::vector<CounterChange> out;
    const QJsonObject b = before.value("counters").toObject(), a = after.value("counters").toObject();
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (!b.contains(it.key()))
            continue;
        const QJsonValue va = it.value().toObject().value("value"),
                         vb = b.value(it.key()).toObject().value("value");
        if (!va.isDouble() || !vb.isDouble())
            continue;
        CounterChange c;
        c.host = host;
        c.counter = it.key();
        c.kind = counterKind(it.key());
        const qint64 x = va.toInteger(), y = vb.toInteger();
        if (x >= y)
            c.delta = x - y;
        else
            c.note = QCoreApplication::translate(
                         "rackscope", "went back from %1 to %2 (cleared, wrapped or a driver reload)")
                         .arg(y)
                         .arg(x);
        if (it.value().toObject().value("note").toString() == QLatin1String("saturated"))
            c.note = QCoreApplication::translate("rackscope", "saturated: a lower bound");
        out.push_back(c);
    }
    return out;
}

std::vector<Finding> counterFindings(const std::vector<CounterChange>& changes) {
    std::vector<Finding> out;
    for (const CounterChange& c : changes) {
        if (!c.delta || *c.delta == 0)
            continue;
        // "ib/mlx5_0/1/symbol_error" concerns host/mlx5_0; "net/eth0/rx_errors" host/eth0.
        const QString device = c.counter.section(QLatin1Char('/'), 1, 1);
        const QStringList subjects{c.host, c.host + QLatin1Char('/') + device};
        const FindingTarget target = serverTarget(c.host, {device});
        if (c.kind == CounterKind::Error)
            out.push_back(makeFinding(
                Severity::Warning, QLatin1String(codes::kRunCounterErrors), subjects,
                {QT_TRANSLATE_NOOP("rackscope", "%1: %2 rose by %3 during the run%4"),
                 {c.host, c.counter, QString::number(*c.delta),
                  c.note.isEmpty() ? QString() : QStringLiteral(" (") + c.note + QLatin1Char(')')}},
                target));
        else if (c.kind == CounterKind::Congestion)
            out.push_back(makeFinding(
                Severity::Info, QLatin1String(codes::kRunCounterCongestion), subjects,
                {QT_TRANSLATE_NOOP(
                     "rackscope",
                     "%1: %2 rose by %3 during the run: the network pushed back (PFC pause, ECN/CNP)"),
                 {c.host, c.counter, QString::number(*c.delta)}},
                target));
    }
    return out;
}

CounterWatch::CounterWatch(FleetOptions options, QObject* parent)
    : QObject(parent), fleet_(std::make_unique<Fleet>(std::move(options))) {
    qRegisterMetaType<std::vector<rackscope::HostResult>>();
}

CounterWatch::~CounterWatch() = default;

void CounterWatch::sample(const QStringList& hosts, const QString& when) {
    auto results = std::make_shared<std::map<QString, HostResult>>();
    auto c1 = std::make_shared<QMetaObject::Connection>(), c2 = std::make_shared<QMetaObject::Connection>();
    *c1 = connect(fleet_.get(), &Fleet::hostFinished, this,
                  [results](const HostResult& r) { (*results)[r.host] = r; });
    *c2 = connect(fleet_.get(), &Fleet::finished, this, [this, results, hosts, when, c1, c2] {
        disconnect(*c1);
        disconnect(*c2);
        std::vector<HostResult> ordered;
        for (const QString& h : hosts)
            ordered.push_back((*results)[h]);
        emit sampled(when, ordered);
    });
    // One sample over 50 ms: its values are what counts here, not its rate.
    fleet_->request(hosts, QString::fromLatin1(rsagent::protocol::method::kSample),
                    QJsonObject{{"interval_ms", 50}, {"count", 1}});
}

} // namespace rackscope
