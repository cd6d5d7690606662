#include "TitleGenerator.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLoggingCategory>
#include <QPointer>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {

Q_LOGGING_CATEGORY(lcTitle, "qcode.session.title", QtInfoMsg)

namespace TitleGenerator {

namespace {

const QString NewSessionPrefix = u"New session - "_s;
const QString ChildSessionPrefix = u"Child session - "_s;
// Input to the model, in OpenCode's words; not translated.
const QString RequestText = u"Generate a title for this conversation:\n"_s;

bool isSynthetic(const Part &part)
{
    const auto *text = part.as<TextPart>();
    return text && text->synthetic.value_or(false);
}

// A message the person wrote: a user message with at least one part that
// qcode did not add (a message without parts counts as added, as in
// OpenCode).
bool isWrittenByPerson(const MessageWithParts &message)
{
    return message.info.isUser() && !std::all_of(message.parts.cbegin(), message.parts.cend(), isSynthetic);
}

// Models like to quote their answer; the quotes are not part of the title.
QString unquoted(const QString &line)
{
    static const QList<std::pair<QChar, QChar>> pairs{
        {u'"', u'"'}, {u'\'', u'\''}, {u'`', u'`'}, {QChar(0x201C), QChar(0x201D)}, {QChar(0x00AB), QChar(0x00BB)}};
    if (line.size() < 2)
        return line;
    for (const auto &[open, close] : pairs) {
        if (line.front() == open && line.back() == close)
            return line.sliced(1, line.size() - 2).trimmed();
    }
    return line;
}

// At most MaxLength characters: OpenCode cuts at 97 + "..."; qcode's limit
// is 50 (issue #4), cut after the last whole word that fits (a single word
// longer than half the room is cut inside), never inside a surrogate
// pair, and marked with one "…".
QString shortened(const QString &title)
{
    if (title.size() <= MaxLength)
        return title;
    const qsizetype room = MaxLength - 1;
    QString cut = title.left(room);
    if (cut.back().isHighSurrogate())
        cut.chop(1);
    const bool endsAtWord = title.at(cut.size()).isSpace();
    const qsizetype space = cut.lastIndexOf(u' ');
    if (!endsAtWord && space > room / 2)
        cut.truncate(space);
    static const QString trailing = u" ,;:-\u2013\u2014"_s;
    while (!cut.isEmpty() && trailing.contains(cut.back()))
        cut.chop(1);
    return cut + QChar(0x2026);
}

} // namespace

bool isDefaultTitle(const QString &title)
{
    // JavaScript's \d is ASCII only; so is this.
    static const QRegularExpression pattern(
        u"^(New session - |Child session - )[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"_s);
    return pattern.match(title).hasMatch();
}

QString defaultTitle(qint64 createdMs, bool child)
{
    const QString time = QDateTime::fromMSecsSinceEpoch(createdMs, Qt::UTC).toString(Qt::ISODateWithMs);
    return (child ? ChildSessionPrefix : NewSessionPrefix) + time;
}

bool needsTitle(const Session &session, const QList<MessageWithParts> &messages)
{
    if (session.isChild() || !isDefaultTitle(session.title))
        return false;
    return std::count_if(messages.cbegin(), messages.cend(), isWrittenByPerson) == 1;
}

QList<ModelMessage> request(const QList<MessageWithParts> &messages, const ModelTarget &target)
{
    const auto first = std::find_if(messages.cbegin(), messages.cend(), isWrittenByPerson);
    if (first == messages.cend())
        return {};
    QList<ModelMessage> out{ModelMessage{ModelRole::User, {TextContent{RequestText, {}}}, {}}};

    // A command run as a subtask would read as "The following tool was
    // executed by the user"; its prompt says what the session is about.
    const bool onlySubtasks =
        !first->parts.isEmpty() && std::all_of(first->parts.cbegin(), first->parts.cend(),
                                               [](const Part &part) { return part.as<SubtaskPart>() != nullptr; });
    if (onlySubtasks) {
        QStringList prompts;
        for (const Part &part : first->parts)
            prompts.append(part.as<SubtaskPart>()->prompt);
        out.append(ModelMessage{ModelRole::User, {TextContent{prompts.join(u'\n'), {}}}, {}});
        return out;
    }
    // Unlike OpenCode, without images and PDFs: a title needs none, and
    // the small models titles go to often read none.
    const QList<MessageWithParts> context = messages.first(std::distance(messages.cbegin(), first) + 1);
    out.append(toModelMessages(context, target, ModelMessageOptions{true}));
    return out;
}

QString clean(const QString &modelOutput)
{
    static const QRegularExpression thinking(u"<think>[\\s\\S]*?</think>\\s*"_s);
    QString text = modelOutput;
    text.remove(thinking);
    // A block that never closed is thinking cut short, not a title.
    if (const qsizetype open = text.indexOf("<think>"_L1); open >= 0)
        text.truncate(open);
    for (const QString &line : text.split(u'\n')) {
        const QString title = unquoted(line.trimmed()).simplified();
        if (!title.isEmpty())
            return shortened(title);
    }
    return {};
}

QCoro::Task<Result<QString>> generate(Store &store, SessionEventSink &sink, QString sessionID, StartCall startCall,
                                      ModelTarget target, QPointer<AbortSignal> stop)
{
    const auto stopped = [] {
        return Error{QCoreApplication::translate("qcode::TitleGenerator", "The title was not generated: stopped.")};
    };
    if (stop && stop->isAborted())
        co_return stopped();
    const Result<std::optional<Session>> before = store.session(sessionID);
    if (!before)
        co_return before.error();
    if (!*before)
        co_return Error{
            QCoreApplication::translate("qcode::TitleGenerator", "There is no session %1 to name.").arg(sessionID)};
    const Result<QList<MessageWithParts>> messages = store.messages(sessionID);
    if (!messages)
        co_return messages.error();
    if (!needsTitle(**before, *messages))
        co_return (*before)->title;

    // Owns the call: leaving this frame, however, ends the request.
    QObject owner;
    const Result<ProviderCall *> started = startCall(&owner, request(*messages, target));
    if (!started)
        co_return started.error();
    QPointer<ProviderCall> call = *started;
    if (stop)
        QObject::connect(stop.data(), &AbortSignal::aborted, call.data(), &ProviderCall::abort);
    QString answer;
    while (call) {
        const std::optional<ProviderEvent> event = co_await call->nextEvent();
        if (!event)
            break;
        if (const auto *delta = std::get_if<TextDeltaEvent>(&*event))
            answer += delta->text;
        else if (const auto *failure = std::get_if<ErrorEvent>(&*event)) {
            if (stop && stop->isAborted())
                co_return stopped();
            qCInfo(lcTitle) << "no title for session" << sessionID << ":" << failure->error.sentence();
            co_return Error{failure->error.sentence()};
        }
    }

    const QString title = clean(answer);
    if (title.isEmpty())
        co_return Error{QCoreApplication::translate("qcode::TitleGenerator", "The model answered without a title.")};
    co_return apply(store, sink, sessionID, title);
}

Result<QString> apply(Store &store, SessionEventSink &sink, const QString &sessionID, const QString &title)
{
    // The person may have renamed the session while the model answered;
    // their title wins.
    const Result<std::optional<Session>> current = store.session(sessionID);
    if (!current)
        return current.error();
    if (!*current)
        return Error{QCoreApplication::translate("qcode::TitleGenerator",
                                                 "The session %1 was deleted before it got a title.")
                         .arg(sessionID)};
    Session session = **current;
    if (!isDefaultTitle(session.title))
        return session.title;
    // OpenCode sets the title without touching time.updated.
    session.title = title;
    if (Result<void> saved = store.upsertSession(session); !saved)
        return saved.error();
    sink.publish(SessionUpdated{session});
    return title;
}

QString fromPrompt(const QList<MessageWithParts> &messages)
{
    const auto first = std::find_if(messages.cbegin(), messages.cend(), isWrittenByPerson);
    if (first == messages.cend())
        return {};
    for (const Part &part : first->parts) {
        const TextPart *text = part.as<TextPart>();
        if (!text || text->synthetic.value_or(false))
            continue;
        const QStringList words = text->text.simplified().split(u' ', Qt::SkipEmptyParts);
        if (words.isEmpty())
            continue;
        QString title = words.first(std::min<qsizetype>(words.size(), FirstWords)).join(u' ');
        if (words.size() > FirstWords && title.size() < MaxLength)
            title += QChar(0x2026);
        return shortened(title);
    }
    return {};
}

} // namespace TitleGenerator

} // namespace qcode
