#include "fabric_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace rackscope {
namespace {

constexpr double kSwitchGap = 20;  // between switches in a row
constexpr double kTierGap = 140;   // between switch rows
constexpr double kBusGap = 70;     // a pod's leaves to its servers: the rails' tracks run here
constexpr double kServerGap = 40;  // between servers in a row, and between rows (a track each rail)
constexpr double kColumnGap = 140; // between pod columns: lanes on each side, trunks in the middle
constexpr double kBandGap = 120;   // between bands of pods: the trunks to the lower band's leaves
constexpr double kWindowAspect = 16.0 / 9.0;
constexpr int kTracks = 10; // rails beyond ten share tracks

int trackOf(int rail) {
    return (rail + 1) % kTracks; // rail -1 (none known) takes track 0
}

double rowWidth(double items, double each, double gap) {
    return items > 0 ? items * each + (items - 1) * gap : 0;
}

} // namespace

FabricLayout::FabricLayout(std::vector<LayoutServer>& servers, std::vector<LayoutSwitch>& switches,
                           double switchWidth)
    : servers_(servers), switches_(switches), kSwitchW(switchWidth) {
    natural_.setNumericMode(true);
    for (const LayoutSwitch& s : switches_)
        topTier_ = std::max(topTier_, s.tier);
    formPods();
    for (Pod& p : pods_)
        measurePod(p);
    placeBands();
    placeUpperRows();
}

// Servers that share a leaf are in one pod (union-find over their leaves), so a server missing a cable or
// cabled to another rail's leaf still sits with its scalable unit.
void FabricLayout::formPods() {
    std::vector<int> root(servers_.size());
    std::iota(root.begin(), root.end(), 0);
    const auto find = [&](int i) {
        while (root[i] != i)
            i = root[i] = root[root[i]];
        return i;
    };
    std::map<QString, int> firstServerOf;
    for (int i = 0; i < int(servers_.size()); ++i)
        for (const QString& leaf : servers_[i].leaves)
            if (const auto [it, added] = firstServerOf.emplace(leaf, i); !added)
                root[find(i)] = find(it->second);
    std::map<QString, int> leafIndex;
    for (int i = 0; i < int(switches_.size()); ++i)
        if (switches_[i].tier <= 1)
            leafIndex[switches_[i].id] = i;

    std::map<int, Pod> byRoot;
    Pod loose; // servers of no fabric
    for (int i = 0; i < int(servers_.size()); ++i)
        (servers_[i].leaves.isEmpty() ? loose : byRoot[find(i)]).servers.push_back(i);
    std::vector<bool> placed(switches_.size(), false);
    for (auto& [r, pod] : byRoot)
        for (int s : pod.servers)
            for (const QString& leaf : servers_[s].leaves)
                if (const auto it = leafIndex.find(leaf); it != leafIndex.end() && !placed[it->second]) {
                    placed[it->second] = true;
                    pod.leaves.push_back(it->second);
                }
    Pod alone; // switches in the leaves' row that serve no server drawn
    for (const auto& [id, i] : leafIndex)
        if (!placed[i])
            alone.leaves.push_back(i);

    const auto byName = [&](int a, int b) {
        return natural_.compare(servers_[a].name, servers_[b].name) < 0;
    };
    const auto inRailOrder = [&](int a, int b) {
        const int ra = switches_[a].rail < 0 ? 1 << 20 : switches_[a].rail,
                  rb = switches_[b].rail < 0 ? 1 << 20 : switches_[b].rail;
        return ra != rb ? ra < rb : natural_.compare(switches_[a].name, switches_[b].name) < 0;
    };
    for (auto& [r, pod] : byRoot) {
        std::sort(pod.servers.begin(), pod.servers.end(), byName);
        std::sort(pod.leaves.begin(), pod.leaves.end(), inRailOrder);
        pods_.push_back(std::move(pod));
    }
    // Pods in the order of their first leaf's name (scalable unit 1, 2, ...), else of their first server's.
    const auto key = [&](const Pod& p) {
        return p.leaves.empty() ? servers_[p.servers.front()].name : switches_[p.leaves.front()].name;
    };
    std::sort(pods_.begin(), pods_.end(),
              [&](const Pod& a, const Pod& b) { return natural_.compare(key(a), key(b)) < 0; });
    if (!alone.leaves.empty()) {
        std::sort(alone.leaves.begin(), alone.leaves.end(), inRailOrder);
        pods_.push_back(std::move(alone));
    }
    if (!loose.servers.empty()) {
        std::sort(loose.servers.begin(), loose.servers.end(), byName);
        pods_.push_back(std::move(loose));
    }
}

