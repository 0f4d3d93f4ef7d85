#pragma once
// A cluster file ("rackscope-cluster 1"): the servers of a cluster, each with
// the topology file it has, and the fabric sources above them, so a whole
// rack opens from one file. The demo cluster is one.
//
//   rackscope-cluster 1
//   host node01 node01-hwloc.xml        # paths relative to this file
//   fabric ibnetdiscover.txt
//   nvlink fabric-state.txt              # NVLink state: nvidia-smi -q, nvidia-imex-ctl -N, ...
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

namespace rackscope {

bool looksLikeClusterFile(const QByteArray& text);

struct ClusterFile {
    struct Host {
        QString name, path;
        int line = 0;
    };
    std::vector<Host> hosts;
    QStringList fabrics;  // fabric sources and NVLink state, each read by its content
    QStringList problems; // "line N: ..." for each line that could not be read; the rest is still read
};

ClusterFile parseClusterFile(const QByteArray& text, const QString& directory);

} // namespace rackscope
