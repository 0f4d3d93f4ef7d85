// One workspace behind both faces: the same inputs opened through
// `rackscope-cli inspect --json` and through the window show the same
// servers, in the same order, and the same findings (servers' and fabric's),
// for a cluster file with its fabric, topology files beside a fabric source,
// a saved run, and a session the window saved.
#include "gui_test_support.h"
#include "test_support.h"

#include "findings_panel.h"
#include "main_window.h"
#include "runs/run_record.h"
#include "runs_panel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

namespace {

// What a face shows, reduced to what must be the same: the servers in order, and every finding as one line.
struct Shown {
    QStringList hosts;
    QStringList findings;
};

QString findingLine(const QString& host, const QString& code, const QStringList& subjects,
                    const QString& message) {
    return QStringList{host, code, subjects.join(QLatin1Char(',')), message}.join(QLatin1Char('|'));
}

Shown throughCli(const QStringList& inputs) {
    QProcess p;
    p.start(QStringLiteral(RACKSCOPE_CLI),
            QStringList{QStringLiteral("inspect"), QStringLiteral("--json")} + inputs);
    if (!p.waitForFinished(120000))
        return {};
    const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    Shown s;
    const auto add = [&](const QString& host, const QJsonArray& findings) {
        for (const QJsonValue& v : findings) {
            const QJsonObject f = v.toObject();
            QStringList subjects;
            for (const QJsonValue& x : f.value("subjects").toArray())
                subjects << x.toString();
            s.findings << findingLine(host, f.value("code").toString(), subjects,
                                      f.value("message").toString());
        }
    };
    for (const QJsonValue& v : doc.value("hosts").toArray()) {
        const QJsonObject h = v.toObject();
        s.hosts << h.value("name").toString();
        add(h.value("name").toString(), h.value("findings").toArray());
    }
    add({}, doc.value("fabric").toObject().value("findings").toArray());
    for (const QJsonValue& v : doc.value("runs").toArray())
        for (const QJsonValue& f : v.toObject().value("findings").toArray())
            add(f.toObject().value("target").toObject().value("host").toString(), QJsonArray{f});
    s.findings.sort();
    return s;
}

Shown throughWindow(gui::MainWindow& w, const QStringList& inputs) {
    w.openFiles(inputs);
    if (!settled(w))
        return {};
    Shown s;
    for (const InspectedHost& h : w.hosts())
        s.hosts << h.host.name;
    for (const WorkspaceFinding& f : w.workspace()->view()->findings)
        s.findings << findingLine(f.host, f.finding.code, f.finding.subjects, f.finding.message);
    s.findings.sort();
    return s;
}

} // namespace

class TestGuiWorkspace : public QObject {
    Q_OBJECT
private slots:
    void bothFacesShowTheSame_data() {
        QTest::addColumn<QStringList>("inputs");
        QTest::newRow("cluster file with its fabric") << QStringList{QStringLiteral(":/demo/demo.cluster")};
        QTest::newRow("topologies beside a fabric source")
            << QStringList{fixture(QStringLiteral("nccl-topo-azure-ndv4.xml")),
                           fixture(QStringLiteral("topo-m-4xK40m-2socket-mlx4-legacy-SOC.txt")),
                           fixture(QStringLiteral("ibnetdiscover-small-cluster-sdr-ibm.txt"))};
    }
    void bothFacesShowTheSame() {
        QFETCH(QStringList, inputs);
        gui::MainWindow w;
        const Shown cli = throughCli(inputs), window = throughWindow(w, inputs);
        QVERIFY(!cli.hosts.isEmpty());
        QCOMPARE(window.hosts, cli.hosts);
        QVERIFY(!cli.findings.isEmpty());
        QCOMPARE(window.findings, cli.findings);
        QCOMPARE(w.findingList()->topLevelItemCount(),
                 int(cli.findings.size())); // and the Findings dock lists each
    }

    // A session the window saved (with a flagged server) opens the same in both faces.
    void aSavedSessionOpensTheSameInBoth() {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("rack.rsession"));
        {
            gui::MainWindow saver;
            saver.openDemo();
            QVERIFY(settled(saver));
            saver.markFlagged({QStringLiteral("node03")});
            QVERIFY(settled(saver));
            QVERIFY(saver.saveSession(session));
        }
        gui::MainWindow w;
        const Shown cli = throughCli({session}), window = throughWindow(w, {session});
        QCOMPARE(cli.hosts.size(), 8);
        QCOMPARE(window.hosts, cli.hosts);
        QCOMPARE(window.findings, cli.findings);
        QCOMPARE(w.workspace()->view()->workspace.flagged(), QStringList{QStringLiteral("node03")});
    }

    // A saved run beside the servers it ran on: the same findings in both faces (how it ended, the counters
    // that rose), listed in the Runs dock, and kept by a session the window saves.
    void aSavedRunIsShownAndKept() {
        QTemporaryDir dir;
        const QString path =
            writeRunRecord(dir.path(), QStringLiteral("all_reduce on node01,node02"),
                           {QStringLiteral("node01"), QStringLiteral("node02")},
                           QStringLiteral("nccl-tests-all_reduce-2node-16xH100-gcp-a3mega.txt"),
                           {QStringLiteral("node01"), QStringLiteral("ib/mlx5_0/1/symbol_error"), 0, 40}, 1,
                           QStringLiteral("node02: connection lost"));
        QVERIFY(!path.isEmpty());
        const QStringList inputs{QStringLiteral(":/demo/demo.cluster"), path};

        gui::MainWindow w;
        const Shown window = throughWindow(w, inputs);
        const Shown cli = throughCli(inputs);
        QCOMPARE(window.hosts, cli.hosts);
        QCOMPARE(window.findings, cli.findings);
        QVERIFY2(cli.findings.join('\n').contains(QStringLiteral("run-failed")),
                 qPrintable(cli.findings.join('\n')));
        QVERIFY(cli.findings.join('\n').contains(QStringLiteral("node01|run-counter-errors")));
        QCOMPARE(w.runsPanel()->runList()->findItems(path, Qt::MatchExactly, 3).size(), 1);

        const QString session = dir.filePath(QStringLiteral("with-run.rsession"));
        QVERIFY(w.saveSession(session));
        gui::MainWindow reopened;
        const Shown again = throughWindow(reopened, {session});
        QCOMPARE(again.findings, window.findings);
        QCOMPARE(throughCli({session}).findings, cli.findings);
        QCOMPARE(reopened.runsPanel()->runList()->findItems(path, Qt::MatchExactly, 3).size(), 1);
    }

    // This machine through its agent keeps what its NICs see of the fabric, as `fabric --local` reports it.
    void thisMachineKeepsItsFabric() {
        gui::MainWindow w;
        w.showLocalMachine();
        QVERIFY(settled(w));
        QCOMPARE(w.hosts().size(), std::size_t(1));
        QProcess p;
        p.start(QStringLiteral(RACKSCOPE_CLI),
                {QStringLiteral("fabric"), QStringLiteral("--local"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(120000));
        const QJsonObject fabric = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const std::optional<Fabric>& shown = w.workspace()->view()->workspace.fabric();
        QCOMPARE(shown.has_value(), p.exitCode() == 0);
        if (!shown)
            return;
        QCOMPARE(qsizetype(shown->links.size()), fabric.value("links").toArray().size());
        qsizetype switches = 0;
        for (const FabricNode& n : shown->nodes)
            switches += n.kind == FabricNodeKind::Switch;
        QCOMPARE(switches, fabric.value("switches").toArray().size());
    }
};

QTEST_MAIN(TestGuiWorkspace)
#include "test_gui_workspace.moc"
