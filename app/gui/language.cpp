#include "language.h"

#include <QCoreApplication>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace rackscope::gui {

namespace {
const QString kKey = QStringLiteral("ui/language");
}

QString chosenLanguage() {
    return QSettings().value(kKey, QStringLiteral("system")).toString();
}
void rememberLanguage(const QString& choice) {
    QSettings().setValue(kKey, choice);
}

void applyLanguage(const QString& choice) {
    static QTranslator translator; // one catalogue at a time, for the life of the application
    QCoreApplication::removeTranslator(&translator);
    const QLocale locale = choice == QLatin1String("system") ? QLocale() : QLocale(choice);
    if (translator.load(locale, QStringLiteral("rackscope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);
}

} // namespace rackscope::gui
