// rackscope: the desktop explorer.
#include "main_window.h"
#include "rackscope_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>
#include <QSettings>
#include <QTimer>
#include <QTranslator>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rackscope"));
    QApplication::setApplicationVersion(QStringLiteral(RACKSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral("rackscope"));
    // The language chosen in View → Language, else the system's.
    const QString language = QSettings().value(QStringLiteral("ui/language"), QStringLiteral("system")).toString();
    const QLocale locale = language == QLatin1String("system") ? QLocale() : QLocale(language);
    QTranslator translator;
    if (translator.load(locale, QStringLiteral("rackscope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Topologies, fabric sources, a cluster file or a session to open; this machine when none."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save the window as a PNG once it is shown, then quit."),
                                        QStringLiteral("PNG"));
    parser.addOption(screenshot);
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Open the demo cluster that ships with rackscope."));
    parser.addOption(demo);
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select and centre this item (\"node08/GPU4\", \"host:node01\")."),
                                    QStringLiteral("ID"));
    parser.addOption(select);
    parser.process(app);

    rackscope::gui::MainWindow window;
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(demo)) window.openDemo();
    else if (files.isEmpty() || !window.openFiles(files)) window.showLocalMachine();
    window.show();
    if (parser.isSet(select))
        QTimer::singleShot(100, &window, [&] { window.selectItem(parser.value(select)); });
    if (parser.isSet(screenshot))
        QTimer::singleShot(800, &window, [&] {
            const bool saved = window.grab().save(parser.value(screenshot));
            QApplication::exit(saved ? 0 : 1);
        });
    return app.exec();
}
