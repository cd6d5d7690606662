#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

// Small readers and writers for OpenCode's JSON shapes, so the value types'
// toJson/fromJson read as a list of fields.
namespace qcode::json {

inline QString string(const QJsonObject &o, QLatin1StringView key) { return o.value(key).toString(); }
inline qint64 integer(const QJsonObject &o, QLatin1StringView key) { return o.value(key).toInteger(); }
inline double number(const QJsonObject &o, QLatin1StringView key) { return o.value(key).toDouble(); }
inline bool boolean(const QJsonObject &o, QLatin1StringView key) { return o.value(key).toBool(); }
inline QJsonObject object(const QJsonObject &o, QLatin1StringView key) { return o.value(key).toObject(); }
inline QJsonArray array(const QJsonObject &o, QLatin1StringView key) { return o.value(key).toArray(); }

inline std::optional<QString> optString(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isString() ? std::optional(v.toString()) : std::nullopt;
}
inline std::optional<qint64> optInteger(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? std::optional(v.toInteger(qint64(v.toDouble()))) : std::nullopt;
}
inline std::optional<bool> optBoolean(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isBool() ? std::optional(v.toBool()) : std::nullopt;
}
inline std::optional<QJsonObject> optObject(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isObject() ? std::optional(v.toObject()) : std::nullopt;
}
inline std::optional<QJsonArray> optArray(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isArray() ? std::optional(v.toArray()) : std::nullopt;
}
inline std::optional<QJsonValue> optValue(const QJsonObject &o, QLatin1StringView key)
{
    return o.contains(key) ? std::optional(o.value(key)) : std::nullopt;
}

template <typename T>
void putOptional(QJsonObject &o, QLatin1StringView key, const std::optional<T> &value)
{
    if (value)
        o.insert(key, *value);
}

// What of `original` the typed fields did not reproduce in `known`: keys
// known does not have, and the same for objects both have. This is how each
// value type keeps fields it does not understand (a newer OpenCode's).
QJsonObject residual(const QJsonObject &original, const QJsonObject &known);

// `known` with the residual fields of `extra` put back; known fields win.
QJsonObject merged(QJsonObject known, const QJsonObject &extra);

} // namespace qcode::json
