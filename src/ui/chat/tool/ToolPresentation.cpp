#include "ToolPresentation.h"

#include <QJsonArray>
#include <QLocale>

#include "DiffParser.h"
#include "ToolInput.h"
#include "engine/tool/PatchFormat.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int TitleCodeLength = ToolInput::TitleCodeLength;
constexpr int SubtitleLength = 160;

const QJsonObject *completedMetadata(const ToolPart &part)
{
    const auto *done = std::get_if<ToolCompleted>(&part.state);
    return done ? &done->metadata : nullptr;
}

QString code(const QString &text)
{
    return u"`"_s + ToolInput::firstLine(text, TitleCodeLength) + u'`';
}

QString joined(const QStringList &pieces)
{
    QStringList kept;
    for (const QString &piece : pieces) {
        if (!piece.isEmpty())
            kept.append(piece);
    }
    return kept.join(u" \u00b7 "_s);
}

QString changeCounts(int additions, int deletions)
{
    return u"+%1 \u2212%2"_s.arg(additions).arg(deletions);
}

// The counts of a finished edit's diff; empty while it is not known.
QString diffCounts(const ToolPart &part)
{
    const QJsonObject *metadata = completedMetadata(part);
    if (!metadata)
        return {};
    if (const auto file = ToolInput::object(*metadata, "filediff"_L1)) {
        const auto additions = ToolInput::integer(*file, "additions"_L1);
        const auto deletions = ToolInput::integer(*file, "deletions"_L1);
        if (additions && deletions)
            return changeCounts(int(*additions), int(*deletions));
    }
    const auto diff = ToolInput::string(*metadata, "diff"_L1);
    if (!diff)
        return {};
    const ParsedDiff summary = DiffParser::summarize(*diff);
    return changeCounts(summary.additions, summary.deletions);
}

qint64 numberedLines(const QString &output)
{
    // The read tool numbers each line it returns: "12: text".
    qint64 count = 0;
    qsizetype start = 0;
    while (start < output.size()) {
        qsizetype end = output.indexOf(u'\n', start);
        if (end < 0)
            end = output.size();
        qsizetype digits = start;
        while (digits < end && output.at(digits).isDigit())
            ++digits;
        if (digits > start && QStringView(output).mid(digits, 2) == u": ")
            ++count;
        start = end + 1;
    }
    return count;
}

// Its texts are ToolPresentation's: the context lupdate files them under
// must be the one tr() asks for at run time.
struct Builder {
    Q_DECLARE_TR_FUNCTIONS(ToolPresentation)

public:
    const ToolPart &part;
    const QString &project;
    const QJsonObject &input;

    // The raw input when a field the title needs is not there.
    ToolPresentation fallback(const QString &icon, const QString &title) const
    {
        return {icon, title, input.isEmpty() ? QString() : ToolInput::compactJson(input, SubtitleLength)};
    }

    QString path(QLatin1StringView key) const
    {
        return ToolInput::displayPath(ToolInput::string(input, key).value_or(QString()), project);
    }

    ToolPresentation bash() const
    {
        const auto command = ToolInput::string(input, "command"_L1);
        if (!command)
            return fallback(u"bash"_s, tr("Run a command"));
        return {u"bash"_s, tr("Run %1").arg(code(*command)),
                ToolInput::string(input, "description"_L1).value_or(QString())};
    }

    ToolPresentation read() const
    {
        if (!ToolInput::string(input, "filePath"_L1))
            return fallback(u"read"_s, tr("Read a file"));
        QString range;
        const auto offset = ToolInput::integer(input, "offset"_L1);
        const auto limit = ToolInput::integer(input, "limit"_L1);
        if (offset && limit)
            range = tr("lines %1\u2013%2").arg(*offset).arg(*offset + *limit - 1);
        else if (offset)
            range = tr("from line %1").arg(*offset);
        QString lines;
        if (const auto *done = std::get_if<ToolCompleted>(&part.state); done && !done->compacted) {
            if (const qint64 count = numberedLines(done->output))
                lines = tr("%n line(s)", nullptr, int(count));
        }
        return {u"read"_s, tr("Read %1").arg(path("filePath"_L1)), joined({range, lines})};
    }

    ToolPresentation write() const
    {
        if (!ToolInput::string(input, "filePath"_L1))
            return fallback(u"write"_s, tr("Write a file"));
        QString subtitle = diffCounts(part);
        if (const QJsonObject *metadata = completedMetadata(part); metadata && metadata->value("exists"_L1) == false)
            subtitle = joined({tr("new file"), subtitle});
        return {u"write"_s, tr("Write %1").arg(path("filePath"_L1)), subtitle};
    }

