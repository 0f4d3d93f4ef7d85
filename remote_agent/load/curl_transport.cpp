// The libcurl client: one epoll loop driving the multi interface (curl_multi_socket_action), for
// https:// and proxies. libcurl is opened at run time (curl_api.h).
#include "curl_api.h"
#include "http_transport.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <unordered_map>

namespace rsload {
namespace {

Failure failureOfCurl(CURLcode c) {
    switch (c) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_PEER_FAILED_VERIFICATION:
        return Failure::Connect;
    case CURLE_OPERATION_TIMEDOUT:
        return Failure::Timeout;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_HTTP2:
        return Failure::Protocol;
    default:
        return Failure::Dropped; // CURLE_GOT_NOTHING, PARTIAL_FILE, RECV_ERROR, SEND_ERROR, ...
    }
}

// The first of the environment variables that is set, as libcurl looks them up.
std::string firstVariable(std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (const char* v = std::getenv(n))
            return v;
    return {};
}

// epoll_pwait2 takes a timeout to the nanosecond: a scheduled send is not held to the next millisecond.
int waitEvents(int epoll, epoll_event* events, int max, Clock::duration wait) {
    const auto ns = std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count());
    timespec ts{time_t(ns / 1000000000), long(ns % 1000000000)};
    static bool havePwait2 = true;
    if (havePwait2) {
        const int n = ::epoll_pwait2(epoll, events, max, &ts, nullptr);
        if (n >= 0 || errno != ENOSYS)
            return n;
        havePwait2 = false;
    }
    return ::epoll_wait(epoll, events, max, int((ns + 999999) / 1000000));
}

class CurlTransport final : public HttpTransport {
public:
    CurlTransport(const HttpSetup& setup, const CurlApi* api) : setup_(setup), curl_(api) {
        epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
        wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    }
    ~CurlTransport() override {
        for (auto& [events, h] : inFlight_)
            release(h);
        idleHandles_.clear();
        if (multi_)
            curl_->multiCleanup(multi_);
        if (headers_)
            curl_->slistFreeAll(headers_);
        if (epoll_ >= 0)
            ::close(epoll_);
        if (wake_ >= 0)
            ::close(wake_);
    }

