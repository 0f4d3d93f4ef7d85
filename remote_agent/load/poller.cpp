#include "poller.h"

#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rsload {

namespace {
std::string systemError(const char* what) {
    return std::string(what) + ": " + std::strerror(errno);
}
} // namespace

Poller::Poller() {
    epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    timer_ = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); // steady_clock's clock
    wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_ < 0 || timer_ < 0 || wakeFd_ < 0)
        error_ = systemError("cannot make the client's event loop");
    else if (!add(timer_, EPOLLIN, &timer_) || !add(wakeFd_, EPOLLIN, &wakeFd_))
        error_ = systemError("cannot watch the client's timer");
}

Poller::~Poller() {
    for (int fd : {wakeFd_, timer_, epoll_})
        if (fd >= 0)
            ::close(fd);
}

bool Poller::control(int op, int fd, uint32_t events, void* tag) {
    epoll_event e{};
    e.events = events;
    e.data.ptr = tag;
    return ::epoll_ctl(epoll_, op, fd, &e) == 0;
}

void Poller::remove(int fd) {
    ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
}

bool Poller::armTimer(Clock::time_point at, std::string* error) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
    itimerspec spec{};
    spec.it_value.tv_sec = time_t(ns / 1000000000);
    spec.it_value.tv_nsec = long(ns % 1000000000);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0)
        spec.it_value.tv_nsec = 1; // all zero would disarm it
    if (::timerfd_settime(timer_, TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
        *error = systemError("cannot set the client's timer");
        return false;
    }
    armedFor_ = at;
    return true;
}

int Poller::wait(std::optional<Clock::time_point> until, bool block, void** ready, std::string* error) {
    int timeoutMs = block ? -1 : 0;
    if (block && until && armedFor_ != until) { // armed already for it: it rings when it is due
        if (*until <= Clock::now())
            timeoutMs = 0;
        else if (!armTimer(*until, error))
            return -1;
    }
    const int n = ::epoll_wait(epoll_, events_, kMaxReady, timeoutMs);
    if (n < 0) {
        if (errno == EINTR)
            return 0;
        *error = systemError("the client's event loop failed");
        return -1;
    }
    int count = 0;
    for (int i = 0; i < n; ++i) {
        void* tag = events_[i].data.ptr;
        if (tag == &timer_ || tag == &wakeFd_) { // said by returning; read so that it stops being ready
            uint64_t ticks = 0;
            [[maybe_unused]] const ssize_t r =
                ::read(tag == &timer_ ? timer_ : wakeFd_, &ticks, sizeof ticks);
            if (tag == &timer_)
                armedFor_.reset();
            continue;
        }
        ready[count++] = tag;
    }
    return count;
}

void Poller::wake() {
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t w = ::write(wakeFd_, &one, sizeof one);
}

} // namespace rsload