// Servers in rows about as wide as the pod's leaves, or wider where the servers make the pod taller than
// a 16:9 window would show.
void FabricLayout::measurePod(Pod& p) const {
    const double leavesW = rowWidth(double(p.leaves.size()), kSwitchW, kSwitchGap);
    double area = 0, widest = 0;
    for (int s : p.servers) {
        const QSizeF size = servers_[s].size;
        area += (size.width() + kServerGap) * (size.height() + kServerGap);
        widest = std::max(widest, size.width());
    }
    const double target = std::max({leavesW, widest, std::sqrt(area * kWindowAspect)});
    double x = 0, width = leavesW;
    for (int s : p.servers) {
        const double w = servers_[s].size.width();
        if (p.rows.empty() || x + kServerGap + w > target + 0.5) {
            p.rows.emplace_back();
            x = -kServerGap;
        }
        p.rows.back().push_back(s);
        x += kServerGap + w;
        width = std::max(width, x);
    }
    double height = p.leaves.empty() ? 0 : kSwitchH + (p.servers.empty() ? 0 : kBusGap);
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
        double rowH = 0;
        for (int s : p.rows[r])
            rowH = std::max(rowH, servers_[s].size.height());
        height += (r ? kServerGap : 0) + rowH;
    }
    if (p.captioned())
        height += kCaptionH;
    p.rect = QRectF(0, 0, width, height);
}

// The pods in a grid of bands: the column count whose whole is nearest a 16:9 window's shape.
void FabricLayout::placeBands() {
    const int n = int(pods_.size());
    const double upper = (topTier_ - 1) * (kSwitchH + kTierGap);
    // Each column's width and each band's height when the pods fill `columns` columns row by row.
    const auto grid = [&](int columns) {
        std::pair<std::vector<double>, std::vector<double>> g{
            std::vector<double>(std::size_t(columns), 0.0),
            std::vector<double>(std::size_t((n + columns - 1) / columns), 0.0)};
        for (int i = 0; i < n; ++i) {
            double& w = g.first[std::size_t(i % columns)];
            double& h = g.second[std::size_t(i / columns)];
            w = std::max(w, pods_[i].rect.width());
            h = std::max(h, pods_[i].rect.height());
        }
        return g;
    };
    int columns = 1;
    double bestScore = 1e300;
    for (int c = 1; c <= n; ++c) {
        const auto [colW, bandH] = grid(c);
        const double w = std::accumulate(colW.begin(), colW.end(), 0.0) + (c - 1) * kColumnGap;
        const double h =
            upper + std::accumulate(bandH.begin(), bandH.end(), 0.0) + double(bandH.size() - 1) * kBandGap;
        const double score = std::abs(std::log(std::max(w, 1.0) / std::max(h, 1.0) / kWindowAspect));
        if (score < bestScore - 1e-9) {
            bestScore = score;
            columns = c;
        }
    }
    std::vector<double> bandH;
    std::tie(columnWidth_, bandH) = grid(columns);
    for (int i = 0; i < n; ++i) {
        pods_[i].column = i % columns;
        pods_[i].band = i / columns;
    }
    double x = 0;
    for (double w : columnWidth_) {
        columnLeft_.push_back(x);
        x += w + kColumnGap;
    }
    width_ = std::max(0.0, x - kColumnGap);
    double y = upper;
    for (double h : bandH) {
        bandTop_.push_back(y);
        y += h + kBandGap;
    }

    for (int i = 0; i < n; ++i) {
        Pod& p = pods_[i];
        p.rect.moveTopLeft(QPointF(columnLeft_[std::size_t(p.column)] +
                                       (columnWidth_[std::size_t(p.column)] - p.rect.width()) / 2,
                                   bandTop_[std::size_t(p.band)]));
        const double leavesW = rowWidth(double(p.leaves.size()), kSwitchW, kSwitchGap);
        for (std::size_t k = 0; k < p.leaves.size(); ++k) {
            LayoutSwitch& s = switches_[p.leaves[k]];
            s.at =
                QPointF(p.rect.left() + (p.rect.width() - leavesW) / 2 + double(k) * (kSwitchW + kSwitchGap),
                        p.rect.top());
            s.pod = i;
            s.band = p.band;
        }
        double top = p.rect.top() + (p.leaves.empty() ? 0 : kSwitchH + kBusGap);
        p.serversTop = top;
        for (std::size_t r = 0; r < p.rows.size(); ++r) {
            double rowW = -kServerGap, rowH = 0;
            for (int s : p.rows[r]) {
                rowW += kServerGap + servers_[s].size.width();
                rowH = std::max(rowH, servers_[s].size.height());
            }
            double sx = p.rect.left() + (p.rect.width() - rowW) / 2;
            for (int s : p.rows[r]) {
                servers_[s].at = QPointF(sx, top);
                servers_[s].pod = i;
                servers_[s].row = int(r);
                sx += servers_[s].size.width() + kServerGap;
            }
            p.rowTops.push_back(top);
            top += rowH + kServerGap;
        }
    }
}

