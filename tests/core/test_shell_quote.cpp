// Remote arguments survive a real POSIX shell byte for byte: every command
// line is handed to /bin/sh (dash, as on Debian servers) and to bash, and the
// words they see are compared with the words we meant.
#include "test_support.h"

#include "transport/shell_quote.h"

#include <QProcess>
#include <QRandomGenerator>

using namespace rackscope;

namespace {

// The words `shell -c LINE` passes to printf, each ended by a NUL.
QList<QByteArray> wordsSeenBy(const QString& shell, const QString& line) {
    QProcess p;
    p.start(shell, {QStringLiteral("-c"), QStringLiteral("printf '%s\\0' ") + line});
    p.waitForFinished(10000);
    QList<QByteArray> words = p.readAllStandardOutput().split('\0');
    words.removeLast();
    return words;
}

QList<QByteArray> utf8(const QStringList& words) {
    QList<QByteArray> out;
    for (const QString& w : words)
        out << w.toUtf8();
    return out;
}

} // namespace

class TestShellQuote : public QObject {
    Q_OBJECT
private slots:
    void readableWhereSafe() {
        QCOMPARE(shellQuote(QStringLiteral("/home/u/.cache/rackscope/agent/0.1.0/rackscope-agent")),
                 QStringLiteral("/home/u/.cache/rackscope/agent/0.1.0/rackscope-agent"));
        QCOMPARE(shellQuote(QStringLiteral("--stdio")), QStringLiteral("--stdio"));
        QCOMPARE(shellQuote(QString()), QStringLiteral("''"));
        QCOMPARE(shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
        QCOMPARE(shellQuote(QStringLiteral("a b")), QStringLiteral("'a b'"));
    }

    void hostileArgumentsSurviveRealShells_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::newRow("spaces and quotes")
            << QStringList{QStringLiteral("printf"), QStringLiteral("a b"), QStringLiteral("'"),
                           QStringLiteral("\""), QStringLiteral("''''")};
        QTest::newRow("expansions") << QStringList{QStringLiteral("x"),     QStringLiteral("$(id)"),
                                                   QStringLiteral("`id`"),  QStringLiteral("${HOME}"),
                                                   QStringLiteral("$HOME"), QStringLiteral("\\$")};
        QTest::newRow("operators") << QStringList{
            QStringLiteral("x"),  QStringLiteral(";"),  QStringLiteral("&&"), QStringLiteral("|"),
            QStringLiteral(">f"), QStringLiteral("<f"), QStringLiteral("&"),  QStringLiteral("#c")};
        QTest::newRow("globs") << QStringList{QStringLiteral("x"), QStringLiteral("*"),
                                              QStringLiteral("?"), QStringLiteral("[a]"),
                                              QStringLiteral("~"), QStringLiteral("{a,b}")};
        QTest::newRow("whitespace") << QStringList{QStringLiteral("x"),      QStringLiteral("\n"),
                                                   QStringLiteral("\t"),     QStringLiteral(" lead"),
                                                   QStringLiteral("trail "), QString()};
        QTest::newRow("dashes and unicode")
            << QStringList{QStringLiteral("x"), QStringLiteral("-n"), QStringLiteral("--"),
                           QStringLiteral("节点01"), QStringLiteral("é\u00a0")};
    }
    void hostileArgumentsSurviveRealShells() {
        QFETCH(QStringList, argv);
        const ShellCommand c = shellCommand(argv);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        for (const QString& shell : {QStringLiteral("/bin/sh"), QStringLiteral("/bin/bash")})
            QCOMPARE(wordsSeenBy(shell, c.line), utf8(argv));
    }

    void randomBytesSurvive() {
        QRandomGenerator rng(7);
        for (int round = 0; round < 200; ++round) {
            QStringList argv{QStringLiteral("x")};
            for (int w = 0; w < 4; ++w) {
                QString word;
                const int n = int(rng.bounded(12));
                for (int i = 0; i < n; ++i)
                    word += QChar(char16_t(1 + rng.bounded(126))); // ASCII without NUL
                argv << word;
            }
            const ShellCommand c = shellCommand(argv);
            QCOMPARE(wordsSeenBy(QStringLiteral("/bin/sh"), c.line), utf8(argv));
        }
    }

    void refused() {
        QVERIFY(!shellCommand({}).error.isEmpty());
        QVERIFY(!shellCommand({QString()}).error.isEmpty());
        const ShellCommand nul =
            shellCommand({QStringLiteral("x"), QStringLiteral("a") + QChar(0) + QStringLiteral("b")});
        QVERIFY(nul.line.isEmpty());
        QVERIFY(nul.error.contains(QStringLiteral("argument 1")));
    }
};

QTEST_GUILESS_MAIN(TestShellQuote)
#include "test_shell_quote.moc"
