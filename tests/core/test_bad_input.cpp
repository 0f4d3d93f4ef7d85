// Bad input: every reader gets a one-line error that says what is wrong,
// and nothing crashes.
#include "test_support.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "import/input_file.h"

using namespace rackscope;
using namespace rackscope::test;

namespace {

QString errorFor(const QByteArray& content) {
    const ImportResult r = importTopology(content, QStringLiteral("test-input"));
    return r.host ? QString() : r.error;
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private slots:
    void emptyAndBlank() {
        QCOMPARE(errorFor({}), QStringLiteral("the file is empty"));
        QCOMPARE(errorFor("\n \t\n"), QStringLiteral("the file is empty"));
    }

    void truncatedXml_data() {
        QTest::addColumn<QString>("file");
        QStringList files =
            fixtures(QStringLiteral("hwloc-*.xml")) + fixtures(QStringLiteral("nccl-topo-*.xml"));
        QVERIFY(files.size() >= 20);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void truncatedXml() {
        QFETCH(QString, file);
        const QByteArray full = fixtureBytes(file);
        for (const double cut : {0.3, 0.5, 0.9}) {
            const QString error = errorFor(full.left(qsizetype(double(full.size()) * cut)));
            QVERIFY2(!error.isEmpty(), qPrintable(file));
            QVERIFY2(error.contains(QStringLiteral("malformed XML at line")) ||
                         error.contains(QStringLiteral("format 3.0")),
                     qPrintable(error));
            QVERIFY(!error.contains(QLatin1Char('\n')));
        }
    }

    void truncatedMatrix_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : fixtures(QStringLiteral("topo-m-*.txt")))
            QTest::newRow(qPrintable(f)) << f;
    }
    void truncatedMatrix() {
        QFETCH(QString, file);
        const QByteArray full = fixtureBytes(file);
        qsizetype rowsEnd = full.indexOf("\n\n"); // the matrix ends at its first blank line
        if (rowsEnd < 0)
            rowsEnd = full.size();
        while (rowsEnd > 0 && full[rowsEnd - 1] == '\n')
            --rowsEnd;
        const qsizetype lastRow = full.lastIndexOf('\n', rowsEnd - 1) + 1;
        // Mid-matrix, inside the last row's cells, and right after the last row's label.
        for (const qsizetype cut : {rowsEnd / 2, lastRow + 8, lastRow + 5}) {
            const QString error = errorFor(full.left(cut));
            QVERIFY2(!error.isEmpty(), qPrintable(QStringLiteral("%1 cut at %2").arg(file).arg(cut)));
            QVERIFY2(error.contains(QStringLiteral("truncated")) ||
                         error.contains(QStringLiteral("not a path type")) ||
                         error.contains(QStringLiteral("not one of the header's devices")),
                     qPrintable(error));
            QVERIFY(!error.contains(QLatin1Char('\n')));
        }
    }

