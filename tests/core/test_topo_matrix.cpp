// nvidia-smi topo -m: every fixture, checked against the matrix itself.
#include "test_support.h"

#include <QFile>
#include <QRegularExpression>
#include <functional>

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

// Everything a reading keeps, one line per fact, so two readings compare as text.
QString summary(const QByteArray& bytes, bool withAttributes = true) {
    const ImportResult r = importTopology(bytes, QStringLiteral("pasted.txt"));
    if (!r.host)
        return QStringLiteral("error: ") + r.error;
    QStringList out;
    for (const auto& [key, value] : r.host->statedPaths)
        out << key.first + QLatin1Char('-') + key.second + QLatin1Char('=') +
                   pathTypeName(value.first, value.second);
    for (const Device& d : r.host->nics)
        out << d.id + QStringLiteral(" is ") + d.name;
    if (withAttributes)
        for (const Device& d : r.host->gpus)
            out << d.id + QStringLiteral(" numa ") +
                       (d.numa ? QString::number(*d.numa) : QStringLiteral("?")) + QStringLiteral(" cpus ") +
                       d.cpuAffinity;
    return out.join(QLatin1Char('\n'));
}

// A real matrix changed line by line, the way a paste changes it.
QByteArray pasted(const QString& fixtureName, const std::function<QString(QString)>& change) {
    QStringList lines = QString::fromUtf8(fixtureBytes(fixtureName)).split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = change(line);
    return lines.join(QLatin1Char('\n')).toUtf8();
}

bool isMatrixLine(const QString& line) {
    return line.startsWith(QLatin1String("GPU")) || line.startsWith(QLatin1String("NIC")) ||
           line.contains(QLatin1String("CPU Affinity"));
}

