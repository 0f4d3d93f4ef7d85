#include "load_json.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace rackscope {

QJsonValue toQtJson(const rsload::Json& j) {
    switch (j.type()) {
    case rsload::Json::value_t::boolean:
        return j.get<bool>();
    case rsload::Json::value_t::number_integer:
        return qint64(j.get<int64_t>());
    case rsload::Json::value_t::number_unsigned: // above qint64's range only as a double, as Qt holds it
        return j.get<uint64_t>() > uint64_t(INT64_MAX) ? QJsonValue(j.get<double>())
                                                       : QJsonValue(qint64(j.get<uint64_t>()));
    case rsload::Json::value_t::number_float:
        return j.get<double>();
    case rsload::Json::value_t::string:
        return QString::fromStdString(j.get_ref<const std::string&>());
    case rsload::Json::value_t::array: {
        QJsonArray a;
        for (const rsload::Json& e : j)
            a.append(toQtJson(e));
        return a;
    }
    case rsload::Json::value_t::object: {
        QJsonObject o;
        for (const auto& [key, value] : j.items())
            o.insert(QString::fromStdString(key), toQtJson(value));
        return o;
    }
    default: // null, discarded, binary
        return QJsonValue::Null;
    }
}

rsload::Json fromQtJson(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Bool:
        return v.toBool();
    case QJsonValue::Double: {
        // Qt keeps one kind of number: a whole one that fits comes back as an integer, as it was sent.
        const double d = v.toDouble();
        if (std::trunc(d) == d && std::abs(d) < 9.0e15)
            return int64_t(v.toInteger());
        return d;
    }
    case QJsonValue::String:
        return v.toString().toStdString();
    case QJsonValue::Array: {
        rsload::Json a = rsload::Json::array();
        for (const QJsonValue& e : v.toArray())
            a.push_back(fromQtJson(e));
        return a;
    }
    case QJsonValue::Object: {
        rsload::Json o = rsload::Json::object();
        const QJsonObject object = v.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            o[it.key().toStdString()] = fromQtJson(it.value());
        return o;
    }
    default: // Null, Undefined
        return nullptr;
    }
}

} // namespace rackscope
