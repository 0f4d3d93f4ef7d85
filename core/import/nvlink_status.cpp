// `nvidia-smi nvlink -s` / `--status`: "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)" and under it one line
// per link, "Link 0: 26.562 GB/s" or "Link 0: <inactive>", indented by a tab and a space as the tool writes
// it or by spaces as pasted. A link line's speed says the link trained; it does not say NVLink P2P works.
#include "nvlink_text_readers.h"

#include <QRegularExpression>

namespace rackscope {
namespace {

const QRegularExpression kGpu(QStringLiteral("^GPU (\\d+): (.*?)\\s*\\(UUID: (GPU-[0-9A-Fa-f-]+)\\)\\s*$"));
const QRegularExpression kLink(QStringLiteral("^Link (\\d+): (?:([0-9.]+) GB/s|<(\\w+)>)\\s*$"));

} // namespace

void readNvlinkStatus(const std::vector<SourceLine>& lines, const QString& host, const QString& location,
                      NvlinkTextRead* out) {
    QString gpu, uuid;
    int found = 0;
    for (const SourceLine& l : lines) {
        const QString text = l.text.trimmed();
        if (const auto g = kGpu.match(text); g.hasMatch()) {
            gpu = QStringLiteral("GPU") + g.captured(1);
            uuid = g.captured(3);
            continue;
        }
        const auto m = kLink.match(text);
        if (!m.hasMatch()) {
            if (text == QLatin1String("...") && !gpu.isEmpty())
                out->notes << QStringLiteral(
                                  "%1:%2: the output was cut here (\"...\"): %3's other links are not known")
                                  .arg(location)
                                  .arg(l.number)
                                  .arg(gpu);
            continue;
        }
        if (gpu.isEmpty())
            continue; // a link of no GPU the output named
        NvlinkLinkState link;
        link.host = host;
        link.gpu = gpu;
        link.gpuUuid = uuid;
        link.link = m.captured(1).toInt();
        if (!m.captured(2).isEmpty()) {
            link.gbPerSecond = m.captured(2).toDouble();
            link.state = QStringLiteral("active");
        } else {
            link.state = m.captured(3).toLower(); // "<inactive>"
        }
        link.source = QStringLiteral("%1:%2").arg(location).arg(l.number);
        out->fabric.links.push_back(std::move(link));
        ++found;
    }
    if (found > 0)
        out->kinds << QStringLiteral("nvidia-smi nvlink --status");
}

} // namespace rackscope
