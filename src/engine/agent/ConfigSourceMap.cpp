#include "ConfigSourceMap.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString ConfigSourceMap::join(const QStringList &segments)
{
    // U+001F (unit separator) cannot appear in a key anyone types.
    return segments.join(QChar(0x1f));
}

void ConfigSourceMap::recordKey(const QStringList &parent, const QString &key, const Location &location)
{
    QStringList &keys = m_order[join(parent)];
    if (!keys.contains(key))
        keys.append(key);
    m_locations.insert(join(parent + QStringList{key}), location);
}

QStringList ConfigSourceMap::orderedKeys(const QStringList &parent, const QJsonObject &object) const
{
    QStringList out;
    const QStringList recorded = m_order.value(join(parent));
    for (const QString &key : recorded) {
        if (object.contains(key))
            out.append(key);
    }
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!out.contains(it.key()))
            out.append(it.key());
    }
    return out;
}

QString ConfigSourceMap::describe(const QStringList &path) const
{
    QStringList at = path;
    while (true) {
        const auto it = m_locations.constFind(join(at));
        if (it != m_locations.constEnd() && !it->file.isEmpty())
            return it->line > 0 ? u"%1:%2"_s.arg(it->file).arg(it->line) : it->file;
        if (at.isEmpty())
            break;
        at.removeLast();
    }
    return m_origin;
}

ConfigSourceMap::Location ConfigSourceMap::locate(const QStringList &path) const
{
    QStringList at = path;
    while (true) {
        const auto it = m_locations.constFind(join(at));
        if (it != m_locations.constEnd() && !it->file.isEmpty())
            return *it;
        if (at.isEmpty())
            break;
        at.removeLast();
    }
    return {m_origin, 0};
}

void ConfigSourceMap::overlay(const ConfigSourceMap &over)
{
    for (auto it = over.m_order.begin(); it != over.m_order.end(); ++it) {
        QStringList &keys = m_order[it.key()];
        for (const QString &key : it.value()) {
            if (!keys.contains(key))
                keys.append(key);
        }
    }
    for (auto it = over.m_locations.begin(); it != over.m_locations.end(); ++it)
        m_locations.insert(it.key(), it.value());
    if (m_origin.isEmpty())
        m_origin = over.m_origin;
}

} // namespace qcode
