// nvidia-smi topo -m: every fixture, checked against the matrix itself.
#include "test_support.h"

#include <QFile>
#include <QRegularExpression>

using namespace rackscope;
using namespace rackscope::test;

namespace {

// The test's own reading of a matrix: header tokens before "CPU Affinity",
// and each row's cells in order. Deliberately naive: whitespace split only.
struct Matrix {
    QStringList columns;
    std::map<QString, QStringList> rows;
};

Matrix readMatrix(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    Matrix m;
    static const QRegularExpression ws(QStringLiteral("\\s+"));
    for (const QString& raw : lines) {
        QString line = raw;
        line.remove(QStringLiteral("[4m")).remove(QStringLiteral("[0m"));
        if (m.columns.isEmpty()) {
            const int cut = int(line.indexOf(QStringLiteral("CPU Affinity")));
            m.columns = line.left(cut).split(ws, Qt::SkipEmptyParts);
            continue;
        }
        const QStringList t = line.split(ws, Qt::SkipEmptyParts);
        if (t.isEmpty())
            break;
        m.rows[t[0]] = t.mid(1, m.columns.size());
    }
    return m;
}

QString expectedName(const QString& cell) {
    return cell == QLatin1String("SOC") ? QStringLiteral("SYS") : cell;
}

} // namespace

class TestTopoMatrix : public QObject {
    Q_OBJECT
private slots:
    void everyFixtureMatchesItsMatrix_data() {
        QTest::addColumn<QString>("file");
        const QStringList files = fixtures(QStringLiteral("topo-m-*.txt"));
        QVERIFY2(files.size() >= 6,
                 qPrintable(QStringLiteral("topo-m fixtures missing in ") + fixturesDir()));
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyFixtureMatchesItsMatrix() {
        QFETCH(QString, file);
        const Loaded l = load(file);
        QVERIFY2(l.ok(), qPrintable(l.error));
        const Matrix m = readMatrix(fixture(file));
        int gpus = 0;
        for (const QString& c : m.columns)
            gpus += c.startsWith(QLatin1String("GPU"));
        QCOMPARE(int(l.host.gpus.size()), gpus);
        QCOMPARE(int(l.host.nics.size()), int(m.columns.size()) - gpus);
        // Column index -> rackscope id: GPUs keep theirs, NICs are numbered in order.
        QStringList ids;
        for (int c = 0, nic = 0; c < m.columns.size(); ++c)
            ids << (c < gpus ? m.columns[c] : QStringLiteral("NIC%1").arg(nic++));
        for (int r = 0; r < gpus; ++r)
            for (int c = 0; c < m.columns.size(); ++c) {
                if (r == c)
                    continue;
                const QString cellText = m.rows.at(m.columns[r]).at(c);
                QCOMPARE(l.path(ids[r], ids[c]), expectedName(cellText));
                if (c >= gpus) {
                    const GpuNicPair* p = l.analysis.pair(ids[r], ids[c]);
                    QVERIFY(p);
                    const bool near = cellText == QLatin1String("PIX") || cellText == QLatin1String("PXB");
                    QCOMPARE(p->gpudirect, std::optional<bool>(near)); // every topo -m NIC is an RDMA device
                    QCOMPARE(p->crossSocket,
                             std::optional<bool>(expectedName(cellText) == QLatin1String("SYS")));
                }
            }
    }

    void h200NamesNumaAndNcclChoice() {
        const Loaded l = load(QStringLiteral("topo-m-8xH200-12nic-dgx.txt"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.nics[10].name, QStringLiteral("mlx5_10"));
        QCOMPARE(l.host.gpus[0].numa, std::optional<int>(0));
        QCOMPARE(l.host.gpus[7].numa, std::optional<int>(1));
        QCOMPARE(l.host.gpus[4].cpuAffinity, QStringLiteral("56-111,168-223"));
        QVERIFY(!l.host.gpus[0].pci); // topo -m gives no bus ids: unknown, not invented
        // Each GPU's single PXB NIC, read off the matrix by hand.
        const QStringList expected = {"NIC0", "NIC3", "NIC4", "NIC5", "NIC6", "NIC9", "NIC10", "NIC11"};
        for (int g = 0; g < 8; ++g)
            QCOMPARE(l.ncclNic(QStringLiteral("GPU%1").arg(g)), expected[g]);
        QVERIFY(!l.hasFinding(QStringLiteral("nic-shared-unevenly")));
    }

    void a100TwoNicsPerGpuPairSharedAsNcclDoes() {
        // GPU0/GPU1 both see NIC0,NIC1 at PXB: NCCL's mirrorBits gives dev 0 -> NIC0, dev 1 -> NIC1.
        const Loaded l = load(QStringLiteral("topo-m-8xA100-SXM40G-epyc7742-nps4-10nic.txt"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        for (int g = 0; g < 8; ++g)
            QCOMPARE(l.ncclNic(QStringLiteral("GPU%1").arg(g)), QStringLiteral("NIC%1").arg(g));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU5")), QStringLiteral("NV12"));
        QCOMPARE(l.host.gpus[0].numa, std::optional<int>(3));
    }

    void b300AnsiResidueAndBond() {
        const Loaded l = load(QStringLiteral("topo-m-8xB300-9nic-bond-ansi-residue.txt"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.gpus.front().id, QStringLiteral("GPU0"));
        QCOMPARE(l.host.nics[8].name, QStringLiteral("mlx5_bond_0"));
        QCOMPARE(l.host.gpus[5].numa, std::optional<int>(1)); // the empty tab field does not shift columns
        QCOMPARE(l.ncclNic(QStringLiteral("GPU5")), QStringLiteral("NIC5"));
    }

    void legacySocAndNicInHeader() {
        const Loaded l = load(QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.nics.size(), size_t(1));
        QCOMPARE(l.host.nics[0].id, QStringLiteral("NIC0"));
        QCOMPARE(l.host.nics[0].name, QStringLiteral("mlx4_0"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("NIC0")), QStringLiteral("SYS"));
        QVERIFY(l.hasFinding(QStringLiteral("gpu-nearest-nic-cross-socket"), QStringLiteral("GPU0")));
        QVERIFY(!l.hasFinding(QStringLiteral("gpu-nearest-nic-cross-socket"), QStringLiteral("GPU2")));
        QVERIFY(
            l.hasFinding(QStringLiteral("gpu-no-gpudirect-nic"), QStringLiteral("GPU2"))); // PHB is too far
    }

    void v100WithoutNicsOrLegend() {
        const Loaded l = load(QStringLiteral("topo-m-8xV100-SXM2-hybrid-cube-mesh-no-legend.txt"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.nics.size(), size_t(0));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU3")), QStringLiteral("NV2"));
        QCOMPARE(l.path(QStringLiteral("GPU0"), QStringLiteral("GPU4")), QStringLiteral("SYS"));
        QVERIFY(l.analysis.ncclNic.empty());
        QVERIFY(l.hasFinding(QStringLiteral("host-no-rdma-nic")));
        QVERIFY(!l.host.gpus[0].numa); // only "CPU Affinity" printed
    }

    void spacesInsteadOfTabs() {
        const Loaded l = load(QStringLiteral("topo-m-8xH100-8nic-spaces.txt"));
        QVERIFY2(l.ok(), qPrintable(l.error));
        QCOMPARE(l.host.gpus[6].numa, std::optional<int>(1));
        QCOMPARE(l.host.nics[7].name, QStringLiteral("mlx5_7"));
    }
};

QTEST_GUILESS_MAIN(TestTopoMatrix)
#include "test_topo_matrix.moc"