    ToolPresentation edit() const
    {
        if (!ToolInput::string(input, "filePath"_L1))
            return fallback(u"edit"_s, tr("Edit a file"));
        const QString all = input.value("replaceAll"_L1).toBool() ? tr("every occurrence") : QString();
        return {u"edit"_s, tr("Edit %1").arg(path("filePath"_L1)), joined({all, diffCounts(part)})};
    }

    ToolPresentation applyPatch() const
    {
        QStringList files;
        if (const QJsonObject *metadata = completedMetadata(part)) {
            for (const QJsonValue &file : metadata->value("files"_L1).toArray()) {
                if (const auto relative = ToolInput::string(file.toObject(), "relativePath"_L1))
                    files.append(*relative);
            }
        }
        if (files.isEmpty()) {
            const auto patch = ToolInput::string(input, "patchText"_L1);
            if (!patch)
                return fallback(u"apply_patch"_s, tr("Apply a patch"));
            if (const Result<QList<PatchFormat::Hunk>> hunks = PatchFormat::parse(*patch)) {
                for (const PatchFormat::Hunk &hunk : *hunks)
                    files.append(ToolInput::displayPath(hunk.movePath.isEmpty() ? hunk.path : hunk.movePath, project));
            }
        }
        const QString title = files.size() == 1 ? tr("Patch %1").arg(files.first())
                              : files.isEmpty() ? tr("Apply a patch")
                                                : tr("Patch %n file(s)", nullptr, int(files.size()));
        const QString names = files.size() > 1 ? ToolInput::firstLine(files.join(u", "_s), SubtitleLength) : QString();
        return {u"apply_patch"_s, title, joined({diffCounts(part), names})};
    }

    QString where() const
    {
        const auto given = ToolInput::string(input, "path"_L1);
        return given && !given->isEmpty() ? tr(" in %1").arg(ToolInput::displayPath(*given, project)) : QString();
    }

    ToolPresentation glob() const
    {
        const auto pattern = ToolInput::string(input, "pattern"_L1);
        if (!pattern)
            return fallback(u"glob"_s, tr("Find files"));
        QString found;
        if (const QJsonObject *metadata = completedMetadata(part)) {
            const int count = int(ToolInput::integer(*metadata, "count"_L1).value_or(0));
            found = metadata->value("truncated"_L1).toBool() ? tr("first %n file(s)", nullptr, count)
                                                          : tr("%n file(s)", nullptr, count);
        }
        return {u"glob"_s, tr("Find files %1").arg(code(*pattern)) + where(), found};
    }

    ToolPresentation grep() const
    {
        const auto pattern = ToolInput::string(input, "pattern"_L1);
        if (!pattern)
            return fallback(u"grep"_s, tr("Search"));
        const QString include = ToolInput::string(input, "include"_L1).value_or(QString());
        QString found;
        if (const QJsonObject *metadata = completedMetadata(part))
            found = tr("%n match(es)", nullptr, int(ToolInput::integer(*metadata, "matches"_L1).value_or(0)));
        return {u"grep"_s, tr("Search for %1").arg(code(*pattern)) + where(),
                joined({include.isEmpty() ? QString() : tr("in %1").arg(include), found})};
    }

    ToolPresentation list() const
    {
        const auto given = ToolInput::string(input, "path"_L1);
        if (!given && input.contains("path"_L1))
            return fallback(u"list"_s, tr("List a folder"));
        const QString shown = given && !given->isEmpty() ? ToolInput::displayPath(*given, project) : u"."_s;
        QString found;
        if (const QJsonObject *metadata = completedMetadata(part))
            found = tr("%n file(s)", nullptr, int(ToolInput::integer(*metadata, "count"_L1).value_or(0)));
        return {u"list"_s, shown == "."_L1 ? tr("List the project folder") : tr("List %1").arg(shown), found};
    }

    ToolPresentation webFetch() const
    {
        const auto url = ToolInput::string(input, "url"_L1);
        if (!url)
            return fallback(u"webfetch"_s, tr("Fetch a web page"));
        QString size;
        if (const auto *done = std::get_if<ToolCompleted>(&part.state); done && !done->compacted)
            size = QLocale().formattedDataSize(done->output.toUtf8().size(), 0, QLocale::DataSizeTraditionalFormat);
        return {u"webfetch"_s, tr("Fetch %1").arg(url->trimmed()), size};
    }

