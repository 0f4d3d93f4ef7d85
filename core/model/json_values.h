#pragma once
// Unknown is null: the one way every report writes a value a source may not have given.
#include <QJsonValue>
#include <QString>
#include <optional>

namespace rackscope {

template <typename T> QJsonValue orNull(const std::optional<T>& v) {
    return v ? QJsonValue(*v) : QJsonValue();
}
inline QJsonValue orNull(const QString& s) {
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

} // namespace rackscope
