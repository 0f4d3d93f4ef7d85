#include "logging.h"

namespace rackscope {

Q_LOGGING_CATEGORY(lcImport, "rackscope.import", QtWarningMsg)
Q_LOGGING_CATEGORY(lcTransport, "rackscope.transport", QtWarningMsg)
Q_LOGGING_CATEGORY(lcRuns, "rackscope.runs", QtWarningMsg)
Q_LOGGING_CATEGORY(lcGui, "rackscope.gui", QtWarningMsg)

} // namespace rackscope
