// rackscope: the desktop explorer.
#include "main_window.h"
#include "rackscope_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rackscope"));
    QApplication::setApplicationVersion(QStringLiteral(RACKSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral("rackscope"));
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("rackscope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A topology to open; this machine when none."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save the window as a PNG once it is shown, then quit."),
                                        QStringLiteral("PNG"));
    parser.addOption(screenshot);
    parser.process(app);

    rackscope::gui::MainWindow window;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty() || !window.openTopology(files.first())) window.showLocalMachine();
    window.show();
    if (parser.isSet(screenshot))
        QTimer::singleShot(500, &window, [&] {
            const bool saved = window.grab().save(parser.value(screenshot));
            QApplication::exit(saved ? 0 : 1);
        });
    return app.exec();
}
