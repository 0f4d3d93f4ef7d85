#include "cluster_file.h"

#include <QDir>
#include <QRegularExpression>

namespace rackscope {

bool looksLikeClusterFile(const QByteArray& text) {
    return text.startsWith("rackscope-cluster ");
}

ClusterFile parseClusterFile(const QByteArray& text, const QString& directory) {
    ClusterFile out;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    const QDir dir(directory);
    auto resolve = [&](const QString& p) {
        return QDir::isAbsolutePath(p) || p.startsWith(QLatin1Char(':')) ? p : dir.filePath(p);
    };
    const QList<QByteArray> lines = text.split('\n');
    bool header = false;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]).section(QLatin1Char('#'), 0, 0).trimmed();
        if (line.isEmpty())
            continue;
        const QStringList w = line.split(space);
        auto problem = [&](const QString& what) {
            out.problems << QStringLiteral("line %1: %2").arg(i + 1).arg(what);
        };
        if (!header) { // the first line says what the file is
            header = true;
            if (w[0] != QLatin1String("rackscope-cluster"))
                problem(QStringLiteral("a cluster file starts with \"rackscope-cluster 1\""));
            else if (w.value(1) != QLatin1String("1"))
                problem(QStringLiteral("cluster file version %1; this rackscope reads version 1")
                            .arg(w.value(1)));
            if (w[0] == QLatin1String("rackscope-cluster"))
                continue;
        }
        if (w[0] == QLatin1String("host") && w.size() == 3)
            out.hosts.push_back({w[1], resolve(w[2]), i + 1});
        else if ((w[0] == QLatin1String("fabric") || w[0] == QLatin1String("nvlink")) && w.size() == 2)
            out.fabrics << resolve(w[1]); // both are read by content, like any source above the servers
        else
            problem(
                QStringLiteral("expected \"host NAME FILE\", \"fabric FILE\" or \"nvlink FILE\", not \"%1\"")
                    .arg(line.left(120)));
    }
    return out;
}

} // namespace rackscope
