#include "hwloc_reader.h"

#include "helper_pool.h"
#include "hwloc_importer.h"
#include "model/host_topology_stream.h"

#include "logging.h"
#include <QFileInfo>
#include <QIODevice>

namespace rackscope {
namespace {

constexpr std::chrono::seconds kReadTimeout{20};

QByteArray encode(const ImportResult& r) {
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << r.host.has_value() << r.error;
    if (r.host)
        out << *r.host;
    return bytes;
}

std::optional<ImportResult> decode(const QByteArray& bytes) {
    QDataStream in(bytes);
    bool ok = false;
    ImportResult r;
    in >> ok >> r.error;
    if (ok) {
        HostTopology h;
        in >> h;
        r.host = std::move(h);
    }
    if (in.status() != QDataStream::Ok)
        return std::nullopt;
    return r;
}

} // namespace

QString findHwlocReader() {
    const QString env = qEnvironmentVariable("RACKSCOPE_HWLOC_READER");
    if (!env.isEmpty())
        return env;
    // Installed: beside the program, or in the console package's lib/rackscope.
    const QString dir = QFileInfo(QStringLiteral("/proc/self/exe")).canonicalPath();
    for (const QString& candidate : {dir + QStringLiteral("/rackscope-hwloc-reader"),
                                     dir + QStringLiteral("/../lib/rackscope/rackscope-hwloc-reader")})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
#ifdef RACKSCOPE_BUILD_HWLOC_READER
    if (QFileInfo(QStringLiteral(RACKSCOPE_BUILD_HWLOC_READER)).isExecutable())
        return QStringLiteral(RACKSCOPE_BUILD_HWLOC_READER);
#endif
    return {};
}

ImportResult readInHwlocReader(const QByteArray& xml, const QString& location) {
    static const QString program = findHwlocReader();
    if (program.isEmpty()) {
        static const bool warned = [] {
            qCWarning(lcImport) << "rackscope-hwloc-reader was not found (set RACKSCOPE_HWLOC_READER): "
                                   "hwloc XML is read in this process, where a damaged file can end it";
            return true;
        }();
        Q_UNUSED(warned);
        return readHwlocXmlHere(xml, location);
    }
    static HelperPool pool(program);
    QByteArray request;
    {
        QDataStream out(&request, QIODevice::WriteOnly);
        out << location << xml;
    }
    const QString what = QStringLiteral("hwloc (API %1)").arg(hwlocRuntimeVersion());
    const HelperAnswer answer = pool.ask(request, what, kReadTimeout);
    if (!answer.bytes)
        return ImportResult::fail(answer.error);
    if (std::optional<ImportResult> r = decode(*answer.bytes))
        return std::move(*r);
    return ImportResult::fail(QStringLiteral("%1 gave an answer that could not be read").arg(what));
}

int serveHwlocReader(int in, int out) {
    for (QByteArray request; readFrame(in, &request);) {
        QDataStream s(request);
        QString location;
        QByteArray xml;
        s >> location >> xml;
        const ImportResult r = s.status() == QDataStream::Ok
                                   ? readHwlocXmlHere(xml, location)
                                   : ImportResult::fail(QStringLiteral("the request could not be read"));
        if (!writeFrame(out, encode(r)))
            return 1;
    }
    return 0;
}

} // namespace rackscope
