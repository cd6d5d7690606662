#pragma once

#include <QByteArray>
#include <QString>

#include "FileRead.h"
#include "model/Result.h"

namespace qcode {

// OpenCode's read tool (reference 8.1) as one reusable piece: the prompt
// inlines dropped files through it and the `read` tool calls it, so the
// model sees the same text either way.
//
// It is synchronous and touches only the filesystem: no permission asks,
// no session state, no LSP. A large file or a slow disk can take a while,
// so callers on the GUI or engine thread run it through QtConcurrent and
// await the future. Memory stays bounded whatever the file: text is
// streamed and only the lines shown are kept; attachments are capped.
class FileReader
{
public:
    static constexpr qint64 DefaultLimit = 2000;
    static constexpr qsizetype MaxLineLength = 2000; // UTF-16 units, as JavaScript counts them
    static constexpr qsizetype MaxBytes = 50 * 1024;
    static constexpr int MaxSuggestions = 3;
    // OpenCode attaches any size; providers refuse images over 5–20 MB and
    // requests over 32 MB, and base64 holds 1.33× the file in memory, so a
    // larger file is refused here with a sentence instead.
    static constexpr qint64 MaxAttachmentBytes = 20 * 1024 * 1024;

    // `directory` resolves relative paths; a path outside both it and the
    // worktree is flagged `external` in the metadata (asking permission for
    // it is the tool layer's job).
    FileReader(QString directory, QString worktree);

    Result<FileReadResult> read(const FileReadRequest &request) const;

    // The whole file, for a prompt that attaches it as a data URL; refused
    // when missing, not a regular file, unreadable or over
    // MaxAttachmentBytes.
    Result<QByteArray> readBytes(const QString &filePath) const;

    QString absolutePath(const QString &filePath) const;
    bool isExternal(const QString &absolutePath) const;

    // The type a file's name says it has (OpenCode asks Bun the same).
    static QString mimeType(const QString &filePath);
    // Images except SVG, and PDFs, travel as attachments instead of text.
    static bool isAttachmentMime(const QString &mime);

private:
    Result<FileReadResult> listDirectory(const QString &path, qint64 offset, qint64 limit) const;
    Result<FileReadResult> attach(const QString &path, const QString &mime) const;
    Result<FileReadResult> readText(const QString &path, qint64 offset, qint64 limit) const;
    Result<bool> isBinary(const QString &path, qint64 size) const;
    Error notFound(const QString &path) const;
    QString title(const QString &path) const;

    QString m_directory;
    QString m_worktree;
};

} // namespace qcode
