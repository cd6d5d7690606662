#include "EditTool.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QtConcurrent>

#include <QCoro/QCoroFuture>

#include "EditReplacers.h"
#include "FileTimes.h"
#include "TextFiles.h"
#include "ToolLogging.h"
#include "ToolPermission.h"
#include "UnifiedDiff.h"

namespace qcode {

namespace {

// The edit worked out off the engine thread, carried through a QFuture
// (which wants a default-constructible value, so no Result).
struct EditPlan {
    bool ok = false;
    QString error;
    QString after; // the file's new text, in its own line breaks
    QString beforeLf;
    QString afterLf;
    QString diff;
    UnifiedDiff::Counts counts;
};

EditPlan planEdit(const QString &path, const QString &before, const QString &oldString, const QString &newString,
                  bool replaceAll)
{
    EditPlan plan;
    if (oldString.isEmpty()) {
        plan.after = newString;
    } else {
        // The model writes LF; the file keeps its own line breaks.
        const bool crlf = TextFiles::usesCrlf(before);
        const QString find = crlf ? TextFiles::toCrlf(TextFiles::toLf(oldString)) : TextFiles::toLf(oldString);
        const QString replacement = crlf ? TextFiles::toCrlf(TextFiles::toLf(newString)) : TextFiles::toLf(newString);
        Result<QString> replaced = EditReplacers::replace(before, find, replacement, replaceAll);
        if (!replaced) {
            plan.error = replaced.errorMessage();
            return plan;
        }
        plan.after = std::move(replaced).value();
    }
    plan.beforeLf = TextFiles::toLf(before);
    plan.afterLf = TextFiles::toLf(plan.after);
    plan.diff = UnifiedDiff::trimIndentation(UnifiedDiff::twoFilesPatch(path, path, plan.beforeLf, plan.afterLf));
    plan.counts = UnifiedDiff::counts(plan.beforeLf, plan.afterLf);
    plan.ok = true;
    return plan;
}

QJsonObject fileDiff(const QString &path, const EditPlan &plan)
{
    return QJsonObject{
        {QStringLiteral("file"), path},
        {QStringLiteral("before"), plan.beforeLf},
        {QStringLiteral("after"), plan.afterLf},
        {QStringLiteral("additions"), plan.counts.additions},
        {QStringLiteral("deletions"), plan.counts.deletions},
    };
}

} // namespace

EditTool::EditTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString EditTool::name() const
{
    return QStringLiteral("edit");
}

QString EditTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return QStringLiteral(
        "Replaces text in a file.\n\n"
        "Usage:\n"
        "- Read the file with the read tool in this conversation first; an edit of a file you have not read, or "
        "that changed since you read it, fails.\n"
        "- oldString must be text from the file, with its indentation as the file has it. Do not include the "
        "\"<n>: \" line number prefixes of the read output.\n"
        "- The edit fails if oldString is not found, or if it is found more than once: then give more "
        "surrounding lines to make it unique, or set replaceAll to change every occurrence (useful for "
        "renaming).\n"
        "- newString must differ from oldString. An empty oldString writes newString as the whole file.\n"
        "- Prefer editing existing files to writing new ones.");
}

QJsonObject EditTool::parameters() const
{
    const auto string = [](const char *description) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                           {QStringLiteral("description"), QLatin1String(description)}};
    };
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("filePath"), string("The absolute path to the file to modify")},
             {QStringLiteral("oldString"), string("The text to replace")},
             {QStringLiteral("newString"), string("The text to replace it with (must be different from oldString)")},
             {QStringLiteral("replaceAll"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")},
                          {QStringLiteral("description"),
                           QStringLiteral("Replace all occurrences of oldString (default false)")}}},
         }},
        {QStringLiteral("required"),
         QJsonArray{QStringLiteral("filePath"), QStringLiteral("oldString"), QStringLiteral("newString")}},
    };
}

