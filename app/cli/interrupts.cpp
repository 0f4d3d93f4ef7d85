#include "interrupts.h"

#include <csignal>

namespace rackscope::cli {
namespace {

volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) {
    interrupted = 1;
}
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

} // namespace

InterruptWatch::InterruptWatch(std::function<void()> cancel) {
    interrupted = 0;
    for (int s : kSignals)
        std::signal(s, onInterrupt);
    QObject::connect(&poll_, &QTimer::timeout, [cancel = std::move(cancel)] {
        if (!interrupted)
            return;
        interrupted = 0;
        cancel();
    });
    poll_.start(100);
}

InterruptWatch::~InterruptWatch() {
    for (int s : kSignals)
        std::signal(s, SIG_DFL);
}

} // namespace rackscope::cli