    ToolPresentation task() const
    {
        const auto description = ToolInput::string(input, "description"_L1);
        if (!description)
            return fallback(u"task"_s, tr("Task"));
        return {u"task"_s, tr("Task: %1").arg(*description),
                ToolInput::string(input, "subagent_type"_L1).value_or(QString())};
    }

    ToolPresentation todos(const QString &icon, const QString &title) const
    {
        QJsonArray list = input.value("todos"_L1).toArray();
        if (const QJsonObject *metadata = completedMetadata(part); metadata && metadata->value("todos"_L1).isArray())
            list = metadata->value("todos"_L1).toArray();
        if (list.isEmpty())
            return {icon, title, QString()};
        int done = 0;
        for (const QJsonValue &todo : list) {
            if (todo.toObject().value("status"_L1).toString() == "completed"_L1)
                ++done;
        }
        return {icon, title, tr("%1 of %n done", nullptr, int(list.size())).arg(done)};
    }

    ToolPresentation question() const
    {
        const QJsonArray questions = input.value("questions"_L1).toArray();
        if (questions.isEmpty())
            return input.isEmpty() ? ToolPresentation{u"question"_s, tr("Ask a question"), QString()}
                                   : fallback(u"question"_s, tr("Ask a question"));
        const QString first = questions.first().toObject().value("question"_L1).toString();
        const QString title = tr("Ask %n question(s)", nullptr, int(questions.size()));
        // Once answered, the answer stays in sight on the folded card.
        if (const QJsonObject *metadata = completedMetadata(part)) {
            QStringList chosen;
            for (const QJsonValue &answer : metadata->value("answers"_L1).toArray().at(0).toArray())
                chosen.append(answer.toString());
            if (!chosen.isEmpty())
                return {u"question"_s, title,
                        tr("%1 → %2").arg(ToolInput::firstLine(first, SubtitleLength / 2),
                                          ToolInput::firstLine(chosen.join(u", "_s), SubtitleLength / 2))};
        }
        return {u"question"_s, title, ToolInput::firstLine(first, SubtitleLength)};
    }

    ToolPresentation invalid() const
    {
        const QString tool = ToolInput::string(input, "tool"_L1).value_or(QString());
        const QString error = ToolInput::string(input, "error"_L1).value_or(QString());
        return {u"invalid"_s, tool.isEmpty() ? tr("Invalid tool call") : tr("Invalid call of %1").arg(tool),
                ToolInput::firstLine(error, SubtitleLength)};
    }

    // An MCP tool or one from a newer OpenCode: its name, and what it
    // said of itself or the start of its input.
    ToolPresentation generic() const
    {
        QString said;
        if (const auto *running = std::get_if<ToolRunning>(&part.state); running && running->title)
            said = *running->title;
        else if (const auto *done = std::get_if<ToolCompleted>(&part.state))
            said = done->title;
        if (said.isEmpty() && !input.isEmpty())
            said = ToolInput::compactJson(input, SubtitleLength);
        return {u"generic"_s, part.tool.isEmpty() ? tr("Unnamed tool") : part.tool,
                ToolInput::firstLine(said, SubtitleLength)};
    }
};

} // namespace

ToolPresentation presentTool(const ToolPart &part, const QString &projectDirectory)
{
    const Builder builder{part, projectDirectory, part.input()};
    const QString &tool = part.tool;
    if (tool == "bash"_L1)
        return builder.bash();
    if (tool == "read"_L1)
        return builder.read();
    if (tool == "write"_L1)
        return builder.write();
    if (tool == "edit"_L1)
        return builder.edit();
    if (tool == "apply_patch"_L1)
        return builder.applyPatch();
    if (tool == "glob"_L1)
        return builder.glob();
    if (tool == "grep"_L1)
        return builder.grep();
    if (tool == "list"_L1)
        return builder.list();
    if (tool == "webfetch"_L1)
        return builder.webFetch();
    if (tool == "task"_L1)
        return builder.task();
    if (tool == "todowrite"_L1)
        return builder.todos(u"todowrite"_s, ToolPresentation::tr("Update the to-do list"));
    if (tool == "todoread"_L1)
        return builder.todos(u"todoread"_s, ToolPresentation::tr("Read the to-do list"));
    if (tool == "question"_L1)
        return builder.question();
    if (tool == "invalid"_L1)
        return builder.invalid();
    return builder.generic();
}

} // namespace qcode