QCoro::Task<ToolResult> EditTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString filePath = arguments.value(QStringLiteral("filePath")).toString();
    const QJsonValue oldValue = arguments.value(QStringLiteral("oldString"));
    const QJsonValue newValue = arguments.value(QStringLiteral("newString"));
    const bool replaceAll = arguments.value(QStringLiteral("replaceAll")).toBool(false);
    if (filePath.isEmpty())
        co_return ToolFailure{QStringLiteral("filePath is required")};
    if (!oldValue.isString() || !newValue.isString())
        co_return ToolFailure{QStringLiteral("oldString and newString must be strings")};
    const QString oldString = oldValue.toString();
    const QString newString = newValue.toString();
    if (oldString == newString)
        co_return ToolFailure{QStringLiteral("No changes to apply: oldString and newString are identical.")};

    // `path` is what the person and the model see; `target` is where it
    // really leads, through any link: what is checked, read and written.
    const QString path = TextFiles::absolutePath(context, filePath);
    const Result<QString> resolved = TextFiles::realPath(path);
    if (!resolved)
        co_return ToolFailure{resolved.errorMessage()};
    const QString target = *resolved;
    QCoro::Task<std::optional<ToolFailure>> external =
        ToolPermission::checkExternalResolved(context, target, ToolPermission::PathKind::File);
    if (std::optional<ToolFailure> refused = co_await external)
        co_return *refused;

    const QFileInfo info(target);
    if (info.isDir())
        co_return ToolFailure{QStringLiteral("Path is a directory, not a file: %1").arg(path)};
    const bool exists = info.exists();
    if (!exists && !oldString.isEmpty())
        co_return ToolFailure{QStringLiteral("File %1 not found").arg(path)};
    if (exists) {
        if (!info.isFile())
            co_return ToolFailure{QStringLiteral("Cannot edit %1: it is not a regular file").arg(path)};
        if (m_services.fileTimes) {
            const Result<void> writable = m_services.fileTimes->checkWritable(context.sessionID, path);
            if (!writable)
                co_return ToolFailure{writable.errorMessage()};
        }
    }

    TextFiles::Text before;
    if (exists) {
        Result<TextFiles::Text> read = TextFiles::readText(target);
        if (!read)
            co_return ToolFailure{read.errorMessage()};
        before = std::move(read).value();
    }

    // The looser replacers and the diff take time in proportion to the
    // file's size times the search's: not on the engine thread.
    QFuture<EditPlan> planning = QtConcurrent::run(
        [path, text = before.text, oldString, newString, replaceAll] {
            return planEdit(path, text, oldString, newString, replaceAll);
        });
    const EditPlan plan = co_await planning;
    if (!plan.ok)
        co_return ToolFailure{plan.error};
    TextFiles::Text after = before;
    after.text = plan.after;
    const QString &diff = plan.diff;
    const QString relative = TextFiles::relativePath(context, path);

    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(
        context, ToolPermission::editRequest({relative}, {{QStringLiteral("filepath"), path}, {QStringLiteral("diff"), diff}}));
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    // The question may have been open for minutes: an edit made meanwhile
    // (by the person or another call) must not be overwritten unseen.
    bool changed = QFileInfo::exists(target) != exists;
    if (!changed && exists) {
        const Result<TextFiles::Text> again = TextFiles::readText(target);
        changed = !again || again->text != before.text || again->byteOrderMark != before.byteOrderMark;
    }
    if (changed)
        co_return ToolFailure{QStringLiteral("File %1 has been modified since it was last read.\n\n"
                                 "Please read the file again before modifying it.")
                                  .arg(path)};

    const Result<void> written = TextFiles::writeText(target, after);
    if (!written)
        co_return ToolFailure{written.errorMessage()};
    if (m_services.fileTimes)
        m_services.fileTimes->recordRead(context.sessionID, path);
    qCDebug(lcTool) << "edited" << path;

    ToolOutput output;
    output.output = QStringLiteral("Edit applied successfully.");
    output.title = relative;
    output.metadata = QJsonObject{
        {QStringLiteral("diagnostics"), QJsonObject()},
        {QStringLiteral("diff"), diff},
        {QStringLiteral("filediff"), fileDiff(path, plan)},
    };
    co_return output;
}

} // namespace qcode