    std::string start() {
        if (epoll_ < 0 || wake_ < 0)
            return std::string("cannot make the event loop: ") + std::strerror(errno);
        epoll_event wakeEvent{};
        wakeEvent.events = EPOLLIN;
        wakeEvent.data.fd = wake_;
        ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &wakeEvent);
        multi_ = curl_->multiInit();
        if (!multi_)
            return "libcurl could not make a multi handle";
        curl_->multiSetopt(multi_, CURLMOPT_SOCKETFUNCTION, &CurlTransport::onSocket);
        curl_->multiSetopt(multi_, CURLMOPT_SOCKETDATA, this);
        curl_->multiSetopt(multi_, CURLMOPT_TIMERFUNCTION, &CurlTransport::onTimer);
        curl_->multiSetopt(multi_, CURLMOPT_TIMERDATA, this);
        // No cap on connections per host or in all; the cache keeps every stream's connection alive for its
        // next request.
        curl_->multiSetopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
        curl_->multiSetopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);
        curl_->multiSetopt(multi_, CURLMOPT_MAXCONNECTS,
                           long(setup_.concurrency > 0 ? setup_.concurrency + 16 : 100000));
        for (const auto& [name, value] : setup_.headers)
            headers_ = curl_->slistAppend(headers_, (name + ": " + value).c_str());
        headers_ =
            curl_->slistAppend(headers_, "Expect:"); // no 100-continue round trip before a large prompt
        // the proxy settings libcurl would read from the environment for every request, read once: http_proxy
        // only in lower case (a CGI program's HTTP_PROXY comes from a request header), then all_proxy
        const bool https = setup_.url.rfind("https://", 0) == 0;
        proxy_ = https ? firstVariable({"https_proxy", "HTTPS_PROXY"}) : firstVariable({"http_proxy"});
        if (proxy_.empty())
            proxy_ = firstVariable({"all_proxy", "ALL_PROXY"});
        noProxy_ = firstVariable({"no_proxy", "NO_PROXY"});
        if (!setup_.caPem.empty()) { // an older libcurl would not say so per request, and the check would
                                     // fail for the wrong reason
            ca_ = {const_cast<char*>(setup_.caPem.data()), setup_.caPem.size(),
                   CURL_BLOB_NOCOPY}; // setup_ outlives every handle
            CURL* probe = curl_->easyInit();
            const CURLcode rc =
                probe ? curl_->easySetopt(probe, CURLOPT_CAINFO_BLOB, &ca_) : CURLE_OUT_OF_MEMORY;
            if (probe)
                curl_->easyCleanup(probe);
            if (rc != CURLE_OK)
                return curl_->version +
                       " cannot take CA certificates from memory (libcurl 7.77 or newer can)";
        }
        return {};
    }

    std::string library() const override { return curl_->version; }

    bool send(const std::string& body, TransferEvents* events) override {
        Handle* h = takeHandle();
        if (!h)
            return false;
        h->events = events;
        h->status = 0;
        h->error[0] = '\0';
        if (setup_.get) {
            curl_->easySetopt(h->easy, CURLOPT_HTTPGET, 1L);
        } else {
            curl_->easySetopt(h->easy, CURLOPT_POSTFIELDS, body.c_str());
            curl_->easySetopt(h->easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
        }
        if (curl_->multiAddHandle(multi_, h->easy) != CURLM_OK) {
            HandleCleanup{curl_}(h);
            return false;
        }
        inFlight_[events] = h;
        return true;
    }

    void drop(TransferEvents* events) override {
        const auto it = inFlight_.find(events);
        if (it == inFlight_.end())
            return;
        release(it->second);
        inFlight_.erase(it);
    }

    bool wait(Clock::time_point until, std::string* error) override {
        const Clock::time_point now = Clock::now();
        if (deadline_)
            until = std::min(until, *deadline_);
        const int n = waitEvents(epoll_, events_, kEvents, until - now);
        if (n < 0 && errno != EINTR) {
            *error = std::string("the event loop failed: ") + std::strerror(errno);
            return false;
        }
        int running = 0;
        for (int i = 0; i < n; ++i) {
            const int fd = events_[i].data.fd;
            if (fd == wake_) {
                uint64_t v = 0;
                [[maybe_unused]] ssize_t got = ::read(wake_, &v, sizeof v);
                continue;
            }
            if (unwanted(fd))
                continue;
            const uint32_t e = events_[i].events;
            const int flags = (e & EPOLLIN ? CURL_CSELECT_IN : 0) | (e & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                              (e & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
            curl_->multiSocketAction(multi_, fd, flags, &running);
        }
        if (deadline_ && Clock::now() >= *deadline_) {
            deadline_.reset();
            curl_->multiSocketAction(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        drainFinished();
        return true;
    }

    void wake() override {
        const uint64_t one = 1;
        if (wake_ >= 0) [[maybe_unused]]
            ssize_t w = ::write(wake_, &one, sizeof one);
    }

private:
    static constexpr int kEvents = 512;
    HttpSetup setup_;
    const CurlApi* curl_;
    CURLM* multi_ = nullptr;
    curl_slist* headers_ = nullptr;
    std::string proxy_, noProxy_;
    curl_blob ca_{}; // setup_.caPem, for CURLOPT_CAINFO_BLOB
    int epoll_ = -1, wake_ = -1;
    epoll_event events_[kEvents];
    std::optional<Clock::time_point> deadline_; // libcurl's timer
    // One easy handle, kept for the next request; libcurl's callbacks get it as their user data.
    struct Handle {
        CURL* easy;
        CurlTransport* owner;
        TransferEvents* events;      // the request it carries now
        int status;                  // of that request's response, once known
        char error[CURL_ERROR_SIZE]; // libcurl's own words on a failure: which certificate check, say
    };
    struct HandleCleanup {
        const CurlApi* curl;
        void operator()(Handle* h) const {
            curl->easyCleanup(h->easy);
            delete h;
        }
    };
    std::vector<std::unique_ptr<Handle, HandleCleanup>> idleHandles_;
    std::unordered_map<TransferEvents*, Handle*> inFlight_;
    // What each socket is registered for in epoll, and whether libcurl still wants to hear of it. A socket
    // libcurl lets go of stays registered until it next says something or is closed: a keep-alive connection
    // goes from one request to the next without two epoll_ctl calls, which cost as much as the request's
    // send. Only sockets opened and closed through the callbacks below are kept so: the number of one closed
    // behind our back could come back for a new connection and never be registered.
    struct Watch {
        uint32_t events = 0;
        bool wanted = false;
        bool ours = false; // opened by onOpenSocket, so its close reaches onCloseSocket
    };
    std::unordered_map<curl_socket_t, Watch> watched_;

    static int onSocket(CURL*, curl_socket_t s, int what, void* user, void*) {
        auto* self = static_cast<CurlTransport*>(user);
        if (what == CURL_POLL_REMOVE) {
            const auto it = self->watched_.find(s);
            if (it != self->watched_.end() && it->second.ours) {
                it->second.wanted = false;
            } else {
                ::epoll_ctl(self->epoll_, EPOLL_CTL_DEL, s, nullptr);
                if (it != self->watched_.end())
                    self->watched_.erase(it);
            }
            return 0;
        }
        const uint32_t events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
        Watch& w = self->watched_[s];
        w.wanted = true;
        if (w.events == events)
            return 0;
        epoll_event ev{};
        ev.events = events;
        ev.data.fd = s;
        int rc = ::epoll_ctl(self->epoll_, w.events ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, s, &ev);
        if (rc != 0 && errno == EEXIST)
            rc = ::epoll_ctl(self->epoll_, EPOLL_CTL_MOD, s, &ev);
        w.events = rc == 0 ? events : 0;
        return 0;
    }

    // An event libcurl no longer asked for (an idle keep-alive connection the server closed): stop
    // watching the socket now; libcurl finds the connection dead when it next takes it from its cache.
    bool unwanted(int fd) {
        const auto it = watched_.find(fd);
        if (it != watched_.end() && it->second.wanted)
            return false;
        ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
        if (it != watched_.end())
            it->second.events = 0;
        return true;
    }

    // libcurl opens and closes its connections' sockets here: a closed number may come back for a new
    // connection, registered afresh.
    static curl_socket_t onOpenSocket(void* user, curlsocktype, curl_sockaddr* a) {
        const int s = ::socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
        if (s >= 0)
            static_cast<CurlTransport*>(user)->watched_[s] = Watch{0, false, true};
        return s >= 0 ? s : CURL_SOCKET_BAD;
    }
    static int onCloseSocket(void* user, curl_socket_t s) {
        static_cast<CurlTransport*>(user)->watched_.erase(s);
        return ::close(s);
    }

    static int onTimer(CURLM*, long timeoutMs, void* user) {
        auto* self = static_cast<CurlTransport*>(user);
        if (timeoutMs < 0)
            self->deadline_.reset();
        else
            self->deadline_ = Clock::now() + std::chrono::milliseconds(timeoutMs);
        return 0;
    }

    // The request is about to go out on its connection: its clock starts here, not when it was queued
    // in libcurl, so a burst of sends does not lengthen the later ones' TTFT (the wait shows as client
    // delay).
    static int onPrereq(void* user, char*, char*, int, int) {
        static_cast<Handle*>(user)->events->sending(Clock::now());
        return CURL_PREREQFUNC_OK;
    }

    static size_t onWrite(char* data, size_t size, size_t n, void* user) {
        auto* h = static_cast<Handle*>(user);
        const Clock::time_point now = Clock::now();
        if (!h->status) {
            long status = 0;
            h->owner->curl_->easyGetinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
            h->status = int(status);
        }
        return h->events->received(h->status, data, size * n, now) ? size * n : 0;
    }

    // A request handle, with what is the same for every request set once.
    Handle* takeHandle() {
        if (!idleHandles_.empty()) {
            Handle* h = idleHandles_.back().release();
            idleHandles_.pop_back();
            return h;
        }
        CURL* e = curl_->easyInit();
        if (!e)
            return nullptr;
        auto* h = new Handle{e, this, nullptr, 0, {}};
        const auto set = curl_->easySetopt;
        set(e, CURLOPT_URL, setup_.url.c_str());
        set(e, CURLOPT_HTTPHEADER, headers_);
        set(e, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
        set(e, CURLOPT_NOSIGNAL, 1L);
        set(e, CURLOPT_TCP_NODELAY, 1L);
        set(e, CURLOPT_WRITEFUNCTION, &CurlTransport::onWrite);
        set(e, CURLOPT_WRITEDATA, h);
        set(e, CURLOPT_PRIVATE, h);
        set(e, CURLOPT_PREREQFUNCTION, &CurlTransport::onPrereq);
        set(e, CURLOPT_PREREQDATA, h);
        set(e, CURLOPT_TIMEOUT_MS, long(setup_.timeoutS * 1000));
        set(e, CURLOPT_CONNECTTIMEOUT_MS, long(setup_.connectTimeoutS * 1000));
        set(e, CURLOPT_OPENSOCKETFUNCTION, &CurlTransport::onOpenSocket);
        set(e, CURLOPT_OPENSOCKETDATA, this);
        set(e, CURLOPT_CLOSESOCKETFUNCTION, &CurlTransport::onCloseSocket);
        set(e, CURLOPT_CLOSESOCKETDATA, this);
        set(e, CURLOPT_PROXY, proxy_.c_str());
        set(e, CURLOPT_NOPROXY, noProxy_.c_str());
        set(e, CURLOPT_ERRORBUFFER, h->error);
        if (!setup_.caPem.empty())
            set(e, CURLOPT_CAINFO_BLOB, &ca_);
        if (setup_.insecure) {
            set(e, CURLOPT_SSL_VERIFYPEER, 0L);
            set(e, CURLOPT_SSL_VERIFYHOST, 0L);
        }
        return h;
    }

    void release(Handle* h) {
        curl_->multiRemoveHandle(multi_, h->easy);
        h->events = nullptr;
        idleHandles_.emplace_back(h, HandleCleanup{curl_});
    }

    void drainFinished() {
        int left = 0;
        while (CURLMsg* m = curl_->multiInfoRead(multi_, &left)) {
            if (m->msg != CURLMSG_DONE)
                continue;
            Handle* h = nullptr;
            curl_->easyGetinfo(m->easy_handle, CURLINFO_PRIVATE, &h);
            if (!h || !h->events)
                continue;
            TransferEvents* events = h->events;
            TransferEnd end;
            if (m->data.result != CURLE_OK) {
                end.failure = failureOfCurl(m->data.result);
                end.detail = h->error[0] ? h->error : curl_->easyStrerror(m->data.result);
            }
            if (m->data.result == CURLE_OPERATION_TIMEDOUT)
                end.detail.clear(); // which timeout: the engine words it
            // Headers past libcurl's limit: "Too large response headers", or, on older versions, "Out of
            // memory".
            const bool headersTooLarge = m->data.result == CURLE_OUT_OF_MEMORY ||
                                         end.detail.find("response headers") != std::string::npos;
            if (m->data.result != CURLE_OK && headersTooLarge) {
                end.failure = Failure::Protocol;
                end.detail = "the response's headers are larger than libcurl takes (" + end.detail + ")";
            }
            long status = 0, connects = 0;
            curl_->easyGetinfo(m->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (status > 0)
                end.httpStatus = int(status);
            curl_->easyGetinfo(m->easy_handle, CURLINFO_NUM_CONNECTS, &connects);
            if (connects > 0) {
                curl_off_t connectUs = 0, appUs = 0;
                curl_->easyGetinfo(m->easy_handle, CURLINFO_CONNECT_TIME_T, &connectUs);
                curl_->easyGetinfo(m->easy_handle, CURLINFO_APPCONNECT_TIME_T, &appUs);
                end.connectMs = double(std::max(connectUs, appUs)) / 1000.0;
            }
            release(h);
            inFlight_.erase(events);
            events->ended(end); // the last use: the engine may free the request's memory
        }
    }
};

} // namespace

std::unique_ptr<HttpTransport> makeCurlTransport(const HttpSetup& setup, std::string* why) {
    const CurlApi* curl = openCurl(why);
    if (!curl)
        return nullptr;
    auto t = std::make_unique<CurlTransport>(setup, curl);
    if (std::string problem = t->start(); !problem.empty()) {
        *why = problem;
        return nullptr;
    }
    return t;
}

} // namespace rsload
