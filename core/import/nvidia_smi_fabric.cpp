// `nvidia-smi -q`: GPU sections ("GPU 00000008:06:00.0") with "Product Name", "GPU UUID" and a "Fabric"
// block at any depth. People paste it whole, through `grep -A3 Fabric` (no GPU headers, "--" between
// matches) or de-indented; the block ends at the first line indented no deeper than "Fabric".
#include "model/pci_address.h"
#include "nvlink_text_readers.h"

#include <QRegularExpression>

namespace rackscope {
namespace {

const QRegularExpression
    kGpuHeader(QStringLiteral("^GPU ([0-9A-Fa-f]{1,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-7])\\s*$"));
const QRegularExpression kKeyValue(QStringLiteral("^(\\S(?:.*\\S)?)\\s*:\\s*(.*)$"));

int indentOf(const QString& line) {
    int n = 0;
    while (n < line.size() && (line[n] == QLatin1Char(' ') || line[n] == QLatin1Char('\t')))
        ++n;
    return n;
}

bool stated(const QString& value) {
    return !value.isEmpty() && value != QLatin1String("N/A") && value != QLatin1String("Not Supported");
}

// One line of the Health block: the summary, or a condition (nvidia-smi 570 and later print "Bandwidth",
// "Route Recovery in progress", "Route Unhealthy", "Access Timeout Recovery", "Incorrect Configuration").
void readHealthLine(const QString& key, const QString& value, GpuFabricState* g) {
    if (key == QLatin1String("Summary")) {
        g->health = value;
        return;
    }
    g->healthDetails << key + QStringLiteral(": ") + value;
    if (!stated(value))
        return;
    if (key == QLatin1String("Bandwidth")) {
        if (value != QLatin1String("Full"))
            g->healthConditions << QStringLiteral("bandwidth %1").arg(value.toLower());
    } else if (key == QLatin1String("Incorrect Configuration")) {
        if (value != QLatin1String("None"))
            g->healthConditions << QStringLiteral("incorrect configuration: %1").arg(value);
    } else if (value == QLatin1String("True")) {
        g->healthConditions << key.toLower();
    }
}

} // namespace

QString gpuBusId(const QString& text) {
    QString t = text.trimmed();
    if (!t.contains(QLatin1Char('.')))
        t += QStringLiteral(".0");
    const auto a = PciAddress::parse(t);
    return a ? a->toString().chopped(2) : QString();
}

void readNvidiaSmiFabric(const std::vector<SourceLine>& lines, const QString& host, const QString& location,
                         NvlinkTextRead* out) {
    GpuFabricState identity; // the GPU section being read, when the output has its header
    std::optional<GpuFabricState> block;
    int blockIndent = 0, healthIndent = -1;
    int found = 0;
    auto finish = [&] {
        if (block) {
            out->fabric.gpus.push_back(std::move(*block));
            ++found;
        }
        block.reset();
        healthIndent = -1;
    };
    for (const SourceLine& l : lines) {
        const QString text = l.text.trimmed();
        const int indent = indentOf(l.text);
        if (block && (text.isEmpty() || indent <= blockIndent || text == QLatin1String("--")))
            finish();
        if (text == QLatin1String("--")) {
            identity = {};
            continue;
        }
        if (const auto h = kGpuHeader.match(text); h.hasMatch() && indent == 0) {
            identity = {};
            identity.busId = gpuBusId(h.captured(1));
            continue;
        }
        if (text == QLatin1String("Fabric")) {
            block = identity;
            block->host = host;
            block->source = QStringLiteral("%1:%2").arg(location).arg(l.number);
            blockIndent = indent;
            continue;
        }
        if (block && text == QLatin1String("Health")) {
            healthIndent = indent;
            continue;
        }
        const auto kv = kKeyValue.match(text);
        if (!kv.hasMatch())
            continue;
        const QString key = kv.captured(1), value = kv.captured(2).trimmed();
        if (!block) {
            if (key == QLatin1String("Product Name"))
                identity.model = value;
            else if (key == QLatin1String("GPU UUID"))
                identity.uuid = value;
            continue;
        }
        if (healthIndent >= 0 && indent > healthIndent) {
            readHealthLine(key, value, &*block);
            continue;
        }
        healthIndent = -1;
        if (key == QLatin1String("State"))
            block->state = value;
        else if (key == QLatin1String("Status"))
            block->status = value;
        else if (key == QLatin1String("CliqueId") && stated(value)) {
            bool ok = false;
            const qulonglong id = value.toULongLong(&ok, 0);
            if (ok)
                block->cliqueId = id;
            else
                out->notes << QStringLiteral("%1:%2: CliqueId '%3' is not a number")
                                  .arg(location)
                                  .arg(l.number)
                                  .arg(value.left(40));
        } else if (key == QLatin1String("ClusterUUID") && stated(value))
            block->clusterUuid = value.toLower();
        else if (key == QLatin1String("Health") || key == QLatin1String("Summary"))
            block->health = value; // a one-line form
    }
    finish();
    if (found > 0 && !out->kinds.contains(QLatin1String("nvidia-smi -q")))
        out->kinds << QStringLiteral("nvidia-smi -q");
}

} // namespace rackscope