const QString kH200 = QStringLiteral("topo-m-8xH200-12nic-dgx.txt");

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
                    // GPUDirect RDMA within PXB, or (NCCL's PXN) through a GPU NVLinked to this one that is
                    // within PXB of the NIC; then the traffic takes that GPU's way, which crosses no socket.
                    auto near = [&](int gpu) {
                        const QString& at = m.rows.at(m.columns[gpu]).at(c);
                        return at == QLatin1String("PIX") || at == QLatin1String("PXB");
                    };
                    bool relayed = false;
                    for (int q = 0; q < gpus && !near(r); ++q)
                        relayed |= q != r && near(q) &&
                                   m.rows.at(m.columns[r]).at(q).startsWith(QLatin1String("NV"));
                    QCOMPARE(p->gpudirect, std::optional<bool>(near(r) || relayed)); // every NIC is RDMA
                    QCOMPARE(p->ncclPath == PathType::PXN, relayed);
                    QCOMPARE(p->crossSocket,
                             std::optional<bool>(!relayed && expectedName(cellText) == QLatin1String("SYS")));
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

    // Each way a paste changes the text, applied to a real matrix: the reading must not change.
    void aHeaderThatLostItsTabs() {
        const QByteArray text = pasted(kH200, [](QString l) {
            return l.contains(QLatin1String("CPU Affinity")) ? l.remove(QLatin1Char('\t')) : l;
        });
        QVERIFY(text.contains("GPU6GPU7NIC0"));
        QCOMPARE(summary(text), summary(fixtureBytes(kH200)));
    }

    void cellsThatRanTogether() {
        // Every tab lost: "NV18NV18…PXBNODE…SYS0-55,112-1670N/A". The paths still read; the affinities
        // ran together and cannot be cut for sure, so they are unknown and a note says so.
        const QByteArray text = pasted(kH200, [](QString l) { return l.remove(QLatin1Char('\t')); });
        QVERIFY(text.contains("NODENODE"));
        QCOMPARE(summary(text, false), summary(fixtureBytes(kH200), false));
        const ImportResult r = importTopology(text, QStringLiteral("pasted.txt"));
        QVERIFY(r.host && !r.host->gpus[0].numa && r.host->gpus[0].cpuAffinity.isEmpty());
        QVERIFY(r.host->notes.join(QLatin1Char('\n'))
                    .contains(QLatin1String("GPU0's CPU and NUMA affinity run together")));
    }

    void indentedWrappedAndFromWindows() {
        // A code block indented four spaces, legends wrapped at 80 columns, CRLF line ends.
        const QByteArray text = pasted(kH200, [](QString l) {
            QString out;
            while (l.size() > 76) {
                const int cut = int(l.lastIndexOf(QLatin1Char(' '), 76));
                if (cut <= 0 || isMatrixLine(l))
                    break;
                out += QStringLiteral("    ") + l.left(cut) + QStringLiteral("\r\n");
                l = QStringLiteral("      ") + l.mid(cut + 1);
            }
            return out + QStringLiteral("    ") + l + QLatin1Char('\r');
        });
        QVERIFY(text.contains("\r\n      ")); // a legend line went on to the next
        QCOMPARE(summary(text), summary(fixtureBytes(kH200)));
    }

    void coloursAndTheirResidue() {
        // Cells coloured by a terminal, and the residue of escapes whose ESC byte a copy dropped.
        const QByteArray text = pasted(kH200, [](QString l) {
            l.replace(QStringLiteral("NV18"), QStringLiteral("\x1b[32mNV18\x1b[0m"));
            l.replace(QStringLiteral("SYS"), QStringLiteral("[1;31mSYS[0m"));
            return l.startsWith(QLatin1String("GPU")) ? QStringLiteral("^[[1m") + l : l;
        });
        QCOMPARE(summary(text), summary(fixtureBytes(kH200)));
    }

    void rdmaDevicesNamedInTheHeaderInAnyOrder() {
        // Older drivers name the RDMA devices themselves, in the order they enumerate them.
        const QStringList names = {"mlx5_3", "mlx5_0", "mlx5_bond_0", "mlx5_1", "mlx5_11", "mlx5_10",
                                   "mlx5_2", "mlx5_4", "mlx5_5",      "mlx5_6", "mlx5_7",  "mlx5_9"};
        const QByteArray text = pasted(kH200, [&](QString l) {
            if (l.contains(QLatin1String("NIC Legend")))
                return QString();
            for (int n = 11; n >= 0; --n)
                l.replace(QStringLiteral("NIC%1").arg(n), QStringLiteral("@%1@").arg(n));
            for (int n = 11; n >= 0; --n)
                l.replace(QStringLiteral("@%1@").arg(n), names[n]);
            return l;
        });
        const ImportResult r = importTopology(text, QStringLiteral("pasted.txt"));
        QVERIFY2(r.host, qPrintable(r.error));
        QCOMPARE(int(r.host->nics.size()), 12);
        for (int n = 0; n < 12; ++n)
            QCOMPARE(r.host->nics[n].name, names[n]);
        QCOMPARE(summary(text).section(QStringLiteral("NIC0 is"), 0, 0),
                 summary(fixtureBytes(kH200)).section(QStringLiteral("NIC0 is"), 0, 0));
    }

    void numaNotAvailableOrSeveralNodes() {
        const QByteArray text = pasted(kH200, [](QString l) {
            if (l.startsWith(QLatin1String("GPU0\t")))
                l.replace(QStringLiteral("\t0\t\tN/A"), QStringLiteral("\tN/A\t\tN/A"));
            if (l.startsWith(QLatin1String("GPU1\t")))
                l.replace(QStringLiteral("\t0\t\tN/A"), QStringLiteral("\t0,3-9\t\tN/A"));
            return l;
        });
        const ImportResult r = importTopology(text, QStringLiteral("pasted.txt"));
        QVERIFY2(r.host, qPrintable(r.error));
        QVERIFY(!r.host->gpus[0].numa);
        QVERIFY(!r.host->gpus[1].numa);
        QCOMPARE(r.host->gpus[1].cpuAffinity, QStringLiteral("0-55,112-167"));
        QCOMPARE(r.host->gpus[2].numa, std::optional<int>(0));
        QVERIFY(
            r.host->notes.join(QLatin1Char('\n')).contains(QLatin1String("GPU1's NUMA affinity is 0,3-9")));
    }

    void aPodsSliceWithRealEscapesAndNoNics() {
        // kubectl exec in a pod that sees 4 of 8 H100s: a "# cmd:" line, an underlined header, GPU NUMA ID
        // N/A.
        const QByteArray bytes =
            incomingBytes(QStringLiteral("topo-m-4xH100-gcp-a3-4gpu-slice-no-nic-gpu-numa-id-NA.txt"));
        QVERIFY(bytes.contains("\x1b[4m"));
        const ImportResult r = importTopology(bytes, QStringLiteral("topo-4gpu.txt"));
        QVERIFY2(r.host, qPrintable(r.error));
        QCOMPARE(int(r.host->gpus.size()), 4);
        QVERIFY(r.host->nics.empty());
        // The test's own reading: every pair of the four is NV18, each GPU on CPUs 0-51,104-155 and NUMA node
        // 0.
        for (int a = 0; a < 4; ++a) {
            QCOMPARE(r.host->gpus[a].cpuAffinity, QStringLiteral("0-51,104-155"));
            QCOMPARE(r.host->gpus[a].numa, std::optional<int>(0));
            for (int b = a + 1; b < 4; ++b)
                QCOMPARE(r.host->nvlinks.at({a, b}), 18);
        }
        QVERIFY(r.host->notes.isEmpty());
    }

    void aTrulyAmbiguousRowIsRefusedByLine() {
        // GPU3's row lost a cell: no cut gives it the header's 20 columns.
        const QByteArray text = pasted(kH200, [](QString l) {
            return l.startsWith(QLatin1String("GPU3\t"))
                       ? l.replace(QStringLiteral("\tPXB\t"), QStringLiteral("\t"))
                       : l;
        });
        const ImportResult r = importTopology(text, QStringLiteral("pasted.txt"));
        QVERIFY(!r.host);
        QVERIFY2(r.error.contains(QLatin1String("line 5: row GPU3 cannot be read as 20 path cells")),
                 qPrintable(r.error));
        // A row whose label is none of the header's devices says so.
        const QByteArray stray = pasted(kH200, [](QString l) {
            return l.startsWith(QLatin1String("GPU3\t")) ? QStringLiteral("root@node:~# ") + l : l;
        });
        const ImportResult s = importTopology(stray, QStringLiteral("pasted.txt"));
        QVERIFY(!s.host);
        QVERIFY2(
            s.error.contains(QLatin1String("line 5: row 'root@node:~#' is not one of the header's devices")),
            qPrintable(s.error));
    }
};

QTEST_GUILESS_MAIN(TestTopoMatrix)
#include "test_topo_matrix.moc"
