#include "ToolBody.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>

#include "ProposedDiff.h"
#include "ToolInput.h"
#include "ToolStatus.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The pruner's words (reference §6): what the model reads in place of a
// cleared result.
const QString ClearedText = u"[Old tool result content cleared]"_s;

const QJsonObject &metadataOf(const ToolState &state)
{
    static const QJsonObject none;
    if (const auto *running = std::get_if<ToolRunning>(&state); running && running->metadata)
        return *running->metadata;
    if (const auto *done = std::get_if<ToolCompleted>(&state))
        return done->metadata;
    if (const auto *failed = std::get_if<ToolError>(&state); failed && failed->metadata)
        return *failed->metadata;
    return none;
}

QString bashNote(const QString &line)
{
    static const QRegularExpression timeout(u"exceeding timeout (\\d+) ms"_s);
    if (const QRegularExpressionMatch match = timeout.match(line); match.hasMatch())
        return ToolBody::tr("Stopped when it exceeded its timeout of %1.")
            .arg(ToolStatus::duration(match.captured(1).toLongLong()));
    if (line.contains("User aborted"_L1))
        return ToolBody::tr("Stopped by you.");
    return line;
}

// The bash tool ends its output with notes for the model in a
// <bash_metadata> block; the card says them in its own words.
QString takeBashMetadata(QString output, QStringList &notes)
{
    const qsizetype open = output.lastIndexOf("<bash_metadata>"_L1);
    if (open < 0 || !output.trimmed().endsWith("</bash_metadata>"_L1))
        return output;
    const QString block = output.mid(open + 15, output.lastIndexOf("</bash_metadata>"_L1) - open - 15);
    for (const QString &line : block.split(u'\n', Qt::SkipEmptyParts))
        notes.append(bashNote(line.trimmed()));
    output.truncate(open);
    while (output.endsWith(u'\n'))
        output.chop(1);
    return output;
}

void readTodos(const QJsonArray &list, QList<ToolBody::TodoItem> &todos)
{
    for (const QJsonValue &value : list) {
        const QJsonObject todo = value.toObject();
        const auto content = ToolInput::string(todo, "content"_L1);
        if (content)
            todos.append({*content, ToolInput::string(todo, "status"_L1).value_or(u"pending"_s)});
    }
}

QString questionsAndAnswers(const QJsonObject &input, const QJsonObject &metadata)
{
    const QJsonArray questions = input.value("questions"_L1).toArray();
    const QJsonArray answers = metadata.value("answers"_L1).toArray();
    QStringList out;
    for (qsizetype i = 0; i < questions.size(); ++i) {
        out.append(questions.at(i).toObject().value("question"_L1).toString());
        if (i >= answers.size())
            continue;
        QStringList chosen;
        for (const QJsonValue &answer : answers.at(i).toArray())
            chosen.append(answer.toString());
        out.append(u"\u2192 "_s + (chosen.isEmpty() ? ToolBody::tr("(no answer)") : chosen.join(u", "_s)));
    }
    return out.join(u'\n');
}

QString taskResult(const QString &output)
{
    const qsizetype open = output.indexOf("<task_result>"_L1);
    const qsizetype close = output.lastIndexOf("</task_result>"_L1);
    if (open < 0 || close < open)
        return output;
    return output.mid(open + 13, close - open - 13).trimmed();
}

class Reader
{
public:
    Reader(const ToolPart &part, const QString &project)
        : m_part(part)
        , m_project(project)
        , m_input(part.input())
        , m_metadata(metadataOf(part.state))
    {
    }

