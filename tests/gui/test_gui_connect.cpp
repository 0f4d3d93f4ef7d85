// The window reaching real servers (sshd in network namespaces): each server
// listed with its progress, an unknown host key asked about in a dialog that
// shows the fingerprint, and the reports arriving as the servers answer.
#include "gui_test_support.h"
#include "test_support.h"
#include "transport/ssh_test_hosts.h"

#include "main_window.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QPointer>
#include <QSignalSpy>
#include <QTimer>
#include <QTreeWidget>

using namespace rackscope;
using namespace rackscope::test;

class TestGuiConnect : public QObject {
    Q_OBJECT
private slots:
    void asksAboutAnUnknownKeyAndShowsEachServer() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QSKIP(qPrintable(why));
        qputenv("RACKSCOPE_AGENT", RACKSCOPE_AGENT);
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("known1")));
        QVERIFY(hosts.add(QStringLiteral("new1")));
        const QString known = hosts.knownHosts({QStringLiteral("known1")});

        gui::MainWindow w;
        QString question;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("hostKeyQuestion"))
                return;
            question = box->text();
            for (QAbstractButton* b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::AcceptRole)
                    b->click();
        });
        answer.start(50);
        QSignalSpy done(&w, &gui::MainWindow::serversDone);
        // 60 s a stage: the agent's upload and collection under ASan on a busy 2-core machine take more
        // than 10.
        QVERIFY(
            w.connectToHosts({QStringLiteral("known1,new1"), hosts.sshConfig(), known, QString(), 8, 60}));
        QCOMPARE(w.serverList()->topLevelItemCount(), 2);
        QVERIFY(done.wait(180000));
        QVERIFY2(question.contains(hosts.host(QStringLiteral("new1")).address) &&
                     question.contains(QStringLiteral("SHA256:")),
                 qPrintable(question));
        QStringList shown;
        for (const InspectedHost& h : w.hosts())
            shown << h.host.source.location;
        QVERIFY2(w.hosts().size() == 2,
                 qPrintable(shown.join(QLatin1Char(' ')) + QStringLiteral(" / ") +
                            w.serverList()->topLevelItem(0)->text(1) + QStringLiteral(" / ") +
                            w.serverList()->topLevelItem(1)->text(1)));
        for (int i = 0; i < 2; ++i)
            QVERIFY2(w.serverList()->topLevelItem(i)->text(1).startsWith(QStringLiteral("ok")),
                     qPrintable(w.serverList()->topLevelItem(i)->text(1)));
        QFile f(known);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(hosts.host(QStringLiteral("new1")).address.toUtf8()));
        // Again, over the same connections.
        QSignalSpy again(&w, &gui::MainWindow::serversDone);
        w.refreshServers();
        QVERIFY(again.wait(180000));
        QVERIFY(w.serverList()->topLevelItem(0)->text(1).contains(QStringLiteral("reused")));
    }

    void aFailedConnectKeepsTheViewAndSaysWhy() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QSKIP(qPrintable(why));
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("nokey1")));
        gui::MainWindow w;
        w.openDemo();
        QVERIFY(settled(w));
        const size_t shown = w.hosts().size();
        QVERIFY(shown > 0);
        QTimer refuse; // the unknown key's question, answered no
        connect(&refuse, &QTimer::timeout, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("hostKeyQuestion"))
                return;
            for (QAbstractButton* b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::RejectRole)
                    b->click();
        });
        refuse.start(50);
        QSignalSpy done(&w, &gui::MainWindow::serversDone);
        QVERIFY(w.connectToHosts({QStringLiteral("nokey1"), hosts.sshConfig(),
                                  hosts.path(QStringLiteral("empty_known_hosts")), QString(), 8, 60}));
        QVERIFY(done.wait(60000));
        QCOMPARE(w.hosts().size(), shown); // the demo is still what is shown
        QTreeWidgetItem* item = w.serverList()->topLevelItem(0);
        QVERIFY2(item->text(1).contains(QStringLiteral("host-key")) && item->toolTip(1) == item->text(1),
                 qPrintable(item->text(1)));
    }

    // Replacing or stopping the fleet while its question is open waits on nobody: the worker gives the
    // question up, the dialog closes by itself, and the window goes on.
    void replacingOrStoppingTheFleetWhileAQuestionIsOpen() {
        if (const QString why = SshTestHosts::missing(); !why.isEmpty())
            QSKIP(qPrintable(why));
        SshTestHosts hosts;
        QVERIFY(hosts.ok());
        QVERIFY(hosts.add(QStringLiteral("ask1")));
        const gui::ConnectRequest request{QStringLiteral("ask1"),
                                          hosts.sshConfig(),
                                          hosts.path(QStringLiteral("empty_known_hosts")),
                                          QString(),
                                          8,
                                          60};
        gui::MainWindow w;
        const auto question = [] { return qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); };
        QVERIFY(w.connectToHosts(request));
        QTRY_VERIFY_WITH_TIMEOUT(question() && question()->objectName() == QLatin1String("hostKeyQuestion"),
                                 120000);
        QPointer<QMessageBox> first = question();
        QVERIFY(w.connectToHosts(request)); // replaces the fleet that is asking: before, this waited forever
        QTRY_VERIFY_WITH_TIMEOUT(first.isNull(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(question() && question()->objectName() == QLatin1String("hostKeyQuestion"),
                                 120000); // the new fleet asks
        QPointer<QMessageBox> second = question();
        QSignalSpy done(&w, &gui::MainWindow::serversDone);
        w.fleet()->cancel(); // File → Stop connecting
        QVERIFY(done.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(second.isNull(), 60000);
        QVERIFY2(w.serverList()->topLevelItem(0)->text(1).contains(QStringLiteral("cancelled")) ||
                     w.serverList()->topLevelItem(0)->text(1).contains(QStringLiteral("host-key")),
                 qPrintable(w.serverList()->topLevelItem(0)->text(1)));
    }
};

QTEST_MAIN(TestGuiConnect)
#include "test_gui_connect.moc"
