#pragma once
// The rack check's report for a design review: one self-contained HTML file (no network: the style inline,
// the rack drawn inline as SVG by the diagram code) with a summary, the bring-up checklist answered, the
// drift, a section per server with its evidence; or the same as a PDF (the rack as a picture). Needs a
// QGuiApplication (fonts); the CLI makes one offscreen.
#include "rack_check.h"

#include <optional>

namespace rackscope {

enum class ReportFormat { Html, Pdf };
std::optional<ReportFormat> reportFormatOf(const QString& path); // by its suffix

// The report's HTML; `inlineSvg` is the rack's drawing as SVG markup, or empty for none.
QString rackReportHtml(const RackCheck& rack, const QString& inlineSvg);
// Writes the report to `path` (HTML or PDF by its suffix); empty, or why not.
QString writeRackReport(const RackCheck& rack, const Workspace& ws, const QString& path);

} // namespace rackscope
