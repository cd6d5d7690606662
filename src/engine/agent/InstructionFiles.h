#pragma once

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

#include <QCoro/QCoroTask>

#include "InstructionSources.h"
#include "model/Part.h"

class QNetworkAccessManager;

namespace qcode {

// OpenCode's InstructionPrompt (reference §6.2): the AGENTS.md-style files
// whose text joins the system prompt, each as one entry
// "Instructions from: <path or URL>\n<content>".
//
// In order, without duplicates:
//  1. global: the first that exists of $OPENCODE_CONFIG_DIR/AGENTS.md, each
//     global config folder's AGENTS.md, ~/.claude/CLAUDE.md (unless
//     OPENCODE_DISABLE_CLAUDE_CODE_PROMPT);
//  2. project (unless OPENCODE_DISABLE_PROJECT_CONFIG): for AGENTS.md,
//     CLAUDE.md, CONTEXT.md in turn, every such file from the project folder
//     up to the worktree root, nearest first; the first name found anywhere
//     wins and the others are ignored;
//  3. config `instructions`: ~/ expanded; absolute paths and globs as they
//     are; relative ones matched in every folder from the project up to the
//     worktree;
//  4. config `instructions` URLs, fetched (system() only).
// Global comes first as in OpenCode's test of both together (reference
// §12.10). Empty, missing and unreadable files are left out with a log line.
class InstructionFiles
{
public:
    struct Found {
        QString path;
        QString content; // "Instructions from: <path>\n<text>"
    };

    explicit InstructionFiles(InstructionSources sources);

    const InstructionSources &sources() const { return m_sources; }

    // The local files of steps 1–3, absolute and clean.
    QStringList systemPaths() const;
    // The http(s) entries of config `instructions`.
    QStringList urls() const;

    // One entry per readable, non-empty local file.
    QStringList localEntries() const;

    // localEntries() then one entry per URL that answered 2xx with text
    // within `timeout` (all are fetched at once; a failure is logged and
    // skipped). Reads everything from this object before it first waits,
    // so the object may go away while the fetches run; `network` must
    // outlive the task (if it is destroyed, the URLs are skipped).
    QCoro::Task<QStringList> system(QNetworkAccessManager *network,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(5)) const;

    // Nested instructions for the read tool: walking from `filePath`'s
    // folder up to (not including) the project folder, the first of
    // AGENTS.md, CLAUDE.md, CONTEXT.md in each folder — unless it is the
    // file being read, already a system instruction, listed in a completed
    // read's metadata.loaded in `history`, or already claimed for
    // `messageID`.
    QList<Found> resolve(const QList<MessageWithParts> &history, const QString &filePath, const QString &messageID);
    // Forgets what resolve() claimed for `messageID`.
    void clear(const QString &messageID);

    // The files earlier (not compacted) reads reported as loaded.
    static QSet<QString> loaded(const QList<MessageWithParts> &history);

    // The file's text; nothing when it is missing, unreadable or blank.
    static std::optional<QString> readText(const QString &path);
    static QString render(const QString &source, const QString &text);

private:
    QStringList directoriesUp() const;

    InstructionSources m_sources;
    QHash<QString, QSet<QString>> m_claims;
};

} // namespace qcode
