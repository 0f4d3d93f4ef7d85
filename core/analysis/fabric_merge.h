#pragma once
// One cluster fabric from several sources. Two nodes are one when they share
// a GUID, else a host and device, else a name (a switch's own name, as a
// design file writes it); two links are one when they join the same ports.
// Where sources disagree the first source's value is kept and the
// disagreement is listed in `conflicts`, never silently overwritten. A
// design's widths and speeds become the links' expectations; a design link
// whose two ends a discovered source saw, but not the link, gets state "missing".
#include "model/fabric.h"

namespace rackscope {

Fabric mergeFabrics(const std::vector<Fabric>& sources);

} // namespace rackscope
