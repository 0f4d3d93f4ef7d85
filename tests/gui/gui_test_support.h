#pragma once
// Waiting for the window: its workspace works on another thread, so a test waits until what it asked for is
// shown, however long a busy machine takes.
#include "main_window.h"

#include <QTest>

namespace rackscope::test {

inline bool settled(gui::MainWindow& w, int timeoutMs = 120000) {
    QDeadlineTimer deadline(timeoutMs);
    while (w.busy() && !deadline.hasExpired())
        QTest::qWait(5);
    return !w.busy();
}

} // namespace rackscope::test
