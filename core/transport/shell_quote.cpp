#include "shell_quote.h"

#include <algorithm>

namespace rackscope {

QString shellQuote(const QString& argument) {
    auto plain = [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
               (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
               (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || QStringLiteral("@%_+=:,./-").contains(c);
    };
    if (!argument.isEmpty() && std::all_of(argument.begin(), argument.end(), plain))
        return argument;
    QString out = QStringLiteral("'");
    for (const QChar c : argument) {
        if (c == QLatin1Char('\''))
            out += QStringLiteral("'\\''");
        else
            out += c;
    }
    return out + QLatin1Char('\'');
}

ShellCommand shellCommand(const QStringList& argv) {
    if (argv.isEmpty() || argv.front().isEmpty())
        return {{}, QStringLiteral("no program to run")};
    QStringList words;
    for (int i = 0; i < argv.size(); ++i) {
        if (argv[i].contains(QChar(0)))
            return {{},
                    QStringLiteral("argument %1 holds a NUL byte, which no command line can carry").arg(i)};
        words << shellQuote(argv[i]);
    }
    return {words.join(QLatin1Char(' ')), {}};
}

} // namespace rackscope
