// rackscope: the desktop explorer.
#include "language.h"
#include "main_window.h"
#include "rackscope_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rackscope"));
    QApplication::setApplicationVersion(QStringLiteral(RACKSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral("rackscope"));
    rackscope::gui::applyLanguage(rackscope::gui::chosenLanguage());

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral(
            "Topologies, fabric sources, a cluster file or a session to open; this machine when none."),
        QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"), QStringLiteral("Save the window as a PNG once it is shown, then quit."),
        QStringLiteral("PNG"));
    parser.addOption(screenshot);
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Open the demo cluster that ships with rackscope."));
    parser.addOption(demo);
    const QCommandLineOption select(
        QStringLiteral("select"),
        QStringLiteral("Select and centre this item (\"node08/GPU4\", \"host:node01\")."),
        QStringLiteral("ID"));
    parser.addOption(select);
    parser.process(app);

    auto* window = new rackscope::gui::MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(demo))
        window->openDemo();
    else if (files.isEmpty() || !window->openFiles(files))
        window->showLocalMachine();
    window->show();
    // Once what was asked is shown: the workspace works on its own thread.
    auto* settle = new QTimer(window);
    settle->start(100);
    QObject::connect(settle, &QTimer::timeout, window, [&parser, select, screenshot, window, settle] {
        if (window->busy())
            return;
        settle->stop();
        if (parser.isSet(select))
            window->selectItem(parser.value(select));
        if (parser.isSet(screenshot))
            QTimer::singleShot(300, window, [&parser, screenshot, window] { // painted
                QApplication::exit(window->grab().save(parser.value(screenshot)) ? 0 : 1);
            });
    });
    return app.exec();
}
