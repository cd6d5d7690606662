#include "RunPrinter.h"

#include <QIODevice>
#include <QJsonDocument>

#include "engine/Engine.h"
#include "model/Overloaded.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr qsizetype MaxSummaryLength = 120;

QString errorText(const NamedError &error)
{
    const QString message = error.message().trimmed();
    if (!message.isEmpty())
        return message;
    return error.name.isEmpty() ? RunPrinter::tr("unknown error") : error.name;
}

QString firstLine(const QString &text)
{
    const QString trimmed = text.trimmed();
    const qsizetype newline = trimmed.indexOf(u'\n');
    return newline < 0 ? trimmed : trimmed.left(newline).trimmed() + u" …"_s;
}

QString shortened(const QString &text)
{
    const QString line = firstLine(text);
    return line.size() <= MaxSummaryLength ? line : line.left(MaxSummaryLength - 1) + u'…';
}

} // namespace

QString RunToolLine::displayName(const QString &tool)
{
    static const QHash<QString, QString> names{
        {u"todowrite"_s, u"Todo"_s}, {u"todoread"_s, u"Todo"_s},   {u"bash"_s, u"Bash"_s},
        {u"edit"_s, u"Edit"_s},      {u"glob"_s, u"Glob"_s},       {u"grep"_s, u"Grep"_s},
        {u"list"_s, u"List"_s},      {u"read"_s, u"Read"_s},       {u"write"_s, u"Write"_s},
        {u"websearch"_s, u"Search"_s}, {u"webfetch"_s, u"Fetch"_s}, {u"task"_s, u"Task"_s},
        {u"apply_patch"_s, u"Patch"_s}, {u"multiedit"_s, u"Edit"_s},
    };
    return names.value(tool, tool);
}

QString RunToolLine::summary(const ToolPart &tool)
{
    QString title;
    if (const auto *completed = std::get_if<ToolCompleted>(&tool.state))
        title = completed->title;
    else if (const auto *running = std::get_if<ToolRunning>(&tool.state))
        title = running->title.value_or(QString());
    if (!title.trimmed().isEmpty())
        return shortened(title);

    const QJsonObject &input = tool.input();
    for (const QLatin1StringView key : {"filePath"_L1, "path"_L1, "pattern"_L1, "command"_L1, "url"_L1, "query"_L1,
                                        "description"_L1}) {
        const QString value = input.value(key).toString();
        if (!value.trimmed().isEmpty())
            return shortened(value);
    }
    if (input.isEmpty())
        return RunPrinter::tr("Unknown");
    return shortened(QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact)));
}

RunPrinter::RunPrinter(RunFormat format, QIODevice *out, QIODevice *err)
    : m_format(format), m_out(out), m_err(err)
{
}

void RunPrinter::print(const SessionEvent &event)
{
    if (m_format == RunFormat::Json)
        writeOut(QJsonDocument(sessionEventToJson(event)).toJson(QJsonDocument::Compact).append('\n'));
    else
        printDefault(event);
    if (!m_buffered)
        flush();
}

void RunPrinter::printDefault(const SessionEvent &event)
{
    std::visit(Overloaded{
                   [this](const MessageUpdated &e) { onMessage(e.info); },
                   [this](const PartUpdated &e) { onPart(e.part); },
                   [this](const PartDelta &e) { onDelta(e); },
                   [this](const SessionStatusChanged &e) { onStatus(e); },
                   [this](const PermissionAsked &e) { onPermission(e.request); },
                   [this](const SessionError &e) { onError(e); },
                   [](const auto &) {},
               },
               event);
}

void RunPrinter::onMessage(const Message &message)
{
    const AssistantMessage *assistant = message.assistant();
    if (!assistant || assistant->sessionID != m_sessionID)
        return;
    m_assistantMessages.insert(assistant->id);
    if (!m_headerShown) {
        m_headerShown = true;
        writeErrLine(u"> "_s % assistant->agent % u" · "_s % assistant->modelID);
    }
}

void RunPrinter::onPart(const Part &part)
{
    if (part.sessionID != m_sessionID)
        return;
    if (const auto *text = part.as<TextPart>())
        onText(part, *text);
    else if (const auto *tool = part.as<ToolPart>())
        onTool(part, *tool);
}

void RunPrinter::onText(const Part &part, const TextPart &text)
{
    if (!m_assistantMessages.contains(part.messageID) || text.ignored.value_or(false) ||
        m_endedTexts.contains(part.id))
        return;
    QString &printed = m_streaming[part.id];
    // Deltas normally carry the text; a saved part that is longer than what
    // was printed (a provider that does not stream, a missed delta) is
    // printed up to its end. The final text may be shorter than the streamed
    // one (trailing whitespace trimmed), which prints nothing more.
    if (text.text.size() > printed.size() && text.text.startsWith(printed)) {
        const QString rest = text.text.mid(printed.size());
        writeOut(rest);
        printed += rest;
    }
    if (text.time && text.time->end) {
        endAnswerLine();
        m_streaming.remove(part.id);
        m_endedTexts.insert(part.id);
    }
}

