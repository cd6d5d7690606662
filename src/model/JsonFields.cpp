#include "JsonFields.h"

namespace qcode::json {

QJsonObject residual(const QJsonObject &original, const QJsonObject &known)
{
    QJsonObject out;
    for (auto it = original.begin(); it != original.end(); ++it) {
        const auto knownIt = known.constFind(it.key());
        if (knownIt == known.constEnd()) {
            out.insert(it.key(), it.value());
        } else if (it.value().isObject() && knownIt.value().isObject()) {
            QJsonObject inner = residual(it.value().toObject(), knownIt.value().toObject());
            if (!inner.isEmpty())
                out.insert(it.key(), inner);
        }
    }
    return out;
}

QJsonObject merged(QJsonObject known, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        const auto knownIt = known.find(it.key());
        if (knownIt == known.end())
            known.insert(it.key(), it.value());
        else if (knownIt.value().isObject() && it.value().isObject())
            *knownIt = merged(knownIt.value().toObject(), it.value().toObject());
    }
    return known;
}

} // namespace qcode::json
