#include "ProjectFileIndex.h"

#include <QDir>

using namespace Qt::StringLiterals;

#include "PromptLogging.h"
#include "engine/session/loop/AbortSignal.h"

#include <QCoro/QCoroTask>

namespace qcode {

ProjectFileIndex::ProjectFileIndex(QObject *parent) : QObject(parent) {}

ProjectFileIndex::~ProjectFileIndex()
{
    if (m_abort)
        m_abort->abort();
}

void ProjectFileIndex::setDirectory(const QString &directory)
{
    if (m_abort)
        m_abort->abort();
    delete m_abort;
    m_directory = directory.isEmpty() ? QString() : QDir::cleanPath(directory);
    m_paths.clear();
    m_known.clear();
    const quint64 generation = ++m_generation;
    if (m_directory.isEmpty()) {
        m_loading = false;
        Q_EMIT ready();
        return;
    }
    m_loading = true;
    m_abort = new AbortSignal(this);
    QCoro::connect(FileSearch::firstFiles(m_directory, {}, MaxFiles, m_backend, m_abort), this,
                   [this, generation](const Result<FileSearch::FileList> &listed) {
                       // A listing for a project set before the current one
                       // answers too late to matter.
                       if (generation != m_generation)
                           return;
                       m_loading = false;
                       if (!listed) {
                           qCWarning(lcPrompt) << "cannot list the project's files" << listed.error().message;
                           Q_EMIT failed(listed.error().message);
                           return;
                       }
                       take(*listed);
                       Q_EMIT ready();
                   });
}

namespace {

// Git's own files are never what a person mentions.
bool isInsideGit(const QString &relative)
{
    return relative == ".git"_L1 || relative.startsWith(".git/"_L1) || relative.contains("/.git/"_L1)
           || relative.endsWith("/.git"_L1);
}

} // namespace

void ProjectFileIndex::take(const FileSearch::FileList &list)
{
    const QDir root(m_directory);
    QStringList folders;
    QSet<QString> knownFolders;
    for (const FileSearch::FoundFile &file : list.files) {
        const QString relative = root.relativeFilePath(file.path);
        if (isInsideGit(relative))
            continue;
        m_paths.append(relative);
        m_known.insert(relative);
        for (qsizetype slash = relative.indexOf(u'/'); slash > 0; slash = relative.indexOf(u'/', slash + 1)) {
            const QString folder = relative.left(slash + 1);
            if (!knownFolders.contains(folder)) {
                knownFolders.insert(folder);
                folders.append(folder);
            }
        }
    }
    m_paths += folders;
    m_known.unite(knownFolders);
    qCDebug(lcPrompt) << "listed" << list.files.size() << "files in" << m_directory
                      << (list.truncated ? "(stopped at the limit)" : "");
}

} // namespace qcode
