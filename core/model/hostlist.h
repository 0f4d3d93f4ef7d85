#pragma once
// Host lists as people write them for Slurm and pdsh: "gpu[001-128]",
// "rack[1-2]-node[01-16]", "a,b[1,3,5-7],c". Zero padding follows the range's
// lower bound, as Slurm does.
#include <QString>
#include <QStringList>
#include <optional>

namespace rackscope {

struct HostlistResult {
    QStringList hosts;
    QString error;
};

constexpr int kMaxHostlistHosts = 1000000;

// Every name is checked with hostNameProblem: a list that names something no host is called is refused.
HostlistResult expandHostlist(const QString& text);
// Why `name` cannot be a host name (empty when it can): a leading '-', or a character no host name has.
QString hostNameProblem(const QString& name);
// A hosts file: one hostlist per line (or several, separated by spaces),
// '#' starts a comment; each host once, in the order first written. An error
// names the line.
HostlistResult parseHostsFile(const QString& text);
// The shortest form that expands back to exactly these names, in their order
// where names share a prefix: {"srv1101".."srv1108"} -> "srv[1101-1108]".
QString compressHostlist(const QStringList& hosts);
// Sorts names as people read them: "node9" before "node10".
void sortHostsNaturally(QStringList& hosts);

} // namespace rackscope
