#include "host_fs.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <regex>
#include <sys/stat.h>
#include <unistd.h>

namespace rsagent {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

std::optional<int64_t> parseInt(const std::string& s, int base) {
    if (s.empty())
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, base);
    if (errno || end == s.c_str() || *end)
        return std::nullopt;
    return v;
}

static std::optional<std::string> readRaw(const std::string& path, size_t max) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return std::nullopt;
    std::string out;
    char buf[8192];
    while (out.size() < max) {
        const ssize_t n = ::read(fd, buf, std::min(sizeof buf, max - out.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n < 0 && out.empty()) {
                ::close(fd);
                return std::nullopt;
            } // e.g. EINVAL on write-only attributes
            break;
        }
        out.append(buf, size_t(n));
    }
    ::close(fd);
    return out;
}

std::optional<std::string> readFileText(const std::string& path, size_t max) {
    auto raw = readRaw(path, max);
    if (!raw)
        return std::nullopt;
    return trim(*raw);
}

std::string pciAddressIn(const std::string& path) {
    static const std::regex re("[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
    std::string last;
    for (auto it = std::sregex_iterator(path.begin(), path.end(), re); it != std::sregex_iterator(); ++it)
        last = it->str();
    return last;
}

HostFs::HostFs(std::string sysRoot, std::string procRoot)
    : sysRoot_(std::move(sysRoot)), procRoot_(std::move(procRoot)),
      live_(sysRoot_ == "/sys" && procRoot_ == "/proc") {}

std::optional<std::string> HostFs::sys(const std::string& rel) const {
    return readFileText(sysRoot_ + "/" + rel);
}
std::optional<std::string> HostFs::proc(const std::string& rel) const {
    return readFileText(procRoot_ + "/" + rel);
}

std::optional<std::string> HostFs::sysBytes(const std::string& rel, size_t max) const {
    return readRaw(sysRoot_ + "/" + rel, max);
}

std::optional<int64_t> HostFs::sysInt(const std::string& rel) const {
    const auto t = sys(rel);
    return t ? parseInt(*t, 0) : std::nullopt;
}

std::optional<uint64_t> HostFs::sysU64(const std::string& rel) const {
    const auto t = sys(rel);
    if (!t || t->empty() || (*t)[0] == '-')
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(t->c_str(), &end, 0);
    if (errno || end == t->c_str() || *end)
        return std::nullopt;
    return v;
}

std::vector<std::string> HostFs::sysList(const std::string& rel) const {
    std::vector<std::string> out;
    DIR* d = ::opendir((sysRoot_ + "/" + rel).c_str());
    if (!d)
        return out;
    while (dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..")
            out.push_back(name);
        if (out.size() > 100000)
            break; // bounded: a hostile tree cannot exhaust memory
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

bool HostFs::sysExists(const std::string& rel) const {
    struct stat st {};
    return ::stat((sysRoot_ + "/" + rel).c_str(), &st) == 0;
}

std::optional<std::string> HostFs::sysLink(const std::string& rel) const {
    char buf[4096];
    const ssize_t n = ::readlink((sysRoot_ + "/" + rel).c_str(), buf, sizeof buf - 1);
    if (n <= 0)
        return std::nullopt;
    return std::string(buf, size_t(n));
}

} // namespace rsagent
