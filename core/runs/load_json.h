#pragma once
// The one place where the load model's JSON (nlohmann, Qt-free: what the agent speaks) meets Qt's
// (the agent client's messages). Values are walked, not printed and parsed again.
#include "load_model/load_spec.h"

#include <QJsonValue>

namespace rackscope {

QJsonValue toQtJson(const rsload::Json& j);
rsload::Json fromQtJson(const QJsonValue& v);

} // namespace rackscope