    ToolBody read()
    {
        output();
        const QString &tool = m_part.tool;
        if (tool == "bash"_L1)
            bash();
        else if (tool == "read"_L1)
            readFile();
        else if (tool == "edit"_L1 || tool == "write"_L1 || tool == "apply_patch"_L1)
            diff();
        else if (tool == "glob"_L1 || tool == "grep"_L1)
            relativePaths();
        else if (tool == "task"_L1)
            task();
        else if (tool == "todowrite"_L1 || tool == "todoread"_L1)
            todos();
        else if (tool == "question"_L1)
            prose(questionsAndAnswers(m_input, m_metadata));
        else if (tool == "invalid"_L1)
            prose(ToolInput::string(m_input, "error"_L1).value_or(QString()));
        else if (!isBuiltin(tool) && !m_input.isEmpty())
            m_body.input = ToolInput::indentedJson(m_input);
        if (const auto *failed = std::get_if<ToolError>(&m_part.state))
            m_body.error = failed->error;
        return m_body;
    }

private:
    static bool isBuiltin(const QString &tool)
    {
        static const QStringList names{u"read"_s, u"glob"_s, u"grep"_s, u"list"_s, u"webfetch"_s};
        return names.contains(tool);
    }

    void output()
    {
        const auto *done = std::get_if<ToolCompleted>(&m_part.state);
        if (!done)
            return;
        if (done->compacted || done->output == ClearedText) {
            m_body.notes.append(ToolBody::tr("[Old tool result content cleared]"));
            return;
        }
        m_body.output = done->output;
        if (m_metadata.value("truncated"_L1).toBool()) {
            const auto path = ToolInput::string(m_metadata, "outputPath"_L1);
            m_body.notes.append(path ? ToolBody::tr("Output shortened for the model; the whole of it is in %1.")
                                           .arg(ToolInput::displayPath(*path, m_project))
                                     : ToolBody::tr("Output shortened for the model."));
        }
    }

    // Said better in prose than the output written for the model.
    void prose(const QString &text)
    {
        if (text.isEmpty())
            return;
        m_body.details = text;
        m_body.output.clear();
    }

    // The file's lines, their numbers in the card's gutter (from the
    // offset read) and coloured as the file's language: not the
    // <path>/<content> wrapping and "12: " prefixes written for the model.
    void readFile()
    {
        static const QRegularExpression numbered(u"^(\\d+): ?(.*)$"_s);
        if (m_body.output.contains("<type>directory</type>"_L1)) {
            readDirectory();
            return;
        }
        if (m_body.output.isEmpty() || !m_body.output.contains("<content>"_L1))
            return;
        const QString &output = m_body.output;
        const qsizetype open = output.indexOf("<content>\n"_L1) + 10;
        const qsizetype close = output.lastIndexOf("</content>"_L1);
        QStringList shown;
        int first = 0;
        for (const QStringView line : QStringView(output).mid(open, std::max<qsizetype>(0, close - open)).split(u'\n')) {
            const QRegularExpressionMatch match = numbered.match(line);
            if (!match.hasMatch())
                continue; // the notes for the model after the lines
            const int number = match.captured(1).toInt();
            // The read tool's lines follow each other; the gutter counts on from the first.
            if (first == 0)
                first = number;
            else if (number != first + shown.size())
                break;
            shown.append(match.captured(2));
        }
        m_body.output = shown.join(u'\n');
        m_body.outputFirstLine = shown.isEmpty() ? 0 : first;
        m_body.outputLanguage = ToolInput::string(m_input, "filePath"_L1).value_or(QString());
    }

    // A folder's entries, without the tags and the count for the model.
    void readDirectory()
    {
        const QString &output = m_body.output;
        const qsizetype open = output.indexOf("<entries>\n"_L1) + 10;
        const qsizetype close = output.lastIndexOf("</entries>"_L1);
        QStringList entries;
        for (const QStringView line : QStringView(output).mid(open, std::max<qsizetype>(0, close - open)).split(u'\n')) {
            if (!line.isEmpty() && !(line.startsWith(u'(') && line.endsWith(u')')))
                entries.append(line.toString());
        }
        m_body.output = entries.join(u'\n');
    }

