#pragma once
// One thread's epoll, for the native HTTP client: sockets level-triggered, a deadline to the nanosecond
// (a timerfd, re-armed only when the deadline moves) and a wake-up any thread can ring (an eventfd).
// Level-triggered so that a response costs one read: nothing is read speculatively before the kernel
// says there is something to read.
#include <sys/epoll.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace rsload {

class Poller {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr int kMaxReady = 256; // sockets handled per wait: the caller gets back to its schedule

    Poller();
    ~Poller();
    Poller(const Poller&) = delete;
    Poller& operator=(const Poller&) = delete;

    const std::string& error() const { return error_; } // empty when the poller could be made

    // Watches `fd` for `events` (EPOLLIN, EPOLLOUT), reported with `tag`. False with errno set.
    bool add(int fd, uint32_t events, void* tag) { return control(EPOLL_CTL_ADD, fd, events, tag); }
    bool change(int fd, uint32_t events, void* tag) { return control(EPOLL_CTL_MOD, fd, events, tag); }
    void remove(int fd);

    // Waits for I/O, a wake() or `until`, whichever is first (not at all when `block` is false), and
    // fills `ready` with the tags of the sockets that have something; their count, or -1 with `error` set.
    int wait(std::optional<Clock::time_point> until, bool block, void** ready, std::string* error);

    void wake(); // from any thread

private:
    int epoll_ = -1, timer_ = -1, wakeFd_ = -1;
    std::optional<Clock::time_point> armedFor_; // the timerfd's deadline, while one is set
    std::string error_;
    epoll_event events_[kMaxReady];

    bool control(int op, int fd, uint32_t events, void* tag);
    bool armTimer(Clock::time_point at, std::string* error);
};

} // namespace rsload
