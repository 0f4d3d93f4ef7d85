#pragma once
// Where a cluster's servers and switches go, and the channels its cables run in.
//
// Servers cabled to the same leaves form a pod (a scalable unit): its leaves in rail order in a row, its
// servers in rows below them. Pods sit in a grid of bands whose column count is chosen so the whole is
// about as wide as a 16:9 window; spines and cores go in rows above, by name. Cables run orthogonally in
// the gaps: a rail's cables share one track, so they read as one bundle, and no cable passes through a box
// it does not end in. The builder measures the boxes; this places them and routes between them.
#include <QCollator>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

namespace rackscope {

struct LayoutServer {
    QString name;
    QSizeF size;
    QStringList leaves; // ids of the leaf switches it is cabled to
    QPointF at;         // laid out: its top left
    int pod = -1, row = -1;
};

struct LayoutSwitch {
    QString id, name;
    int tier = 1;  // 1: a pod's row of leaves (or of switches without servers); 2 and up: rows above
    int rail = -1; // leaves: their rail, which orders them
    QPointF at;
    int pod = -1, band = -1; // leaves
};

// A pod's caption: under its servers, with the room below it down to the cables of the band under it.
struct PodCaption {
    QRectF rect;
    QRectF pod; // its leaves and servers
    std::vector<int> servers, leaves;
};

class FabricLayout {
public:
    static constexpr double kSwitchH = 40;
    static constexpr double kCaptionH = 30; // a pod's footer, for its caption

    // Places every server and switch (their `at`, pod, row, band); every switch is `switchWidth` wide.
    FabricLayout(std::vector<LayoutServer>& servers, std::vector<LayoutSwitch>& switches, double switchWidth);

    // A cable from switch `upper` down to switch `lower`: straight between adjacent rows, else down the
    // channel beside the lower switch's pod column.
    std::vector<QPointF> switchRoute(int upper, int lower) const;
    // A cable from leaf `leaf` down to `landing` on server `server` (its top edge, or a NIC port inside),
    // on the track of its rail.
    std::vector<QPointF> serverRoute(int leaf, int server, QPointF landing, int rail) const;
    double switchWidth() const { return kSwitchW; }
    std::vector<PodCaption> captions() const; // of each pod with leaves and servers

private:
    struct Pod {
        std::vector<int> servers, leaves;
        std::vector<std::vector<int>> rows; // servers, row by row
        std::vector<double> rowTops;
        QRectF rect;
        double serversTop = 0;
        int band = 0, column = 0;
        bool captioned() const { return !leaves.empty() && !servers.empty(); }
    };
    void formPods();
    void measurePod(Pod& p) const;
    void placeBands();
    void placeUpperRows();
    double laneX(const Pod& p, bool left, int track) const;

    std::vector<LayoutServer>& servers_;
    std::vector<LayoutSwitch>& switches_;
    std::vector<Pod> pods_;
    std::vector<double> columnLeft_, columnWidth_, bandTop_;
    double kSwitchW; // one width for every switch, so its rows line up
    int topTier_ = 1;
    double width_ = 0;
    QCollator natural_;
};

} // namespace rackscope
