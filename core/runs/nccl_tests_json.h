#pragma once
// nccl-tests' own JSON report (`-J FILE`, JSON_FILE_VERSION 3 in its
// util.cu): config, devices, results with out_of_place / in_place passes,
// out_of_bounds and average_bus_bandwidth. Read into the same NcclTestsRun
// as the text table, so either is charted and compared the same way.
#include "nccl_tests_output.h"

namespace rackscope {

// Where the text starts with '{' it is taken for the JSON report.
bool looksLikeNcclTestsJson(const QByteArray& bytes);

// A document that is not JSON, or not this report, gives no rows and one
// diagnostic saying why (a run cut short leaves the report unclosed).
NcclTestsRun parseNcclTestsJson(const QByteArray& bytes);

// The JSON report or the text output, whichever `bytes` is.
NcclTestsRun parseNcclTestsFile(const QByteArray& bytes);

} // namespace rackscope
