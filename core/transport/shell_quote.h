#pragma once
// The one place a command line for a remote shell is built. SSH hands the
// server one string that the user's login shell splits again, so every
// argument is quoted here, POSIX single-quote style, and nothing else builds
// remote command lines.
#include <QString>
#include <QStringList>

namespace rackscope {

// "it's" -> 'it'\''s'. A word made only of characters no shell treats
// specially stays bare, so logs stay readable.
QString shellQuote(const QString& argument);

struct ShellCommand {
    QString line;  // empty when error is set
    QString error; // an argument no shell can receive (a NUL byte), or no program
};
ShellCommand shellCommand(const QStringList& argv);

} // namespace rackscope
