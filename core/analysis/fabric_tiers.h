#pragma once
// Switch tiers inferred from the graph when no source gives them: a leaf
// reaches a server directly (a CA with a host name, not a switch's SHARP
// aggregation node), a spine reaches a leaf, a core reaches a spine.
#include "model/fabric.h"

#include <map>

namespace rackscope {

// Switch id -> tier, 1 for leaves; switches that reach no host are absent.
// A tier a source states wins over the inference unless statedTiers is false.
std::map<QString, int> inferSwitchTiers(const Fabric& fabric, bool statedTiers = true);

} // namespace rackscope
