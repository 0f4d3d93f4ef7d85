#pragma once
// Ctrl+C, `kill -TERM` and a closed terminal (SIGHUP) end a run the way its
// cancel does: the handler only sets a flag, and a timer on the event loop
// calls `cancel` within 100 ms. The default handlers come back when it goes.
#include <QTimer>
#include <functional>

namespace rackscope::cli {

class InterruptWatch {
public:
    explicit InterruptWatch(std::function<void()> cancel);
    ~InterruptWatch();
    InterruptWatch(const InterruptWatch&) = delete;
    InterruptWatch& operator=(const InterruptWatch&) = delete;

private:
    QTimer poll_;
};

} // namespace rackscope::cli
