// Straggler schedules and the verdict: every pair once in disjoint rounds,
// bisection levels, and a slow host told apart from a slow link.
#include "test_support.h"

#include "runs/straggler.h"

#include <QSet>
#include <set>

using namespace rackscope;

namespace {
QStringList hostsNamed(int n) {
    QStringList h;
    for (int i = 1; i <= n; ++i)
        h << QStringLiteral("h%1").arg(i);
    return h;
}

// Every pair of the hosts at `usual` GB/s with a little spread, except what `slower` says.
std::vector<PairBandwidth> measure(const QStringList& hosts,
                                   const std::function<double(const QString&, const QString&)>& slower) {
    std::vector<PairBandwidth> out;
    int k = 0;
    for (const auto& round : roundRobinRounds(hosts))
        for (const auto& [a, b] : round)
            out.push_back({a, b, slower(a, b) + (k++ % 5) * 0.8});
    return out;
}
} // namespace

class TestStraggler : public QObject {
    Q_OBJECT
private slots:
    void roundRobinMeetsEveryPairOnce() {
        for (int n : {2, 3, 7, 8, 33, 64}) {
            const QStringList hosts = hostsNamed(n);
            const auto rounds = roundRobinRounds(hosts);
            QCOMPARE(int(rounds.size()), n % 2 ? n : n - 1);
            std::set<std::pair<QString, QString>> met;
            for (const auto& round : rounds) {
                std::set<QString> busy;
                for (const auto& [a, b] : round) {
                    QVERIFY(busy.insert(a).second && busy.insert(b).second); // disjoint within a round
                    QVERIFY(met.insert(std::minmax(a, b)).second);           // never twice
                }
                QCOMPARE(int(round.size()), n / 2);
            }
            QCOMPARE(int(met.size()), n * (n - 1) / 2);
        }
        QVERIFY(roundRobinRounds({QStringLiteral("alone")}).empty());
    }

    void bisection() {
        const auto levels = bisectionLevels(hostsNamed(16));
        QCOMPARE(levels.size(), size_t(4)); // 16, 8+8, 4x4, 8x2
        QCOMPARE(levels.back().size(), size_t(8));
        for (const auto& level : levels) {
            QStringList joined;
            for (const QStringList& g : level)
                joined += g;
            QCOMPARE(joined, hostsNamed(16)); // every level covers every host once
        }
        QCOMPARE(bisectionLevels(hostsNamed(5)).size(), size_t(2));
        QVERIFY(bisectionLevels(hostsNamed(1)).empty());
    }

    void slowHostAndSlowLink() {
        const QStringList hosts = hostsNamed(8);
        const auto host = findStragglers(measure(hosts, [](const QString& a, const QString& b) {
            return a == QLatin1String("h5") || b == QLatin1String("h5") ? 90.0 : 180.0;
        }));
        QCOMPARE(host.slowHosts.size(), size_t(1));
        QCOMPARE(host.slowHosts[0].subject, QStringLiteral("h5"));
        QVERIFY(host.slowPairs.empty()); // h5's pairs are explained by h5
        QCOMPARE(host.hosts.front().first, QStringLiteral("h5"));

        const auto link = findStragglers(measure(hosts, [](const QString& a, const QString& b) {
            return std::minmax(a, b) == std::minmax(QStringLiteral("h2"), QStringLiteral("h7")) ? 60.0
                                                                                                : 180.0;
        }));
        QVERIFY(link.slowHosts.empty());
        QCOMPARE(link.slowPairs.size(), size_t(1));
        QVERIFY(link.slowPairs[0].subject.contains(QStringLiteral("h2")) &&
                link.slowPairs[0].subject.contains(QStringLiteral("h7")));
        // The same verdict as findings, for the window and the CLI alike: targets are the hosts, never split
        // from text.
        const std::vector<Finding> linkFindings = stragglerFindings(link);
        QCOMPARE(linkFindings.size(), size_t(1));
        QCOMPARE(linkFindings[0].code, QStringLiteral("run-slow-link"));
        QCOMPARE(QSet<QString>(linkFindings[0].subjects.begin(), linkFindings[0].subjects.end()),
                 (QSet<QString>{QStringLiteral("h2"), QStringLiteral("h7")}));
        const std::vector<Finding> hostFindings = stragglerFindings(host);
        QCOMPARE(hostFindings.size(), size_t(1));
        QCOMPARE(hostFindings[0].code, QStringLiteral("run-slow-host"));
        QCOMPARE(hostFindings[0].severity, Severity::Error);
        QCOMPARE(hostFindings[0].subjects, QStringList{QStringLiteral("h5")});
        QCOMPARE(hostFindings[0].target.host, QStringLiteral("h5"));
        QCOMPARE(QSet<QString>({linkFindings[0].target.host, linkFindings[0].target.peers.value(0)}),
                 (QSet<QString>{QStringLiteral("h2"), QStringLiteral("h7")}));
        QCOMPARE(hostFindings[0].message,
                 fillText(QString::fromUtf8(hostFindings[0].text.source), hostFindings[0].text.args));
        QCOMPARE(hostFindings[0].text.args.value(0), QStringLiteral("h5"));

        // Even runs flag nobody; a known line rate flags everything far under it.
        const auto even =
            findStragglers(measure(hosts, [](const QString&, const QString&) { return 180.0; }));
        QVERIFY(even.slowHosts.empty() && even.slowPairs.empty());
        StragglerRule rule;
        rule.lineRateGBs = 400;
        const auto underLine =
            findStragglers(measure(hosts, [](const QString&, const QString&) { return 180.0; }), rule);
        QCOMPARE(underLine.slowHosts.size(), size_t(8));
        QVERIFY(underLine.slowHosts[0].reason.contains(QStringLiteral("line rate")));
        QVERIFY(findStragglers({}).hosts.empty());
    }
};

QTEST_GUILESS_MAIN(TestStraggler)
#include "test_straggler.moc"
