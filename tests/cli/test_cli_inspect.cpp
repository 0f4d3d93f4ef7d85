// rackscope-cli inspect as a user runs it: a real process, its exit status,
// its one-line errors, and the JSON document's shape.
#include "test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace rackscope::test;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_CLI), args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

class TestCliInspect : public QObject {
    Q_OBJECT
private slots:
    void versionMatchesAgent() {
        const Run r = cli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("rackscope-cli "));
        QProcess agent;
        agent.start(QStringLiteral(RACKSCOPE_AGENT), {QStringLiteral("--version")});
        QVERIFY(agent.waitForFinished(10000));
        QCOMPARE(agent.readAllStandardOutput().mid(int(strlen("rackscope-agent "))),
                 r.out.mid(int(strlen("rackscope-cli "))));
    }

    void jsonDocumentShape() {
        const Run r = cli({QStringLiteral("inspect"), QStringLiteral("--json"),
                           fixture(QStringLiteral("topo-m-8xH200-12nic-dgx.txt")),
                           fixture(QStringLiteral("nccl-topo-dump-oci-bm-gpu-h100-8.xml"))});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError pe;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &pe).object();
        QCOMPARE(pe.error, QJsonParseError::NoError);
        const QJsonArray hosts = doc.value(QStringLiteral("hosts")).toArray();
        QCOMPARE(hosts.size(), 2);
        QVERIFY(!doc.contains(QStringLiteral("errors")));
        const QJsonObject h = hosts[0].toObject();
        for (const char* key :
             {"name", "source", "gpus", "nics", "gpu_gpu", "gpu_nic", "nccl_nic", "findings"})
            QVERIFY2(h.contains(QLatin1String(key)), key);
        const QJsonObject g0 = h[QStringLiteral("gpus")].toArray()[0].toObject();
        QCOMPARE(g0[QStringLiteral("id")].toString(), QStringLiteral("GPU0"));
        QVERIFY(g0[QStringLiteral("pci")].isNull()); // topo -m has no bus ids
        QCOMPARE(g0[QStringLiteral("numa")].toInt(), 0);
        QVERIFY(g0[QStringLiteral("socket")].isNull());
        const QJsonObject n3 = h[QStringLiteral("nics")].toArray()[3].toObject();
        QCOMPARE(n3[QStringLiteral("name")].toString(), QStringLiteral("mlx5_3"));
        QCOMPARE(n3[QStringLiteral("rdma")].toBool(), true);
        QCOMPARE(h[QStringLiteral("gpu_gpu")].toArray().size(), 28);
        QCOMPARE(h[QStringLiteral("gpu_nic")].toArray().size(), 96);
        const QJsonObject pair = h[QStringLiteral("gpu_nic")].toArray()[0].toObject();
        QCOMPARE(pair[QStringLiteral("path")].toString(), QStringLiteral("PXB"));
        QCOMPARE(pair[QStringLiteral("gpudirect")].toBool(), true);
        QCOMPARE(pair[QStringLiteral("cross_socket")].toBool(), false);
        QCOMPARE(h[QStringLiteral("nccl_nic")].toObject()[QStringLiteral("GPU1")].toString(),
                 QStringLiteral("NIC3"));
        const QJsonObject h2 = hosts[1].toObject();
        QCOMPARE(h2[QStringLiteral("gpus")].toArray()[0].toObject()[QStringLiteral("pci")].toString(),
                 QStringLiteral("0000:0f:00.0"));
        QCOMPARE(h2[QStringLiteral("source")].toObject()[QStringLiteral("format")].toString(),
                 QStringLiteral("nccl-topo-xml"));
    }

    void badInputsAreReportedAndTheRestStillPrinted() {
        QTemporaryDir dir;
        const QString empty = dir.filePath(QStringLiteral("empty.xml"));
        QFile(empty).open(QIODevice::WriteOnly);
        const QString truncated = dir.filePath(QStringLiteral("truncated.xml"));
        {
            QFile src(fixture(QStringLiteral("hwloc-nvidiaDGX2.xml")));
            src.open(QIODevice::ReadOnly);
            QFile dst(truncated);
            dst.open(QIODevice::WriteOnly);
            dst.write(src.readAll().left(9000));
        }
        const QString good = fixture(QStringLiteral("hwloc-nvidiaDGX2.xml"));
        const QString other = fixture(QStringLiteral("PROVENANCE.md"));
        const Run r =
            cli({QStringLiteral("inspect"), QStringLiteral("--json"), empty, good, truncated, other});
        QCOMPARE(r.exitCode, 2);
        const QList<QByteArray> lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 3); // one line per bad file
        QVERIFY(lines[0].contains(empty.toUtf8()) && lines[0].contains("empty"));
        QVERIFY(lines[1].contains(truncated.toUtf8()) && lines[1].contains("malformed XML"));
        QVERIFY(lines[2].contains(other.toUtf8()));
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc[QStringLiteral("hosts")].toArray().size(), 1);
        QCOMPARE(doc[QStringLiteral("errors")].toArray().size(), 3);
        // Text mode too.
        const Run t = cli({QStringLiteral("inspect"), good, empty});
        QCOMPARE(t.exitCode, 2);
        QVERIFY(t.out.contains("GPU15"));
    }

    void textReportHasMatrixAndVerdicts() {
        const Run r = cli({QStringLiteral("inspect"),
                           fixture(QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("NIC0"));
        QVERIFY(r.out.contains("gpu-nearest-nic-cross-socket"));
        QVERIFY(r.out.contains("Legend"));
    }

    void localMachine() {
        const Run r = cli({QStringLiteral("inspect"), QStringLiteral("--local"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject h =
            QJsonDocument::fromJson(r.out).object()[QStringLiteral("hosts")].toArray()[0].toObject();
        QCOMPARE(h[QStringLiteral("source")].toObject()[QStringLiteral("format")].toString(),
                 QStringLiteral("agent-snapshot"));
    }

    void usageErrors() {
        QCOMPARE(cli({QStringLiteral("inspect")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("frobnicate")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("inspect"), QStringLiteral("--bogus")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("inspect"), QStringLiteral("--help")}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestCliInspect)
#include "test_cli_inspect.moc"
