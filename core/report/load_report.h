#pragma once
// A load run as one self-contained XHTML page for a review (load --report): no script, no style sheet
// or image from elsewhere, every chart inline SVG. What the run was, its figures per step, the TTFT,
// TPOT and ITL distributions, every request on a timeline, the server's own metrics, the workers' GPUs
// where sampled, a capacity search's curve, and the failures with an example of each.
#include "runs/load_results.h"

namespace rackscope {

// `runs`: a run, or a sweep's or search's steps in order; `capacity`: capacity.json where there is one.
QString loadReportHtml(const std::vector<LoadResults>& runs, const rsload::Json& capacity,
                       const QString& source);

// The same written to `path`; the error, or empty.
QString writeLoadReport(const QString& resultsDirectory, const QString& path);

} // namespace rackscope
