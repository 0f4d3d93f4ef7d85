#pragma once
#include <QString>
#include <QStringList>

namespace rackscope {

enum class Severity { Error, Warning, Info };
QString severityName(Severity s); // "error", "warning", "info"

// A verdict a person can act on: a stable code, the devices it concerns,
// and a sentence that says what is wrong and why it matters.
struct Finding {
    Severity severity = Severity::Info;
    QString code;
    QStringList subjects;
    QString message;
};

} // namespace rackscope
