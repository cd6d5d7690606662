#include "ApplyPatchTool.h"

#include <QFileInfo>
#include <QJsonArray>

#include "FileTimes.h"
#include "PatchFormat.h"
#include "TextFiles.h"
#include "ToolLogging.h"
#include "ToolPermission.h"
#include "UnifiedDiff.h"

namespace qcode {

namespace {

enum class ChangeKind { Add, Update, Move, Delete };

struct FileChange {
    ChangeKind kind = ChangeKind::Add;
    QString path; // as the patch names it, made absolute: what is shown
    QString movePath;
    QString target; // where path really leads, through any link: what is checked, read and written
    QString moveTarget;
    QString entry; // a deleted or moved file's own name, a link itself: what is removed
    TextFiles::Text before;
    TextFiles::Text after;
    bool crlf = false;
    QString diff;
    UnifiedDiff::Counts counts;
};

QString kindName(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Add:
        return QStringLiteral("add");
    case ChangeKind::Update:
        return QStringLiteral("update");
    case ChangeKind::Move:
        return QStringLiteral("move");
    case ChangeKind::Delete:
        return QStringLiteral("delete");
    }
    return {};
}

QString verificationFailed(const QString &why)
{
    return QStringLiteral("apply_patch verification failed: %1").arg(why);
}


} // namespace

ApplyPatchTool::ApplyPatchTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString ApplyPatchTool::name() const
{
    return QStringLiteral("apply_patch");
}

QString ApplyPatchTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return QStringLiteral(
        "Edits files with a patch. The patch is enclosed in \"*** Begin Patch\" and \"*** End Patch\" lines and "
        "holds one section per file:\n"
        "*** Add File: <path> — then every line of the new file, each prefixed with +\n"
        "*** Delete File: <path> — nothing follows\n"
        "*** Update File: <path> — optionally followed by \"*** Move to: <new path>\", then one or more chunks. "
        "A chunk starts with a line \"@@\" (or \"@@ <a line to find first, such as a function header>\") and "
        "lists the lines around the change: \" \" for an unchanged line, \"-\" for a removed line, \"+\" for an "
        "added line. Give three lines of unchanged context before and after each change.\n\n"
        "Example:\n"
        "*** Begin Patch\n"
        "*** Add File: hello.txt\n"
        "+Hello world\n"
        "*** Update File: src/app.py\n"
        "*** Move to: src/main.py\n"
        "@@ def greet():\n"
        "-print(\"Hi\")\n"
        "+print(\"Hello, world!\")\n"
        "*** Delete File: obsolete.txt\n"
        "*** End Patch\n\n"
        "Paths are relative to the project directory. Nothing is written unless every section applies.");
}

QJsonObject ApplyPatchTool::parameters() const
{
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("patchText"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("description"),
                           QStringLiteral("The full patch text that describes all changes to be made")}}},
         }},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("patchText")}},
    };
}

