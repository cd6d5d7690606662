#include "JsonMerge.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace qcode::JsonMerge {

namespace {

QJsonObject mergeObjects(const QJsonObject &base, const QJsonObject &over)
{
    QJsonObject out = base;
    for (auto it = over.begin(); it != over.end(); ++it) {
        const QJsonValue existing = out.value(it.key());
        if (existing.isObject() && it.value().isObject())
            out.insert(it.key(), mergeObjects(existing.toObject(), it.value().toObject()));
        else
            out.insert(it.key(), it.value());
    }
    return out;
}

} // namespace

QJsonObject deepMerge(const QJsonObject &base, const QJsonObject &over, const QStringList &concatenatedKeys)
{
    QJsonObject out = mergeObjects(base, over);
    for (const QString &key : concatenatedKeys) {
        const QJsonValue a = base.value(key);
        const QJsonValue b = over.value(key);
        if (!a.isArray() || !b.isArray())
            continue;
        QJsonArray joined = a.toArray();
        for (const QJsonValue &v : b.toArray()) {
            if (!joined.contains(v))
                joined.append(v);
        }
        out.insert(key, joined);
    }
    return out;
}

QStringList configConcatenatedKeys()
{
    return {u"plugin"_s, u"instructions"_s};
}

} // namespace qcode::JsonMerge