    void otherKindsOfFile_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expect");
        QTest::newRow("nccl graph") << "nccl-graph-azure-ncv4.xml"
                                    << "NCCL graph file";
        QTest::newRow("markdown") << "PROVENANCE.md"
                                  << "not a topology";
        QTest::newRow("ibnetdiscover") << "ibnetdiscover-small-cluster-sdr-ibm.txt"
                                       << "not a topology";
        QTest::newRow("lldp json") << "lldpcli-json0-openwrt-switch-statistics-interfaces-chassis.json"
                                   << "not a topology";
        QTest::newRow("lstopo console") << "hwloc-16intel64-manyVFs.console.txt"
                                        << "not a topology";
        QTest::newRow("nccl-tests log") << "nccl-tests-all_reduce-2node-16xH200-oci-roce.txt"
                                        << "not a topology";
        QTest::newRow("nvlink status") << "gpud_nvidia-smi-nvlink-status_8xA100-SXM4-80GB.txt"
                                       << "not a topology";
    }
    void otherKindsOfFile() {
        QFETCH(QString, file);
        QFETCH(QString, expect);
        const ImportResult r = loadTopologyFile(fixture(file));
        QVERIFY(!r.host);
        QVERIFY2(r.error.contains(expect), qPrintable(r.error));
    }

    void wrongXmlRoots() {
        QVERIFY(errorFor("<?xml version=\"1.0\"?><html><body/></html>")
                    .contains(QStringLiteral("root is <html>")));
        QVERIFY(errorFor("<system version=\"1\"><cpu><pci busid=\"zz\"/></cpu></system>")
                    .contains(QStringLiteral("busid")));
        QVERIFY(errorFor("<system><nvlink target=\"0000:01:00.0\" count=\"2\"/></system>")
                    .contains(QStringLiteral("nvlink")));
        QVERIFY(errorFor("<topology version=\"2.0\"><object type=\"Banana\"/></topology>")
                    .contains(QStringLiteral("hwloc")));
    }

    void matrixCellsThatAreNotPaths() {
        const QByteArray bad = "\tGPU0\tGPU1\nGPU0\t X \tNVx\nGPU1\tNV2\t X \n";
        QVERIFY(errorFor(bad).contains(QStringLiteral("not a path type")));
        const QByteArray diag = "\tGPU0\tGPU1\nGPU0\tPIX\tNV2\nGPU1\tNV2\t X \n";
        QVERIFY(errorFor(diag).contains(QStringLiteral("says PIX")));
        const QByteArray dup = "\tGPU0\tGPU1\nGPU0\t X \tNV2\nGPU0\t X \tNV2\n";
        QVERIFY(errorFor(dup).contains(QStringLiteral("twice")));
    }

    void binaryAndRandom() {
        QRandomGenerator rng(42);
        QByteArray random(4096, '\0');
        rng.fillRange(reinterpret_cast<quint32*>(random.data()), random.size() / 4);
        QVERIFY(!errorFor(random).isEmpty());
        random.replace('\0', 'x');
        QVERIFY(!errorFor(random).isEmpty());
    }

    void fiftyMegabytesOfRandomData() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("random.bin"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QRandomGenerator rng(7);
        QByteArray block(1 << 20, '\0');
        for (int i = 0; i < 50; ++i) {
            rng.fillRange(reinterpret_cast<quint32*>(block.data()), block.size() / 4);
            f.write(block);
        }
        f.close();
        const ImportResult r = loadTopologyFile(path);
        QVERIFY(!r.host);
        QVERIFY2(r.error.contains(QStringLiteral("limit")), qPrintable(r.error));
    }

    void fifosAndDevicesNeverHang() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QElapsedTimer clock;
        clock.start();
        // No writer: read as empty at once, where a plain open() would wait for ever.
        QVERIFY(loadTopologyFile(fifo).error.contains(QStringLiteral("empty")));
        QVERIFY(clock.elapsed() < 5000);
        // A writer that never writes: given up after the idle bound.
        const int writer =
            ::open(QFile::encodeName(fifo).constData(), O_RDWR | O_NONBLOCK); // holds a writer end open
        QVERIFY(writer >= 0);
        QByteArray content;
        QVERIFY(readInputFile(fifo, 1 << 20, &content, 300).contains(QStringLiteral("nothing came to read")));
        // What a process substitution gives, `<(ssh node nvidia-smi topo -m)`: read whole, however it
        // trickles in.
        const QByteArray topology = fixtureBytes(QStringLiteral("hwloc-24em64t-2n6c2t-pci.xml"));
        // A read end held open, as the shell's process substitution holds its pipe: if the writer is done
        // before the loader opens the FIFO, what it wrote is still there to read.
        const int holder = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(holder >= 0);
        std::thread feed([&] { // the writer end is open before the read starts, as a shell's is
            for (qsizetype at = 0; at < topology.size();) {
                const ssize_t n = ::write(writer, topology.constData() + at,
                                          size_t(std::min<qsizetype>(4096, topology.size() - at)));
                if (n > 0)
                    at += n;
                else
                    QThread::msleep(1); // the pipe is full until the reader takes some
            }
            ::close(writer); // the end: the reader sees EOF
        });
        const ImportResult piped = loadTopologyFile(fifo);
        feed.join();
        ::close(holder);
        QVERIFY2(piped.host, qPrintable(piped.error));
        // A device with no end is bounded by the size limit.
        QVERIFY(
            readInputFile(QStringLiteral("/dev/zero"), 1 << 20, &content).contains(QStringLiteral("limit")));
    }

    void missingFileAndDirectory() {
        QVERIFY(loadTopologyFile(QStringLiteral("/nonexistent/topology.xml"))
                    .error.contains(QStringLiteral("cannot open")));
        QVERIFY(!loadTopologyFile(fixturesDir()).error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
