#pragma once
// Builds small sysfs trees in a temporary folder, in the kernel's formats,
// for the cases the real captures lack (RoCE ECN, a degraded link, ACS on).
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

namespace rackscope::test {

class SysfsBuilder {
public:
    QString root() const { return dir_.path(); }

    void write(const QString& rel, const QByteArray& content) {
        const QString path = dir_.filePath(rel);
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(content);
    }
    void link(const QString& rel, const QString& target) {
        const QString path = dir_.filePath(rel);
        QDir().mkpath(QFileInfo(path).path());
        QFile::link(target, path);
    }
    // A PCI function under devices/pci0000:00/<chain...>/<addr> with bus/pci/devices/<addr> linking to it.
    QString pciDevice(const QStringList& chain, const QString& addr, const QByteArray& cls) {
        const QString rel =
            QStringLiteral("devices/pci0000:00/") + (chain + QStringList{addr}).join(QLatin1Char('/'));
        write(rel + QStringLiteral("/class"), cls + "\n");
        link(QStringLiteral("bus/pci/devices/") + addr, QStringLiteral("../../../") + rel);
        return rel;
    }
    // 4096 bytes of config space with one extended capability: ACS (0x000d) at 0x100.
    static QByteArray configWithAcs(quint16 ctrl) {
        QByteArray c(4096, '\0');
        c[0x100] = 0x0d; // capability id 0x000d, version 1, next 0
        c[0x102] = 0x01;
        c[0x106] = char(ctrl & 0xff);
        c[0x107] = char(ctrl >> 8);
        return c;
    }

private:
    QTemporaryDir dir_;
};

} // namespace rackscope::test
