// Mutated real fixtures through every importer: each run ends in a host or
// a one-line error, never a crash (this test earns its keep under ASan/UBSan).
#include "test_support.h"

#include "import/ibnetdiscover_importer.h"
#include "report/inspect_report.h"

#include <QFile>
#include <QRandomGenerator>

using namespace rackscope;
using namespace rackscope::test;

namespace {

QByteArray mutate(QByteArray in, QRandomGenerator& rng) {
    const int edits = 1 + int(rng.bounded(4));
    for (int e = 0; e < edits && !in.isEmpty(); ++e) {
        const qsizetype at = qsizetype(rng.bounded(quint32(in.size())));
        const qsizetype len = 1 + qsizetype(rng.bounded(quint32(qMin<qsizetype>(64, in.size() - at))));
        switch (rng.bounded(6)) {
        case 0: in[at] = char(rng.bounded(256)); break;                   // flip a byte
        case 1: in.remove(at, len); break;                                 // delete a run
        case 2: in.insert(at, in.mid(qsizetype(rng.bounded(quint32(in.size()))), len)); break; // duplicate
        case 3: in.truncate(at); break;                                    // truncate
        case 4: in.insert(at, QByteArray(int(len), char(rng.bounded(256)))); break; // insert junk
        case 5: { // replace a number with a huge or negative one
            const qsizetype digit = in.indexOf(char('0' + rng.bounded(10)), at);
            if (digit >= 0) in.replace(digit, 1, rng.bounded(2) ? "99999999999" : "-1");
            break;
        }
        }
    }
    return in;
}

} // namespace

class TestFuzzImporters : public QObject {
    Q_OBJECT
private slots:
    void mutatedFixtures_data() {
        QTest::addColumn<QString>("file");
        const QStringList files = fixtures(QStringLiteral("topo-m-*.txt")) + fixtures(QStringLiteral("nccl-topo-*.xml")) +
                                  fixtures(QStringLiteral("hwloc-*.xml"));
        QVERIFY(files.size() >= 26);
        for (const QString& f : files) QTest::newRow(qPrintable(f)) << f;
    }
    void mutatedFixtures() {
        QFETCH(QString, file);
        QFile f(fixture(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray original = f.readAll();
        QRandomGenerator rng(quint32(qHash(file)));
        int hosts = 0, errors = 0;
        for (int i = 0; i < 120; ++i) {
            ImportResult r = importTopology(mutate(original, rng), file);
            if (r.host) {
                ++hosts;
                const HostAnalysis a = analyzeHost(*r.host);
                const QJsonObject json = inspectToJson({{*r.host, a}}, {});
                QVERIFY(json.contains(QStringLiteral("hosts")));
                QVERIFY(!inspectToText({{*r.host, a}}).isEmpty());
            } else {
                ++errors;
                QVERIFY(!r.error.isEmpty());
                QVERIFY2(!r.error.contains(QLatin1Char('\n')), qPrintable(r.error));
            }
        }
        QCOMPARE(hosts + errors, 120);
    }

    void mutatedFabricDumps() {
        const QStringList files = fixtures(QStringLiteral("ibnetdiscover-*.txt"));
        QCOMPARE(files.size(), 4);
        for (const QString& file : files) {
            QFile f(fixture(file));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray original = f.readAll();
            QRandomGenerator rng(quint32(qHash(file)));
            for (int i = 0; i < 60; ++i) {
                const FabricImport r = importIbnetdiscover(mutate(original, rng), file);
                QVERIFY(r.fabric || !r.error.isEmpty());
                if (r.fabric)
                    for (const FabricDiagnostic& d : r.fabric->diagnostics) QVERIFY(d.line > 0 && !d.message.isEmpty());
            }
        }
    }

    void randomText() {
        QRandomGenerator rng(99);
        const QByteArray alphabet = "GPU0NIC1 X\tNV12PIXPXBSYSNODE<>/=\"system topology pci busid\n";
        for (int i = 0; i < 500; ++i) {
            QByteArray in;
            const int n = int(rng.bounded(400));
            for (int k = 0; k < n; ++k) in += alphabet[qsizetype(rng.bounded(quint32(alphabet.size())))];
            ImportResult r = importTopology(in, QStringLiteral("random"));
            if (r.host) analyzeHost(*r.host);
            else QVERIFY(!r.error.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzImporters)
#include "test_fuzz_importers.moc"
