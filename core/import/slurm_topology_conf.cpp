#include "slurm_topology_conf.h"

#include <QRegularExpression>
#include <map>

namespace rackscope {
namespace {

const QRegularExpression kComment(QString::fromUtf8(R"re(^#\s*([^=\s]+)=(.*)$)re"));
const QRegularExpression kKey(QString::fromUtf8(R"re(^(SwitchName|BlockName|BlockSizes)=)re"));

// "SwitchName=a Switches=b[1-2] LinkSpeed=100" -> {SwitchName:a, Switches:b[1-2], LinkSpeed:100}
std::map<QString, QString> fields(const QString& line) {
    std::map<QString, QString> out;
    for (const QString& word : line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        const int eq = int(word.indexOf(QLatin1Char('=')));
        if (eq > 0)
            out[word.left(eq)] = word.mid(eq + 1);
        else
            out[word] = QString();
    }
    return out;
}

} // namespace

bool looksLikeSlurmTopology(const QByteArray& text) {
    return QRegularExpression(QStringLiteral("^\\s*(SwitchName|BlockName)="),
                              QRegularExpression::MultilineOption)
        .match(QString::fromUtf8(text.left(64 * 1024)))
        .hasMatch();
}

SlurmTopologyImport importSlurmTopology(const QByteArray& text, const QString& location) {
    SlurmFabricBuilder build(location, SlurmFabricBuilder::kConfKeys);
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        const int lineNo = i + 1;
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('#'))) {
            if (const auto m = kComment.match(line); m.hasMatch())
                build.describe(m.captured(1), m.captured(2).trimmed());
            continue;
        }
        if (!kKey.match(line).hasMatch()) {
            build.diagnose(lineNo, line, QStringLiteral("not a topology.conf line"));
            continue;
        }
        const auto kv = fields(line);
        const auto value = [&](const char* key) {
            const auto it = kv.find(QLatin1String(key));
            return it == kv.end() ? QString() : it->second;
        };
        if (kv.count(QStringLiteral("BlockSizes"))) {
            for (const QString& n : value("BlockSizes").split(QLatin1Char(',')))
                build.addBlockSize(n, lineNo, line);
        } else if (kv.count(QStringLiteral("BlockName"))) {
            build.addBlock(value("BlockName"), value("Nodes"), lineNo, line);
        } else {
            build.addSwitch(value("SwitchName"), value("Switches"), value("Nodes"), lineNo, line);
        }
    }
    return build.finish(QStringLiteral("no SwitchName= or BlockName= lines"));
}

} // namespace rackscope
