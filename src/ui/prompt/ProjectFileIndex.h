#pragma once

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

#include "engine/tool/FileSearch.h"

namespace qcode {

class AbortSignal;

// The project's files for the "@" picker: listed once per project by
// FileSearch (ripgrep or its in-process walk, off the GUI thread, with the
// project's ignore files honoured), kept, and listed again whenever the
// project is set again. Paths are relative to the project, newest first,
// followed by the folders they are in ("src/ui/").
class ProjectFileIndex : public QObject
{
    Q_OBJECT

public:
    // A picker needs the files a person would name, not every file of a
    // giant tree; past this many the listing stops (in path order).
    static constexpr qsizetype MaxFiles = 50000;

    explicit ProjectFileIndex(QObject *parent = nullptr);
    ~ProjectFileIndex() override;

    // Starts listing `directory` (abandoning a listing still running).
    void setDirectory(const QString &directory);
    QString directory() const { return m_directory; }
    void setBackend(FileSearch::Backend backend) { m_backend = backend; }

    bool isLoading() const { return m_loading; }
    const QStringList &paths() const { return m_paths; }
    bool contains(const QString &relativePath) const { return m_known.contains(relativePath); }

Q_SIGNALS:
    void ready();
    void failed(const QString &message);

private:
    void take(const FileSearch::FileList &list);

    QString m_directory;
    FileSearch::Backend m_backend = FileSearch::Backend::Automatic;
    QStringList m_paths;
    QSet<QString> m_known;
    QPointer<AbortSignal> m_abort;
    quint64 m_generation = 0;
    bool m_loading = false;
};

} // namespace qcode
