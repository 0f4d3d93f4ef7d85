// Helper processes (import/helper_pool.h) and the hwloc reader that runs in one: a crash or a hang
// in a helper becomes an error and the next request gets a fresh helper; hosts survive the trip
// unchanged; a process full of threads uses them safely (they are spawned, never forked).
#include "test_support.h"

#include "import/helper_pool.h"
#include "import/hwloc_importer.h"
#include "import/hwloc_reader.h"
#include "report/inspect_report.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <atomic>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace rackscope;
using namespace rackscope::test;
using namespace std::chrono_literals;

namespace {

QString sh() {
    return QStringLiteral("/bin/sh");
}

// What libhwloc 2.9 crashes on (found by taking attributes out of real files one at a time): a
// Machine without its complete_cpuset.
QByteArray hwlocCrashingXml() {
    QByteArray xml = fixtureBytes(QStringLiteral("hwloc-24em64t-2n6c2t-pci.xml"));
    const qsizetype at = xml.indexOf(" complete_cpuset=\"");
    return xml.remove(at, xml.indexOf('"', at + 18) + 1 - at);
}

} // namespace

class TestHelperPool : public QObject {
    Q_OBJECT
private slots:
    void framesRoundTripAndRefuseWhatIsTooBig() {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
        QByteArray big(300000, 'x'); // more than a socket holds: written while read
        std::thread writer([&] { QVERIFY(writeFrame(fds[0], big)); });
        QByteArray got;
        QVERIFY(readFrame(fds[1], &got));
        writer.join();
        QCOMPARE(got, big);
        // A header that claims more than the bound is refused without reading on.
        const unsigned char tooBig[4] = {0x7f, 0xff, 0xff, 0xff};
        QCOMPARE(::write(fds[0], tooBig, 4), ssize_t(4));
        QVERIFY(!readFrame(fds[1], &got));
        // Nothing comes: the wait ends at the timeout, and says so.
        bool timedOut = false;
        QVERIFY(!readFrame(fds[1], &got, 100ms, &timedOut));
        QVERIFY(timedOut);
        ::close(fds[0]);
        timedOut = false;
        QVERIFY(!readFrame(fds[1], &got, 1000ms, &timedOut)); // the end of input
        QVERIFY(!timedOut);
        ::close(fds[1]);
    }

    void anEchoingHelperIsKeptAndShared() {
        // cat(1) returns every frame it is given: a helper that answers correctly.
        HelperPool pool(QStringLiteral("/bin/cat"));
        QCOMPARE(pool.ask("one", QStringLiteral("cat"), 5000ms).bytes, std::optional(QByteArray("one")));
        std::vector<std::thread> threads;
        std::atomic<int> right{0};
        for (int i = 0; i < 8; ++i)
            threads.emplace_back([&, i] {
                const QByteArray mine = QByteArray::number(i).repeated(1000 + i);
                for (int n = 0; n < 20; ++n)
                    if (pool.ask(mine, QStringLiteral("cat"), 30000ms).bytes == mine)
                        ++right;
            });
        for (std::thread& t : threads)
            t.join();
        QCOMPARE(right.load(), 8 * 20);
    }

    void crashBecomesAnErrorAndTheNextRequestGetsAFreshHelper() {
        HelperPool pool(sh(), {QStringLiteral("-c"), QStringLiteral("kill -SEGV $$")});
        for (int i = 0; i < 2; ++i) {
            const HelperAnswer a = pool.ask("x", QStringLiteral("the test parser"), 10000ms);
            QVERIFY(!a.bytes);
            QVERIFY2(a.error.startsWith(
                         QStringLiteral("the test parser crashed on this input (Segmentation fault)")),
                     qPrintable(a.error));
        }
    }

    void hangBecomesAnError() {
        HelperPool pool(sh(), {QStringLiteral("-c"), QStringLiteral("exec sleep 60")});
        QElapsedTimer clock;
        clock.start();
        // More than a socket buffer holds, so the request itself is what waits.
        const HelperAnswer a = pool.ask(QByteArray(1 << 20, 'x'), QStringLiteral("the test parser"), 1000ms);
        QVERIFY2(a.error == QStringLiteral("the test parser did not finish in 1 s"), qPrintable(a.error));
        QVERIFY(clock.elapsed() < 30000); // killed at the timeout, not left to sleep its minute
    }

