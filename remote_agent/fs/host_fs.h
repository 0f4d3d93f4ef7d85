#pragma once
// Every file the agent reads goes through here, relative to a root, so a
// captured /sys or /proc tree replays exactly like the live one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rsagent {

class HostFs {
public:
    HostFs(std::string sysRoot = "/sys", std::string procRoot = "/proc");

    bool live() const { return live_; } // both roots are the real ones
    const std::string& sysRoot() const { return sysRoot_; }

    // Files under sysRoot ("class/net") or procRoot ("net/route").
    std::optional<std::string> sys(const std::string& rel) const; // trimmed text, at most 1 MiB
    std::optional<std::string> proc(const std::string& rel) const;
    std::optional<int64_t> sysInt(const std::string& rel) const;
    std::optional<uint64_t> sysU64(const std::string& rel) const;
    std::vector<std::string> sysList(const std::string& rel) const; // sorted entry names
    bool sysExists(const std::string& rel) const;
    // Target of a symlink under sysRoot, as the kernel wrote it ("../../devices/pci0000:00/...").
    std::optional<std::string> sysLink(const std::string& rel) const;
    std::optional<std::string> sysBytes(const std::string& rel,
                                        size_t max) const; // raw, for PCI config space

private:
    std::string sysRoot_, procRoot_;
    bool live_;
};

std::optional<std::string> readFileText(const std::string& path, size_t max = 1 << 20);
std::string trim(const std::string& s);
std::optional<int64_t> parseInt(const std::string& s, int base = 10);
// The last path component that looks like a PCI address (dddd:bb:dd.f), or empty.
std::string pciAddressIn(const std::string& path);

} // namespace rsagent
