#pragma once
#include <QStringList>

namespace rackscope::cli {
// rackscope-cli load: inference load against an OpenAI-compatible endpoint; --open reads saved runs back.
int runLoad(const QStringList& args);
} // namespace rackscope::cli
