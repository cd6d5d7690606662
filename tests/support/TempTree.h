#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

namespace qcode::test {

// A temporary folder tests lay files out in: a project, a home, config
// folders. Removed with the object.
class TempTree
{
public:
    QString root() const { return m_dir.path(); }
    // The cleaned absolute path of `relative` inside the tree.
    QString path(const QString &relative) const;
    // Empties the tree, for a fresh layout in each test; false when the
    // temporary folder could not be made or emptied.
    bool reset() const;
    // Writes `text` to `relative`, creating folders; false on failure.
    bool write(const QString &relative, const QByteArray &text) const;

private:
    QTemporaryDir m_dir;
};

} // namespace qcode::test
