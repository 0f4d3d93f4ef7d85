#pragma once
// A rack check written out: text for a terminal, JSON for scripts, JUnit XML for CI pipelines (a test suite
// per server, a test case per check: a fail is a failure, an unknown is skipped, a warn passes with its
// evidence in system-out).
#include "rack_check.h"

#include <QJsonObject>

namespace rackscope {

QString rackCheckText(const RackCheck& rack);
QJsonObject rackCheckJson(const RackCheck& rack);
QByteArray rackCheckJUnit(const RackCheck& rack);

} // namespace rackscope