void RunPrinter::onDelta(const PartDelta &delta)
{
    if (delta.sessionID != m_sessionID || delta.field != "text"_L1)
        return;
    const auto streaming = m_streaming.find(delta.partID);
    if (streaming == m_streaming.end())
        return; // reasoning, or a part this run does not show
    writeOut(delta.delta);
    streaming->append(delta.delta);
}

void RunPrinter::onTool(const Part &part, const ToolPart &tool)
{
    const QString name = RunToolLine::displayName(tool.tool).leftJustified(7);
    if (const auto *failed = std::get_if<ToolError>(&tool.state)) {
        if (m_reportedTools.contains(part.id))
            return;
        m_reportedTools.insert(part.id);
        writeErrLine(u"✗ "_s % name % u' ' % RunToolLine::summary(tool) % u' ' %
                     tr("(failed: %1)").arg(firstLine(failed->error)));
        return;
    }
    if (std::holds_alternative<ToolCompleted>(tool.state)) {
        if (m_reportedTools.contains(part.id))
            return;
        m_reportedTools.insert(part.id);
        // A task was announced when it started; its end needs no second line.
        if (m_announcedTasks.contains(part.id))
            return;
        writeErrLine(u"| "_s % name % u' ' % RunToolLine::summary(tool));
        return;
    }
    // A subagent can run for minutes: say so when it starts, as OpenCode does.
    if (tool.tool == "task"_L1 && std::holds_alternative<ToolRunning>(tool.state) &&
        !m_announcedTasks.contains(part.id)) {
        m_announcedTasks.insert(part.id);
        writeErrLine(u"| "_s % name % u' ' % RunToolLine::summary(tool));
    }
}

void RunPrinter::onStatus(const SessionStatusChanged &status)
{
    if (status.sessionID != m_sessionID || status.status.type != SessionStatus::Type::Retry ||
        status.status.attempt == m_lastRetryAttempt)
        return;
    m_lastRetryAttempt = status.status.attempt;
    writeErrLine(tr("! Retrying (attempt %1): %2").arg(status.status.attempt).arg(status.status.message));
}

void RunPrinter::onPermission(const PermissionRequest &request)
{
    // Every session of the run is this run's: a subagent's question counts.
    if (m_reportedPermissions.contains(request.id))
        return;
    m_reportedPermissions.insert(request.id);
    const QString what = request.patterns.isEmpty()
                             ? request.permission
                             : request.permission % u" ("_s % request.patterns.join(u", "_s) % u')';
    if (m_autoApprove)
        writeErrLine(tr("! Permission granted: %1").arg(what));
    else
        writeErrLine(tr("! Permission refused: %1. Run with --auto-approve to allow it.").arg(what));
}

void RunPrinter::onError(const SessionError &error)
{
    // The engine reports a refused permission as an error too; the
    // refusal line already said it, in the run's own words.
    const bool refusal = error.error.name == "PermissionRefused"_L1 && !m_reportedPermissions.isEmpty();
    if (!refusal && error.sessionID && *error.sessionID != m_sessionID)
        return;
    const QString text = errorText(error.error);
    m_reportedErrors.append(text);
    if (!refusal)
        writeErrLine(tr("Error: %1").arg(text));
}

void RunPrinter::flush()
{
    flushOut();
    flushErr();
}

void RunPrinter::finish(const PromptOutcome &outcome)
{
    endAnswerLine();
    if (outcome.error) {
        const QString text = errorText(*outcome.error);
        if (!m_reportedErrors.contains(text)) {
            m_reportedErrors.append(text);
            writeErrLine(tr("Error: %1").arg(text));
        }
    } else if (outcome.aborted) {
        writeErrLine(tr("Aborted."));
    }
    flush();
}

void RunPrinter::printError(const QString &message)
{
    endAnswerLine();
    m_reportedErrors.append(message);
    writeErrLine(tr("Error: %1").arg(message));
    flush();
}

void RunPrinter::printNote(const QString &message)
{
    endAnswerLine();
    writeErrLine(tr("Note: %1").arg(message));
    flush();
}

void RunPrinter::writeOut(const QString &text)
{
    if (text.isEmpty())
        return;
    writeOut(text.toUtf8());
    m_answerLineOpen = !text.endsWith(u'\n');
}

void RunPrinter::writeOut(const QByteArray &bytes)
{
    flushErr();
    m_outBuffer.append(bytes);
}

void RunPrinter::writeErrLine(const QString &line)
{
    flushOut();
    m_errBuffer.append((line % u'\n').toUtf8());
}

void RunPrinter::flushOut()
{
    if (m_outBuffer.isEmpty())
        return;
    m_out->write(m_outBuffer);
    m_outBuffer.resize(0); // keeps the capacity for the next burst
}

void RunPrinter::flushErr()
{
    if (m_errBuffer.isEmpty())
        return;
    m_err->write(m_errBuffer);
    m_errBuffer.resize(0);
}

void RunPrinter::endAnswerLine()
{
    if (!m_answerLineOpen)
        return;
    writeOut(QByteArray("\n"));
    m_answerLineOpen = false;
}

} // namespace qcode
