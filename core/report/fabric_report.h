#pragma once
// `rackscope-cli fabric` output: switches per tier, links, hosts, rails,
// leaf oversubscription and findings, as JSON or text, and the fabric as a
// Graphviz DOT graph.
#include "analysis/fabric_analysis.h"
#include "analysis/fabric_placement.h"

#include <QJsonObject>

namespace rackscope {

QJsonObject fabricToJson(const Fabric& fabric, const FabricAnalysis& analysis);
QString fabricToText(const Fabric& fabric, const FabricAnalysis& analysis);
// Spines above leaves above servers; parallel cables drawn as one edge with a count.
QString fabricToDot(const Fabric& fabric, const FabricAnalysis& analysis);
// `fabric --hops A,B`: the switches between two hosts (null: no path on this fabric).
QJsonObject switchHopsToJson(const QString& a, const QString& b, const std::optional<int>& hops);
// `fabric --groups N`: groups of hosts that share leaves, and those left over.
QJsonObject placementToJson(int groupSize, const Placement& placement);

} // namespace rackscope
