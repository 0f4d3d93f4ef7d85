// rackscope: the desktop explorer.
#include "main_window.h"
#include "rackscope_version.h"

#include <QApplication>
#include <QLocale>
#include <QTranslator>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rackscope"));
    QApplication::setApplicationVersion(QStringLiteral(RACKSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral("rackscope"));
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("rackscope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);
    rackscope::gui::MainWindow window;
    const QStringList files = app.arguments().mid(1);
    if (files.isEmpty() || !window.openTopology(files.first())) window.showLocalMachine();
    window.show();
    return app.exec();
}