    // The files found, named from the project as the titles name them.
    void relativePaths()
    {
        if (m_project.isEmpty() || m_body.output.isEmpty())
            return;
        const QString prefix = QDir::cleanPath(QDir::fromNativeSeparators(m_project)) + u'/';
        QStringList lines = m_body.output.split(u'\n');
        for (QString &line : lines) {
            if (line.startsWith(prefix))
                line.remove(0, prefix.size());
        }
        m_body.output = lines.join(u'\n');
    }

    void bash()
    {
        const QString command = ToolInput::string(m_input, "command"_L1).value_or(QString());
        // The title quotes a short one-line command whole: said once.
        if (command.isEmpty() || ToolInput::firstLine(command, ToolInput::TitleCodeLength) != command)
            m_body.input = command;
        if (m_body.input.isEmpty() && command.isEmpty() && !m_input.isEmpty())
            m_body.input = ToolInput::indentedJson(m_input);
        m_body.outputEnd = ToolBody::OutputEnd::Tail;
        // While it runs (and when it was stopped) the live preview is all
        // there is; once done, the whole output.
        const auto *done = std::get_if<ToolCompleted>(&m_part.state);
        if (!done) {
            if (const auto live = ToolInput::string(m_metadata, "output"_L1))
                m_body.output = *live;
        }
        m_body.output = takeBashMetadata(m_body.output, m_body.notes);
        if (!done || done->compacted)
            return;
        const QJsonValue exit = m_metadata.value("exit"_L1);
        if (exit.isDouble())
            m_body.notes.prepend(ToolBody::tr("Exit code %1").arg(exit.toInt()));
        else if (exit.isNull())
            m_body.notes.prepend(ToolBody::tr("Ended by a signal"));
    }

    void diff()
    {
        if (const auto written = ToolInput::string(m_metadata, "diff"_L1); written && !written->isEmpty()) {
            m_body.diff = *written;
            // "Edit applied successfully." says less than the diff.
            m_body.output.clear();
            return;
        }
        m_body.diffProposed = true;
        const QString &tool = m_part.tool;
        const QString path = ToolInput::displayPath(ToolInput::string(m_input, "filePath"_L1).value_or(QString()), m_project);
        if (tool == "apply_patch"_L1) {
            if (const auto patch = ToolInput::string(m_input, "patchText"_L1))
                m_body.diff = ProposedDiff::forPatch(*patch, m_project);
        } else if (tool == "write"_L1) {
            if (const auto content = ToolInput::string(m_input, "content"_L1); content && !path.isEmpty())
                m_body.diff = ProposedDiff::forWrite(path, *content);
        } else {
            const auto oldString = ToolInput::string(m_input, "oldString"_L1);
            const auto newString = ToolInput::string(m_input, "newString"_L1);
            if (oldString && newString && !path.isEmpty())
                m_body.diff = ProposedDiff::forEdit(path, *oldString, *newString);
        }
        if (m_body.diff.isEmpty() && !m_input.isEmpty())
            m_body.input = ToolInput::indentedJson(m_input);
    }

    void task()
    {
        m_body.childSessionID = ToolInput::string(m_metadata, "sessionId"_L1).value_or(QString());
        if (!m_body.output.isEmpty())
            m_body.details = taskResult(m_body.output);
        m_body.output.clear();
    }

    void todos()
    {
        if (m_metadata.value("todos"_L1).isArray())
            readTodos(m_metadata.value("todos"_L1).toArray(), m_body.todos);
        else
            readTodos(m_input.value("todos"_L1).toArray(), m_body.todos);
        // The output is the same list as JSON, for the model.
        if (!m_body.todos.isEmpty())
            m_body.output.clear();
    }

    const ToolPart &m_part;
    const QString &m_project;
    const QJsonObject &m_input;
    const QJsonObject &m_metadata;
    ToolBody m_body;
};

} // namespace

ToolBody ToolBody::of(const ToolPart &part, const QString &projectDirectory)
{
    return Reader(part, projectDirectory).read();
}

} // namespace qcode
