#pragma once
// `rackscope-cli fabric` output: switches per tier, links, hosts, rails,
// leaf oversubscription and findings, as JSON or text, and the fabric as a
// Graphviz DOT graph.
#include "analysis/fabric_analysis.h"

#include <QJsonObject>

namespace rackscope {

QJsonObject fabricToJson(const Fabric& fabric, const FabricAnalysis& analysis);
QString fabricToText(const Fabric& fabric, const FabricAnalysis& analysis);
// Spines above leaves above servers; parallel cables drawn as one edge with a count.
QString fabricToDot(const Fabric& fabric, const FabricAnalysis& analysis);

} // namespace rackscope
