#include "ProjectListing.h"

#include <QDir>
#include <QFileInfo>
#include <QQueue>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace qcode::ProjectListing {

namespace {

bool skipped(const QFileInfo &entry)
{
    static const QStringList heavy{u"node_modules"_s, u"build"_s, u"dist"_s, u"target"_s, u"vendor"_s,
                                   u"__pycache__"_s};
    return entry.fileName().startsWith(QLatin1Char('.')) || (entry.isDir() && heavy.contains(entry.fileName()));
}

} // namespace

QString tree(const QString &root, int limit)
{
    // Breadth first, so a deep folder cannot use up the whole budget.
    QStringList chosen; // relative paths, folders ending in "/"
    QQueue<QString> folders;
    folders.enqueue(QString());
    const QDir base(root);
    while (!folders.isEmpty() && chosen.size() < limit) {
        const QString relative = folders.dequeue();
        const QFileInfoList entries = QDir(base.filePath(relative))
                                          .entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Readable,
                                                         QDir::DirsFirst | QDir::Name);
        for (const QFileInfo &entry : entries) {
            if (chosen.size() >= limit)
                break;
            if (skipped(entry))
                continue;
            const QString path = relative + entry.fileName();
            if (entry.isDir() && !entry.isSymLink()) {
                chosen.append(path + QLatin1Char('/'));
                folders.enqueue(path + QLatin1Char('/'));
            } else {
                chosen.append(path);
            }
        }
    }
    // Sorting the paths puts each entry right after its folder.
    std::sort(chosen.begin(), chosen.end(), [](const QString &a, const QString &b) {
        return QString::compare(a, b, Qt::CaseSensitive) < 0;
    });
    QStringList lines;
    for (const QString &path : std::as_const(chosen)) {
        const bool isDir = path.endsWith(QLatin1Char('/'));
        const QString trimmed = isDir ? path.chopped(1) : path;
        const qsizetype depth = trimmed.count(QLatin1Char('/'));
        const QString name = trimmed.section(QLatin1Char('/'), -1);
        lines.append(QString(depth * 2, QLatin1Char(' ')) + name + (isDir ? u"/"_s : QString()));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace qcode::ProjectListing
