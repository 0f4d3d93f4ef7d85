#pragma once
// hwloc 3.0 XML, which newer distributions' lstopo and agents write, for the
// hwloc 2.x that rackscope is built with (Debian 12 ships 2.9). The 3.0 format
// differs in a few spellings only: the version, an `id` per object, OS device
// types as a bitmask (12 = GPU|COPROC, not 2.x's enum), the root's infos
// moved beside <support>, and <pci_locality> elements 2.x does not know.
// Rewriting those gives hwloc 2.x the same topology to read.
#include <QByteArray>
#include <QString>

namespace rackscope {

// The same topology in hwloc 2.0 XML, or empty with `error` set.
QByteArray hwlocXmlV3AsV2(const QByteArray& xml, QString* error);

} // namespace rackscope
