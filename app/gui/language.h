#pragma once
// The window's language: English, Simplified Chinese, or the system's, as
// chosen in View → Language (remembered in QSettings "ui/language").
#include <QString>

namespace rackscope::gui {

QString chosenLanguage(); // "system", "en" or "zh_CN"
void rememberLanguage(const QString& choice);
// Installs the catalogue for a choice in place of the one before (none for English).
void applyLanguage(const QString& choice);

} // namespace rackscope::gui