QCoro::Task<ToolResult> ApplyPatchTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString patchText = arguments.value(QStringLiteral("patchText")).toString();
    if (patchText.isEmpty())
        co_return ToolFailure{QStringLiteral("patchText is required")};

    const Result<QList<PatchFormat::Hunk>> parsed = PatchFormat::parse(patchText);
    if (!parsed)
        co_return ToolFailure{verificationFailed(parsed.errorMessage())};
    if (parsed->isEmpty()) {
        QString normalized = patchText;
        normalized.replace(QLatin1String("\r\n"), QLatin1String("\n")).replace(u'\r', u'\n');
        if (normalized.trimmed() == QLatin1String("*** Begin Patch\n*** End Patch"))
            co_return ToolFailure{QStringLiteral("patch rejected: empty patch")};
        co_return ToolFailure{verificationFailed(QStringLiteral("no hunks found"))};
    }

    QList<FileChange> changes;
    for (const PatchFormat::Hunk &hunk : *parsed) {
        FileChange change;
        change.path = TextFiles::absolutePath(context, hunk.path);
        const Result<QString> target = TextFiles::realPath(change.path);
        if (!target)
            co_return ToolFailure{verificationFailed(target.errorMessage())};
        change.target = *target;
        QCoro::Task<std::optional<ToolFailure>> external =
            ToolPermission::checkExternalResolved(context, change.target, ToolPermission::PathKind::File);
        if (std::optional<ToolFailure> refused = co_await external)
            co_return *refused;

        // Deleting (or moving away) a link removes the link, as before:
        // where the link itself lies is checked too.
        if (hunk.kind == PatchFormat::Hunk::Kind::Delete || !hunk.movePath.isEmpty()) {
            const Result<QString> entry = TextFiles::realEntry(change.path);
            if (!entry)
                co_return ToolFailure{verificationFailed(entry.errorMessage())};
            change.entry = *entry;
            if (change.entry != change.target) {
                QCoro::Task<std::optional<ToolFailure>> externalEntry =
                    ToolPermission::checkExternalResolved(context, change.entry, ToolPermission::PathKind::File);
                if (std::optional<ToolFailure> refused = co_await externalEntry)
                    co_return *refused;
            }
        }

        const QFileInfo info(change.target);
        switch (hunk.kind) {
        case PatchFormat::Hunk::Kind::Add: {
            change.kind = ChangeKind::Add;
            if (info.isDir())
                co_return ToolFailure{verificationFailed(QStringLiteral("Cannot add %1: it is a directory").arg(change.path))};
            const QString &contents = hunk.contents;
            change.after.text = contents.isEmpty() || contents.endsWith(u'\n') ? contents : QString(contents + u'\n');
            break;
        }
        case PatchFormat::Hunk::Kind::Update: {
            change.kind = hunk.movePath.isEmpty() ? ChangeKind::Update : ChangeKind::Move;
            if (!info.isFile())
                co_return ToolFailure{verificationFailed(QStringLiteral("Failed to read file to update: %1").arg(change.path))};
            Result<TextFiles::Text> read = TextFiles::readText(change.target);
            if (!read)
                co_return ToolFailure{verificationFailed(read.errorMessage())};
            change.before = std::move(read).value();
            // Chunks are matched and written in LF; a CRLF file gets its
            // line breaks back when written.
            change.crlf = TextFiles::usesCrlf(change.before.text);
            const Result<QString> applied =
                PatchFormat::applyChunks(change.path, hunk.chunks, TextFiles::toLf(change.before.text));
            if (!applied)
                co_return ToolFailure{verificationFailed(applied.errorMessage())};
            change.after = TextFiles::Text{*applied, change.before.byteOrderMark};
            if (!hunk.movePath.isEmpty()) {
                change.movePath = TextFiles::absolutePath(context, hunk.movePath);
                const Result<QString> moveTarget = TextFiles::realPath(change.movePath);
                if (!moveTarget)
                    co_return ToolFailure{verificationFailed(moveTarget.errorMessage())};
                change.moveTarget = *moveTarget;
                QCoro::Task<std::optional<ToolFailure>> externalMove = ToolPermission::checkExternalResolved(
                    context, change.moveTarget, ToolPermission::PathKind::File);
                if (std::optional<ToolFailure> refused = co_await externalMove)
                    co_return *refused;
                if (QFileInfo(change.moveTarget).isDir())
                    co_return ToolFailure{
                        verificationFailed(QStringLiteral("Cannot move to %1: it is a directory").arg(change.movePath))};
            }
            break;
        }
        case PatchFormat::Hunk::Kind::Delete: {
            change.kind = ChangeKind::Delete;
            if (!info.isFile())
                co_return ToolFailure{verificationFailed(QStringLiteral("Failed to read file to delete: %1").arg(change.path))};
            Result<TextFiles::Text> read = TextFiles::readText(change.target);
            // A binary file may be deleted; its diff just cannot show it.
            change.before = read ? std::move(read).value() : TextFiles::Text{};
            break;
        }
        }
        const QString beforeLf = TextFiles::toLf(change.before.text);
        const QString afterLf = TextFiles::toLf(change.after.text);
        change.diff = UnifiedDiff::trimIndentation(
            UnifiedDiff::twoFilesPatch(change.path, change.path, beforeLf, afterLf));
        change.counts = UnifiedDiff::counts(beforeLf, afterLf);
        changes.append(change);
    }

    QStringList relativePaths;
    QString totalDiff;
    QJsonArray files;
    for (const FileChange &change : std::as_const(changes)) {
        relativePaths.append(TextFiles::relativePath(context, change.path));
        totalDiff += change.diff + u'\n';
        QJsonObject file{
            {QStringLiteral("filePath"), change.path},
            {QStringLiteral("relativePath"),
             TextFiles::relativePath(context, change.movePath.isEmpty() ? change.path : change.movePath)},
            {QStringLiteral("type"), kindName(change.kind)},
            {QStringLiteral("diff"), change.diff},
            {QStringLiteral("before"), TextFiles::toLf(change.before.text)},
            {QStringLiteral("after"), TextFiles::toLf(change.after.text)},
            {QStringLiteral("additions"), change.counts.additions},
            {QStringLiteral("deletions"), change.counts.deletions},
        };
        if (!change.movePath.isEmpty())
            file.insert(QStringLiteral("movePath"), change.movePath);
        files.append(file);
    }

    const QJsonObject shown{
        {QStringLiteral("filepath"), relativePaths.join(QStringLiteral(", "))},
        {QStringLiteral("diff"), totalDiff},
        {QStringLiteral("files"), files},
    };
    QCoro::Task<std::optional<ToolFailure>> asking =
        ToolPermission::ask(context, ToolPermission::editRequest(relativePaths, shown));
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    QStringList summary;
    for (const FileChange &change : std::as_const(changes)) {
        TextFiles::Text written = change.after;
        if (change.crlf)
            written.text = TextFiles::toCrlf(written.text);
        Result<void> done;
        switch (change.kind) {
        case ChangeKind::Add:
        case ChangeKind::Update:
            done = TextFiles::writeText(change.target, written);
            break;
        case ChangeKind::Move:
            done = TextFiles::writeText(change.moveTarget, written);
            if (done && change.moveTarget != change.target)
                done = TextFiles::remove(change.entry);
            break;
        case ChangeKind::Delete:
            done = TextFiles::remove(change.entry);
            break;
        }
        if (!done) {
            // Say what was already applied: the model must not redo it.
            const QString applied = summary.isEmpty() ? QStringLiteral("No file was changed.")
                                                      : QStringLiteral("These changes were applied before it:\n%1")
                                                            .arg(summary.join(u'\n'));
            co_return ToolFailure{QStringLiteral("apply_patch failed: %1\n%2").arg(done.errorMessage(), applied)};
        }
        const QString target = change.movePath.isEmpty() ? change.path : change.movePath;
        const QString relative = TextFiles::relativePath(context, target);
        switch (change.kind) {
        case ChangeKind::Add:
            summary.append(QStringLiteral("A ") + relative);
            break;
        case ChangeKind::Delete:
            summary.append(QStringLiteral("D ") + relative);
            break;
        case ChangeKind::Update:
        case ChangeKind::Move:
            summary.append(QStringLiteral("M ") + relative);
            break;
        }
        if (change.kind != ChangeKind::Delete && m_services.fileTimes)
            m_services.fileTimes->recordRead(context.sessionID, target);
    }
    qCDebug(lcTool) << "applied patch to" << relativePaths;

    ToolOutput output;
    output.output = QStringLiteral("Success. Updated the following files:\n%1").arg(summary.join(u'\n'));
    output.title = output.output;
    output.metadata = QJsonObject{
        {QStringLiteral("diff"), totalDiff},
        {QStringLiteral("files"), files},
        {QStringLiteral("diagnostics"), QJsonObject()},
    };
    co_return output;
}

} // namespace qcode