    void helperThatEndsOrCannotStartIsAnError() {
        HelperPool quits(sh(), {QStringLiteral("-c"), QStringLiteral("exit 3")});
        QCOMPARE(quits.ask("x", QStringLiteral("t"), 10000ms).error,
                 QStringLiteral("t ended without a result (exit status 3)"));
        HelperPool missing(QStringLiteral("/nonexistent/helper"));
        const QString error = missing.ask("x", QStringLiteral("t"), 10000ms).error;
        QVERIFY2(
            error.startsWith(QStringLiteral("t could not be started (/nonexistent/helper: No such file")),
            qPrintable(error));
    }

    void theHwlocReaderIsBuiltAndFound() {
        const QString reader = findHwlocReader();
        QVERIFY2(QFileInfo(reader).isExecutable(), qPrintable(reader));
        QVERIFY(reader.endsWith(QStringLiteral("rackscope-hwloc-reader")));
    }

    void hostsRoundTripUnchanged_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : fixtures(QStringLiteral("hwloc-*.xml")))
            QTest::newRow(qPrintable(f)) << f;
    }
    void hostsRoundTripUnchanged() {
        QFETCH(QString, file);
        const QByteArray xml = fixtureBytes(file);
        const ImportResult here = readHwlocXmlHere(xml, file);
        const ImportResult viaHelper = importHwlocXml(xml, file);
        QCOMPARE(viaHelper.error, here.error);
        QCOMPARE(viaHelper.host.has_value(), here.host.has_value());
        if (!here.host)
            return;
        const auto json = [](const HostTopology& h) { return hostToJson({h, analyzeHost(h)}); };
        QCOMPARE(json(*viaHelper.host), json(*here.host));
        QCOMPARE(viaHelper.host->notes, here.host->notes);
    }

    void aFileThatCrashesLibhwlocIsAnError() {
        const ImportResult r = importHwlocXml(hwlocCrashingXml(), QStringLiteral("broken.xml"));
        QVERIFY(!r.host);
        // Debian 12's hwloc (2.9, API 2.8) crashes; a later one may refuse the file instead.
        const QString expected = hwlocRuntimeVersion().startsWith(QStringLiteral("2.8."))
                                     ? QStringLiteral("crashed on this input")
                                     : QStringLiteral("(crashed on this input|rejected the XML)");
        QVERIFY2(
            r.error.contains(QRegularExpression(QStringLiteral(R"(^hwloc \(API [0-9.]+\) )") + expected)),
            qPrintable(r.error));
        // The reader after it is a fresh one, and reads.
        const QString good = QStringLiteral("hwloc-nvidiaDGX2.xml");
        QVERIFY(importHwlocXml(fixtureBytes(good), good).host);
    }

    void threadsReadAtOnceWhileAnotherWrites() {
        // What the window does: sources read on worker threads while others run; the CI run that a
        // fork() here deadlocked had a thread feeding a FIFO at the time.
        const QString file = QStringLiteral("hwloc-nvidiaDGX2.xml");
        const QByteArray xml = fixtureBytes(file);
        std::atomic<bool> stop{false};
        std::thread busy([&] {
            qsizetype total = 0;
            while (!stop)
                total += QByteArray(4096, 'y').repeated(4).size(); // allocating all the while
            QVERIFY(total > 0);
        });
        std::vector<std::thread> readers;
        std::atomic<int> read{0};
        for (int i = 0; i < 4; ++i)
            readers.emplace_back([&] {
                for (int n = 0; n < 5; ++n)
                    if (importHwlocXml(xml, file).host)
                        ++read;
            });
        for (std::thread& t : readers)
            t.join();
        stop = true;
        busy.join();
        QCOMPARE(read.load(), 20);
    }
};

QTEST_GUILESS_MAIN(TestHelperPool)
#include "test_helper_pool.moc"