// Spines and cores by name, a row a tier, spread over the pods' width.
void FabricLayout::placeUpperRows() {
    std::map<int, std::vector<int>> byTier;
    for (int i = 0; i < int(switches_.size()); ++i)
        if (switches_[i].tier >= 2)
            byTier[switches_[i].tier].push_back(i);
    for (auto& [tier, row] : byTier) {
        std::sort(row.begin(), row.end(),
                  [&](int a, int b) { return natural_.compare(switches_[a].name, switches_[b].name) < 0; });
        const double n = double(row.size());
        const double packed = rowWidth(n, kSwitchW, kSwitchGap);
        const double slot = packed < width_ ? width_ / n : kSwitchW + kSwitchGap;
        const double left = packed < width_ ? (slot - kSwitchW) / 2 : (width_ - packed) / 2;
        const double y = (topTier_ - tier) * (kSwitchH + kTierGap);
        for (std::size_t k = 0; k < row.size(); ++k)
            switches_[row[k]].at = QPointF(left + double(k) * slot, y);
    }
}

std::vector<PodCaption> FabricLayout::captions() const {
    std::vector<PodCaption> out;
    for (const Pod& p : pods_)
        if (p.captioned()) // the footer, and the gap below down to where the trunks of the band under it run
            out.push_back({QRectF(p.rect.left(), p.rect.bottom() - kCaptionH + 6, p.rect.width(),
                                  kCaptionH - 6 + kBandGap / 2 - 10),
                           p.rect.adjusted(0, 0, 0, -kCaptionH), p.servers, p.leaves});
    return out;
}

double FabricLayout::laneX(const Pod& p, bool left, int track) const {
    return left ? p.rect.left() - 10 - track * 5 : p.rect.right() + 10 + track * 5;
}

std::vector<QPointF> FabricLayout::switchRoute(int upper, int lower) const {
    const LayoutSwitch &a = switches_[std::size_t(upper)], &b = switches_[std::size_t(lower)];
    const QPointF from(a.at.x() + kSwitchW / 2, a.at.y() + kSwitchH);
    if (std::abs(a.at.y() - b.at.y()) < 1) { // in one row: under both, so it passes no switch between
        const QPointF to(b.at.x() + kSwitchW / 2, b.at.y() + kSwitchH);
        return {from, from + QPointF(0, 16), QPointF(to.x(), from.y() + 16), to};
    }
    const QPointF to(b.at.x() + kSwitchW / 2, b.at.y());
    if (a.tier >= 2 && b.tier <= 1 && b.band > 0 && b.pod >= 0) {
        const Pod& p = pods_[std::size_t(b.pod)];
        const double bus = bandTop_.front() - 40;
        const double channel = columnLeft_[std::size_t(p.column)] - kColumnGap / 2;
        const double trunk = bandTop_[std::size_t(b.band)] - kBandGap / 2;
        return {from, {from.x(), bus}, {channel, bus}, {channel, trunk}, {to.x(), trunk}, to};
    }
    return {from, to};
}

std::vector<QPointF> FabricLayout::serverRoute(int leaf, int server, QPointF landing, int rail) const {
    const LayoutSwitch& l = switches_[std::size_t(leaf)];
    const LayoutServer& s = servers_[std::size_t(server)];
    const QPointF from(l.at.x() + kSwitchW / 2, l.at.y() + kSwitchH);
    if (l.pod != s.pod || s.pod < 0 || l.at.y() > s.at.y())
        return {from, landing};
    const Pod& p = pods_[std::size_t(s.pod)];
    const int track = trackOf(rail);
    const double bus = p.serversTop - 14 - track * 5;
    if (s.row == 0)
        return {from, {from.x(), bus}, {landing.x(), bus}, landing};
    const double lane = laneX(p, landing.x() < p.rect.center().x(), track);
    const double row = p.rowTops[std::size_t(s.row)] - 8 - track * 3;
    return {from, {from.x(), bus}, {lane, bus}, {lane, row}, {landing.x(), row}, landing};
}

} // namespace rackscope
