#include "launcher_prefix.h"

#include <QRegularExpression>
#include <iterator>

namespace rackscope {

QString withoutLauncherPrefix(const QString& line, QString* source) {
    // Each: the prefix, and the part of it that names who printed the line.
    static const QRegularExpression prefixes[] = {
        QRegularExpression(QStringLiteral("^\\[\\d+,(\\d+)\\]<std(?:out|err)>:\\s?")), // mpirun --tag-output
        QRegularExpression(QStringLiteral("^\\(([^()]*\\bpid=\\d+[^()]*)\\)\\s")),     // Ray, SkyPilot
        QRegularExpression(QStringLiteral("^\\s*(\\d+):\\s")),                         // srun -l
        QRegularExpression(QStringLiteral("^([A-Za-z][\\w.-]*):\\s")),                 // pdsh, clush
    };
    QString rest = line;
    QStringList who;
    bool used[std::size(prefixes)] = {}; // each launcher adds its prefix once
    for (bool stripped = true; stripped;) {
        stripped = false;
        for (size_t i = 0; i < std::size(prefixes) && !stripped; ++i)
            if (const auto m = prefixes[i].match(rest); !used[i] && m.hasMatch()) {
                const bool rank = i == 0 || i == 2;
                who.prepend(rank ? QStringLiteral("rank ") + m.captured(1) : m.captured(1));
                rest = rest.mid(m.capturedLength());
                used[i] = stripped = true;
            }
    }
    if (source)
        *source = who.join(QStringLiteral(", "));
    return rest;
}

} // namespace rackscope
