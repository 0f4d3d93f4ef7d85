// A job's NCCL_DEBUG=INFO log opened beside the servers: the workspace reads what each rank used and lays it
// over the server it ran on, so the window draws it (a rank on NET/Socket between nodes is an error on its
// server); a log of servers not shown is kept and judged when they are.
#include "test_support.h"

#include "workspace/workspace.h"

#include <QTemporaryDir>
#include <QTemporaryFile>

using namespace rackscope;
using namespace rackscope::test;

namespace {

const char kSocketLog[] =
    "nccl-debug-info_2node-16xH100-gcp-a3-net-socket-fallback-gdr-disabled_rank0_lines1-96.log";
const char kHost[] = "gke-hypercomputer-a3-a3-h100-dws-pool-16664d9c-hv7m";

bool hasFinding(const Workspace& ws, const char* code, const QString& host) {
    for (const WorkspaceFinding& f : ws.findings())
        if (f.finding.code == QLatin1String(code) && f.host == host)
            return true;
    return false;
}

} // namespace

class TestWorkspaceNcclLog : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString clusterFile() {
        const QString path = dir_.filePath(QStringLiteral("a3.cluster"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QStringLiteral("rackscope-cluster 1\nhost %1 %2\n")
                    .arg(QLatin1String(kHost), fixture(QStringLiteral("topo-m-8xH100-8nic-spaces.txt")))
                    .toUtf8());
        return path;
    }

private slots:
    void theLogIsLaidOverItsServer() {
        Workspace ws;
        const auto failed =
            ws.open({clusterFile(), incoming(QLatin1String(kSocketLog))}, Workspace::Mode::Replace);
        QVERIFY2(failed.empty(), failed.empty() ? "" : qPrintable(failed.front().message));
        QCOMPARE(ws.ncclLogs().size(), size_t(1));
        QVERIFY(!ws.ncclLogs().front().transport.ranks.empty());
        QVERIFY(hasFinding(ws, codes::kNcclSocketFallback, QLatin1String(kHost)));
        // Drawn on the server: the diagram marks what NCCL did there.
        const Diagram d = buildDiagram(ws.diagramInput());
        QVERIFY(std::any_of(d.highlights.begin(), d.highlights.end(), [&](const Highlight& h) {
            return h.kind == HighlightKind::RunTransport && d.items[size_t(h.items.front())].host == kHost;
        }));
        // Kept in a session, byte for byte.
        bool kept = false;
        for (const RawSource& r : ws.session().sources)
            kept = kept || r.location.endsWith(QLatin1String(kSocketLog));
        QVERIFY(kept);
    }

    // Opened before its server: judged once the server is shown.
    void aLogBeforeItsServer() {
        Workspace ws;
        QVERIFY(ws.open({incoming(QLatin1String(kSocketLog))}, Workspace::Mode::Replace).empty());
        QVERIFY(!ws.empty());
        QVERIFY(ws.open({clusterFile()}, Workspace::Mode::Add).empty());
        QVERIFY(hasFinding(ws, codes::kNcclSocketFallback, QLatin1String(kHost)));
    }

    // Every NCCL_DEBUG capture is read as a log; text that is nobody's log is still refused.
    void everyCaptureIsALog() {
        for (const QString& path : QDir(QStringLiteral(RACKSCOPE_INCOMING_FIXTURES_DIR))
                                       .entryList({QStringLiteral("nccl-debug-info_transport-lines_*")})) {
            Workspace ws;
            QVERIFY2(ws.open({incoming(path)}, Workspace::Mode::Replace).empty(), qPrintable(path));
            QCOMPARE(ws.ncclLogs().size(), size_t(1));
        }
        QTemporaryFile other;
        QVERIFY(other.open());
        other.write("just some text\nNCCL is mentioned but says nothing\n");
        other.close();
        Workspace ws;
        QCOMPARE(ws.open({other.fileName()}, Workspace::Mode::Replace).size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceNcclLog)
#include "test_workspace_nccl_log.moc"
