// The capacity search's logic against deployments whose capacity is known: an SLO that holds up to a
// threshold, one that is flaky at the top, one that breaks at every value.
#include "runs/capacity_search.h"

#include <QTest>

using namespace rackscope;

namespace {

// Runs the search against `holds` and returns it finished.
template <class Holds> CapacitySearch searchAgainst(CapacitySearch s, Holds holds) {
    for (int guard = 0; s.next() && guard < 100; ++guard)
        s.record(holds(*s.next(), s.nextIsRepeat()));
    return s;
}

} // namespace

class TestCapacitySearch : public QObject {
    Q_OBJECT

private slots:
    void aRateIsFoundWithinTheTolerance() {
        for (double truth : {0.3, 3.7, 81.6, 147.0, 2500.0}) {
            for (double start : {1.0, 10.0, 1000.0}) {
                const CapacitySearch s = searchAgainst(CapacitySearch(CapacitySearch::By::Rate, start, 0.05),
                                                       [&](double v, bool) { return v <= truth; });
                QVERIFY(!s.next());
                QVERIFY2(s.capacity() && *s.capacity() <= truth && *s.capacity() >= truth * 0.95,
                         qPrintable(QStringLiteral("truth %1 start %2: %3")
                                        .arg(truth)
                                        .arg(start)
                                        .arg(QString::fromStdString(s.describe()))));
                QVERIFY(s.brokenAbove() && *s.brokenAbove() > truth);
                QVERIFY(s.steps().back().repeat && s.steps().back().held); // the best value ran again
                QVERIFY(int(s.steps().size()) <= 20);
            }
        }
    }

    void aConcurrencyIsExact() {
        for (int truth : {1, 7, 51, 300}) {
            const CapacitySearch s = searchAgainst(CapacitySearch(CapacitySearch::By::Concurrency, 4),
                                                   [&](double v, bool) { return v <= truth; });
            QVERIFY2(s.capacity().value_or(-1) == double(truth), s.describe().c_str());
            QCOMPARE(s.brokenAbove().value_or(-1), double(truth + 1));
            for (const CapacityStep& step : s.steps())
                QCOMPARE(step.value, std::round(step.value)); // whole streams only
        }
    }

    // The best value holds once and breaks when repeated: it is not the capacity, the search goes on below.
    void aRepeatThatBreaksMovesTheCapacityDown() {
        int runsAt30 = 0;
        const CapacitySearch s =
            searchAgainst(CapacitySearch(CapacitySearch::By::Concurrency, 8), [&](double v, bool repeat) {
                if (v == 30 && repeat)
                    return ++runsAt30, false; // flaky at the top
                return v <= 30;
            });
        QCOMPARE(runsAt30, 1);
        QCOMPARE(s.capacity().value_or(-1), 29.0);
        QCOMPARE(s.brokenAbove().value_or(-1), 30.0);
        QVERIFY(QString::fromStdString(s.describe()).contains(QStringLiteral("held again when repeated")));
    }

    void anSloThatNeverHoldsSaysSo() {
        const CapacitySearch s = searchAgainst(CapacitySearch(CapacitySearch::By::Concurrency, 16),
                                               [](double, bool) { return false; });
        QVERIFY(!s.capacity());
        QVERIFY2(QString::fromStdString(s.describe())
                     .contains(QStringLiteral("broke at every value tried, down to 1")),
                 s.describe().c_str());
        const CapacitySearch r =
            searchAgainst(CapacitySearch(CapacitySearch::By::Rate, 5), [](double, bool) { return false; });
        QVERIFY(!r.capacity());
        QVERIFY(int(r.steps().size()) <= 20);
    }

    void anSloThatAlwaysHoldsStopsAtTheStepLimit() {
        const CapacitySearch s = searchAgainst(CapacitySearch(CapacitySearch::By::Rate, 1, 0.05, 6),
                                               [](double, bool) { return true; });
        QCOMPARE(int(s.steps().size()), 6);
        QCOMPARE(s.capacity().value_or(-1), 32.0);
        QVERIFY(QString::fromStdString(s.describe()).startsWith(QStringLiteral("at least 32")));
    }
};

QTEST_GUILESS_MAIN(TestCapacitySearch)
#include "test_capacity_search.moc"
