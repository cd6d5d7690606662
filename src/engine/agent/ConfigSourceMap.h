#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace qcode {

// Where the keys of a config document were written, and in which order.
// QJsonObject keeps its keys sorted, but OpenCode reads a permission map in
// the order it was written (the last matching rule wins), and an error is
// only useful when it names the file and line. Paths are key segments from
// the document's root; list items are their index.
class ConfigSourceMap
{
public:
    struct Location {
        QString file;
        int line = 0; // 1-based; 0: unknown
    };

    ConfigSourceMap() = default;
    // `origin` names the document when no line is known ("the config", a file).
    explicit ConfigSourceMap(QString origin) : m_origin(std::move(origin)) {}

    void recordKey(const QStringList &parent, const QString &key, const Location &location);

    // The keys of `object`, which sits at `parent`: first those whose order
    // was recorded, in that order, then the others sorted.
    QStringList orderedKeys(const QStringList &parent, const QJsonObject &object) const;

    // "file:line" for a recorded key; else the nearest recorded parent's
    // location; else the origin.
    QString describe(const QStringList &path) const;
    // The same as a location: the origin with line 0 when none is known.
    Location locate(const QStringList &path) const;
    const QString &origin() const { return m_origin; }

    // `over` was merged on top of this document (JsonMerge::deepMerge):
    // its locations win, and keys new to a map are ordered after the old.
    void overlay(const ConfigSourceMap &over);

private:
    static QString join(const QStringList &segments);

    QString m_origin;
    QHash<QString, QStringList> m_order;    // parent path → keys as written
    QHash<QString, Location> m_locations;   // key path → where it was written
};

} // namespace qcode
