#pragma once
// One logging category per subsystem, quiet below warnings by default. Turn
// one on with QT_LOGGING_RULES, e.g. QT_LOGGING_RULES="rackscope.transport.debug=true".
#include <QLoggingCategory>

namespace rackscope {

Q_DECLARE_LOGGING_CATEGORY(lcImport)    // rackscope.import: which reader took a file, and what it made of it
Q_DECLARE_LOGGING_CATEGORY(lcTransport) // rackscope.transport: SSH stages, agent deploy, the local agent
Q_DECLARE_LOGGING_CATEGORY(lcRuns)      // rackscope.runs: launcher command lines, load clients, how runs end
Q_DECLARE_LOGGING_CATEGORY(lcGui)       // rackscope.gui: the window's jobs

} // namespace rackscope
