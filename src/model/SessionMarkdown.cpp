#include "SessionMarkdown.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QUrl>

#include "Overloaded.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// A fence longer than any run of backticks inside, so code that holds
// ``` cannot end the block early.
QString fenced(const QString &text, const QString &language = {})
{
    int longest = 0, run = 0;
    for (const QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max(3, longest + 1), u'`');
    QString body = text;
    if (!body.endsWith(u'\n'))
        body += u'\n';
    return fence + language + u'\n' + body + fence;
}

QString shortened(const QString &output, int lines)
{
    const QStringList all = output.split(u'\n');
    if (all.size() <= lines)
        return output;
    return QStringList(all.mid(0, lines)).join(u'\n') + u'\n'
           + SessionMarkdown::tr("… %n more line(s)", nullptr, int(all.size() - lines));
}

QString quoted(const QString &text)
{
    QStringList lines = text.trimmed().split(u'\n');
    for (QString &line : lines)
        line.prepend(u"> "_s);
    return lines.join(u'\n');
}

// What a tool wrote for the model, as a person reads it: the read tool's
// <path>/<content> wrapping and numbered lines, the bash tool's
// <bash_metadata> notes and a task's <task_result> tags left out.
QString forPeople(const QString &tool, QString output)
{
    if (tool == "task"_L1) {
        const qsizetype open = output.indexOf("<task_result>"_L1);
        const qsizetype close = output.lastIndexOf("</task_result>"_L1);
        if (open >= 0 && close > open)
            return output.mid(open + 13, close - open - 13).trimmed();
    }
    if (tool == "bash"_L1) {
        const qsizetype open = output.lastIndexOf("<bash_metadata>"_L1);
        if (open >= 0)
            output.truncate(open);
    }
    static const QRegularExpression tagLine(u"^\\s*</?(path|type|content|entries|file)>.*$"_s);
    static const QRegularExpression numbered(u"^\\d+: ?"_s);
    static const QRegularExpression readNote(u"^\\((End of file|File has more lines|Output).*\\)$"_s);
    QStringList kept;
    for (QString line : output.split(u'\n')) {
        if (tagLine.match(line).hasMatch())
            continue;
        if (tool == "read"_L1 && readNote.match(line).hasMatch())
            continue;
        if (tool == "read"_L1)
            line.remove(numbered);
        kept.append(line);
    }
    return kept.join(u'\n').trimmed();
}

// The input in the words of the tool's title, where the title names it all
// (a path, a pattern); a command as the shell reads it; other tools' input
// as JSON.
QString inputSection(const QString &tool, const QJsonObject &input)
{
    if (input.isEmpty())
        return {};
    static const QStringList namedByTitle{u"read"_s, u"write"_s, u"edit"_s, u"list"_s, u"glob"_s, u"grep"_s,
                                          u"webfetch"_s, u"todowrite"_s, u"todoread"_s, u"task"_s};
    if (namedByTitle.contains(tool))
        return {};
    if (tool == "bash"_L1 && input.value("command"_L1).isString())
        return fenced(input.value("command"_L1).toString(), u"sh"_s);
    return fenced(QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Indented)), u"json"_s);
}

QString toolSection(const ToolPart &tool)
{
    QString title;
    QString body;
    std::visit(Overloaded{
                   [&](const ToolPending &) { title = SessionMarkdown::tr("(pending)"); },
                   [&](const ToolRunning &running) { title = running.title.value_or(SessionMarkdown::tr("(running)")); },
                   [&](const ToolCompleted &done) {
                       title = done.title;
                       body = done.compacted ? SessionMarkdown::tr("[Old tool result content cleared]")
                                             : shortened(forPeople(tool.tool, done.output), SessionMarkdown::OutputLines);
                   },
                   [&](const ToolError &error) {
                       title = SessionMarkdown::tr("failed");
                       body = error.error;
                   },
               },
               tool.state);
    QString section = u"**Tool: %1**"_s.arg(tool.tool);
    if (!title.isEmpty())
        section += u" — "_s + title;
    if (const QString input = inputSection(tool.tool, tool.input()); !input.isEmpty())
        section += u"\n\n"_s + input;
    if (!body.isEmpty())
        section += u"\n\n"_s + fenced(body);
    return section;
}

} // namespace

QString SessionMarkdown::render(const Session &session, const QList<MessageWithParts> &messages)
{
    QStringList blocks;
    blocks.append(u"# "_s + session.title);
    blocks.append(tr("In %1, begun %2")
                      .arg(session.directory,
                           QLocale().toString(QDateTime::fromMSecsSinceEpoch(session.time.created), QLocale::LongFormat)));
    for (const MessageWithParts &message : messages) {
        const QString rendered = renderMessage(message);
        if (!rendered.isEmpty())
            blocks.append(rendered);
    }
    return blocks.join(u"\n\n"_s) + u'\n';
}

QString SessionMarkdown::renderMessage(const MessageWithParts &message)
{
    QStringList blocks;
    for (const Part &part : message.parts) {
        const QString rendered = renderPart(part);
        if (!rendered.isEmpty())
            blocks.append(rendered);
    }
    const AssistantMessage *assistant = message.info.assistant();
    if (assistant && assistant->error && assistant->error->name != "MessageAbortedError"_L1)
        blocks.append(tr("**Error:** %1").arg(assistant->error->message().isEmpty() ? assistant->error->name
                                                                                    : assistant->error->message()));
    if (blocks.isEmpty())
        return {};
    const QString heading = assistant ? tr("## Assistant (%1 · %2)").arg(assistant->agent, assistant->modelID)
                                      : tr("## You");
    return heading + u"\n\n"_s + blocks.join(u"\n\n"_s);
}

QString SessionMarkdown::renderPart(const Part &part)
{
    return std::visit(
        Overloaded{
            [](const TextPart &text) { return text.synthetic.value_or(false) ? QString() : text.text.trimmed(); },
            [](const ReasoningPart &reasoning) {
                return reasoning.text.trimmed().isEmpty() ? QString() : quoted(reasoning.text);
            },
            [&part](const FilePart &file) {
                if (part.extra.value("synthetic"_L1).toBool())
                    return QString();
                const QString name = file.filename.value_or(QUrl(file.url).fileName());
                return file.url.startsWith("data:"_L1) ? tr("Attached: %1 (%2)").arg(name, file.mime)
                                                       : u"[%1](%2)"_s.arg(name, file.url);
            },
            [](const ToolPart &tool) { return toolSection(tool); },
            [](const PatchPart &patch) {
                return patch.files.isEmpty() ? QString() : tr("_Changed: %1_").arg(patch.files.join(u", "_s));
            },
            [](const SubtaskPart &subtask) { return tr("_Subtask for @%1: %2_").arg(subtask.agent, subtask.description); },
            [](const CompactionPart &) { return tr("_The conversation was summarized here._"); },
            [](const auto &) { return QString(); },
        },
        part.body);
}

} // namespace qcode
