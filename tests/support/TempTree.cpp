#include "TempTree.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace qcode::test {

QString TempTree::path(const QString &relative) const
{
    return QDir::cleanPath(QDir(m_dir.path()).filePath(relative));
}

bool TempTree::reset() const
{
    return m_dir.isValid() && QDir(m_dir.path()).removeRecursively() && QDir().mkpath(m_dir.path());
}

bool TempTree::write(const QString &relative, const QByteArray &text) const
{
    const QString file = path(relative);
    if (!QDir().mkpath(QFileInfo(file).absolutePath()))
        return false;
    QSaveFile out(file);
    return out.open(QIODevice::WriteOnly) && out.write(text) == text.size() && out.commit();
}

} // namespace qcode::test
