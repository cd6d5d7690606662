#include "SessionCompaction.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QDateTime>
#include <QLoggingCategory>

#include <algorithm>
#include <memory>

#include "engine/session/loop/MessageErrors.h"
#include "engine/agent/PromptLibrary.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode {

Q_LOGGING_CATEGORY(lcCompaction, "qcode.session.compaction", QtInfoMsg)

namespace SessionCompaction {

const QString ContinueText =
    u"Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed."_s;
const QString MediaOverflowText =
    u"The previous request exceeded the provider's size limit due to large media attachments. The conversation "
    "was compacted and media files were removed from context. If the user was asking about attached images or "
    "files, explain that the attachments were too large to process and suggest they try again with smaller or "
    "fewer files."_s;

namespace {

qint64 orNow(qint64 now)
{
    return now > 0 ? now : QDateTime::currentMSecsSinceEpoch();
}

} // namespace

Result<MessageWithParts> create(Store &store, SessionEventSink &sink, const Request &request)
{
    const Result<std::optional<Session>> session = store.session(request.sessionID);
    if (!session)
        return session.error();
    if (!*session)
        return Error{QCoreApplication::translate("qcode::SessionCompaction", "There is no session %1 to compact.")
                         .arg(request.sessionID)};

    const qint64 now = orNow(request.now);
    UserMessage user;
    user.id = Identifier::ascending(Identifier::Prefix::Message);
    user.sessionID = request.sessionID;
    user.created = now;
    user.agent = request.agent;
    user.model = request.model;
    const Part part{Identifier::ascending(Identifier::Prefix::Part), user.sessionID, user.id,
                    CompactionPart{request.autoCompact, request.overflow}, {}};
    const MessageWithParts written{Message(user), {part}};

    const Result<void> saved = store.transaction([&]() -> Result<void> {
        if (Result<void> message = store.updateMessage(written.info); !message)
            return message;
        return store.updatePart(part);
    });
    if (!saved)
        return saved.error();
    sink.publish(MessageUpdated{written.info});
    sink.publish(PartUpdated{part});
    return written;
}

Result<QList<Part>> prune(Store &store, SessionEventSink &sink, const QString &sessionID, qint64 now)
{
    // The whole session, not the history since the last summary: the walk
    // stops at the summary itself.
    const Result<QList<MessageWithParts>> messages = store.messages(sessionID);
    if (!messages)
        return messages.error();
    QList<Part> parts = CompactionRules::partsToPrune(*messages);
    const qint64 at = orNow(now);
    for (Part &part : parts)
        std::get<ToolCompleted>(part.as<ToolPart>()->state).compacted = at;

    const Result<void> saved = store.transaction([&]() -> Result<void> {
        for (const Part &part : parts) {
            if (Result<void> written = store.updatePart(part); !written)
                return written;
        }
        return {};
    });
    if (!saved)
        return saved.error();
    for (const Part &part : parts)
        sink.publish(PartUpdated{part});
    if (!parts.isEmpty())
        qCInfo(lcCompaction) << "pruned" << parts.size() << "tool outputs of session" << sessionID;
    return parts;
}

} // namespace SessionCompaction

namespace {

bool isMediaMime(const QString &mime)
{
    return mime.startsWith("image/"_L1) || mime == "application/pdf"_L1;
}

bool hasCompactionPart(const MessageWithParts &message)
{
    return std::any_of(message.parts.cbegin(), message.parts.cend(),
                       [](const Part &part) { return part.as<CompactionPart>() != nullptr; });
}

bool isUserTurn(const MessageWithParts &message)
{
    return message.info.isUser() && !hasCompactionPart(message);
}

// The summary is written without tools (OpenCode passes none); a call the
// model makes anyway is refused, and the model reads why.
class NoTools final : public ToolRunner
{
public:
    QCoro::Task<ToolResult> run(ToolCall call, ToolContext) override
    {
        co_return ToolFailure{u"No tools are available while writing a summary; %1 was not run."_s.arg(call.tool),
                              ToolFailure::Kind::Failed};
    }
    QList<ToolDefinition> definitions(const ToolScope &) const override { return {}; }
};

// A part of the replayed turn under its new message; the media the
// provider refused becomes a note of what was attached.
Part replayedPart(const Part &original, const QString &messageID)
{
    Part copy = original;
    copy.id = Identifier::ascending(Identifier::Prefix::Part);
    copy.messageID = messageID;
    if (const auto *file = original.as<FilePart>(); file && isMediaMime(file->mime)) {
        TextPart note;
        note.text = u"[Attached %1: %2]"_s.arg(file->mime, file->filename.value_or(u"file"_s));
        copy.body = note;
        copy.extra = {};
    }
    return copy;
}

} // namespace

CompactionRun::CompactionRun(QObject *parent) : QObject(parent) {}

CompactionRun::~CompactionRun() = default;

qint64 CompactionRun::now(const Input &input) const
{
    return input.setup.clock ? input.setup.clock().toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
}

CompactionRun::Plan CompactionRun::plan(const Input &input)
{
    const Plan everything{input.messages, std::nullopt};
    if (!input.overflow)
        return everything;
    // The turn the provider refused is sent again after the summary, so
    // only what came before it is summarised — unless nothing the person
    // said would be left to summarise.
    qsizetype request = input.messages.size();
    for (qsizetype i = 0; i < input.messages.size(); ++i) {
        if (input.messages.at(i).info.id() == input.parentID)
            request = i;
    }
    for (qsizetype i = request - 1; i >= 0; --i) {
        if (!isUserTurn(input.messages.at(i)))
            continue;
        Plan replaying{input.messages.first(i), input.messages.at(i)};
        if (std::any_of(replaying.toSummarise.cbegin(), replaying.toSummarise.cend(), isUserTurn))
            return replaying;
        return everything;
    }
    return everything;
}

Result<void> CompactionRun::saveMessage(Store &store, SessionEventSink &sink, const Message &message)
{
    if (Result<void> saved = store.updateMessage(message); !saved)
        return saved;
    sink.publish(MessageUpdated{message});
    return {};
}

CompactionRun::Outcome CompactionRun::stop(const Input &input, const NamedError &error)
{
    qCWarning(lcCompaction) << "compaction of session" << input.sessionID << "stopped:" << error.message();
    m_error = error;
    if (input.setup.sink)
        input.setup.sink->publish(SessionError{input.sessionID, error});
    return Outcome::Stop;
}

Result<AssistantMessage> CompactionRun::startSummary(const Input &input, const UserMessage &request)
{
    AssistantMessage summary;
    summary.id = Identifier::ascending(Identifier::Prefix::Message);
    summary.sessionID = input.sessionID;
    summary.created = now(input);
    summary.parentID = input.parentID;
    const ModelRef model = input.model.modelID.isEmpty() ? request.model : input.model;
    summary.providerID = model.providerID;
    summary.modelID = model.modelID;
    summary.mode = u"compaction"_s;
    summary.agent = u"compaction"_s;
    summary.cwd = input.directory;
    summary.root = input.worktree;
    summary.summary = true;
    if (!input.variant.isEmpty())
        summary.variant = input.variant;
    else
        summary.variant = request.variant;
    if (Result<void> saved = saveMessage(*input.setup.store, *input.setup.sink, Message(summary)); !saved)
        return saved.error();
    return summary;
}

Result<void> CompactionRun::writeFollowUp(const Input &input, const UserMessage &request, const Plan &plan)
{
    UserMessage user;
    user.id = Identifier::ascending(Identifier::Prefix::Message);
    user.sessionID = input.sessionID;
    user.created = now(input);
    QList<Part> parts;
    if (plan.replay) {
        const UserMessage &original = *plan.replay->info.user();
        user.agent = original.agent;
        user.model = original.model;
        user.format = original.format;
        user.tools = original.tools;
        user.system = original.system;
        user.variant = original.variant;
        for (const Part &part : plan.replay->parts) {
            if (!part.as<CompactionPart>())
                parts.append(replayedPart(part, user.id));
        }
    } else {
        user.agent = request.agent;
        user.model = request.model;
        TextPart text;
        text.text = input.overflow ? SessionCompaction::MediaOverflowText + "\n\n"_L1 + SessionCompaction::ContinueText
                                   : SessionCompaction::ContinueText;
        text.synthetic = true;
        text.time = PartTime{user.created, user.created};
        parts.append(Part{Identifier::ascending(Identifier::Prefix::Part), user.sessionID, user.id, text, {}});
    }

    Store &store = *input.setup.store;
    const Message message(user);
    const Result<void> saved = store.transaction([&]() -> Result<void> {
        if (Result<void> written = store.updateMessage(message); !written)
            return written;
        for (const Part &part : parts) {
            if (Result<void> written = store.updatePart(part); !written)
                return written;
        }
        return {};
    });
    if (!saved)
        return saved;
    input.setup.sink->publish(MessageUpdated{message});
    for (const Part &part : parts)
        input.setup.sink->publish(PartUpdated{part});
    return {};
}

QCoro::Task<CompactionRun::Outcome> CompactionRun::process(Input input)
{
    QPointer<CompactionRun> self(this);
    m_summary.reset();
    m_error.reset();
    NoTools noTools; // declared before the processor, so it outlives it
    SessionProcessor::Setup setup = input.setup;
    setup.tools = &noTools;
    if (!setup.store || !setup.sink || !setup.permissions || !input.summaryCall) {
        qCCritical(lcCompaction) << "compaction run without a store, sink, permissions or summary call";
        co_return stop(input, MessageErrors::unknown(tr("Compaction is not set up.")));
    }

    std::optional<UserMessage> request;
    for (const MessageWithParts &message : input.messages) {
        if (message.info.id() == input.parentID && message.info.user())
            request = *message.info.user();
    }
    if (!request) {
        co_return stop(input, MessageErrors::unknown(tr("The compaction request %1 is not a user message of "
                                                        "session %2.")
                                                      .arg(input.parentID, input.sessionID)));
    }

    // Stopped before it began: no summary message that would only say so.
    if (input.abort && input.abort->isAborted())
        co_return Outcome::Stop;

    const Plan plan = CompactionRun::plan(input);
    Result<AssistantMessage> started = startSummary(input, *request);
    if (!started)
        co_return stop(input, MessageErrors::unknown(started.errorMessage()));
    m_summary = *started;

    QList<ModelMessage> messages = toModelMessages(plan.toSummarise, input.target, ModelMessageOptions{true});
    messages.append(ModelMessage{
        ModelRole::User, {TextContent{PromptLibrary::text(PromptText::CompactionRequest), {}}}, {}});
    const SessionProcessor::CallFactory makeCall = input.summaryCall(messages);

    // The processor lives in this frame: it outlives process() as its
    // contract asks, even if the run itself is destroyed meanwhile.
    auto processor = std::make_unique<SessionProcessor>(setup, *m_summary, input.abort);
    QCoro::Task<SessionProcessor::Outcome> summarising = processor->process(makeCall);
    const SessionProcessor::Outcome outcome = co_await summarising;
    if (!self)
        co_return Outcome::Stop;
    m_summary = processor->message();

    if (outcome == SessionProcessor::Outcome::Compact) {
        // The summary request itself was too large for the model.
        const QString message =
            plan.replay ? tr("Conversation history too large to compact - exceeds model context limit")
                        : tr("Session too large to compact - context exceeds model limit even after "
                             "stripping media");
        m_summary->error = NamedError{u"ContextOverflowError"_s, QJsonObject{{"message"_L1, message}}};
        m_summary->finish = u"error"_s;
        if (Result<void> saved = saveMessage(*setup.store, *setup.sink, Message(*m_summary)); !saved)
            qCWarning(lcCompaction) << "saving summary" << m_summary->id << "failed:" << saved.errorMessage();
        co_return stop(input, *m_summary->error);
    }

    if (outcome == SessionProcessor::Outcome::Continue && input.autoCompact) {
        if (Result<void> written = writeFollowUp(input, *request, plan); !written)
            co_return stop(input, MessageErrors::unknown(written.errorMessage()));
    }
    if (m_summary->error || outcome != SessionProcessor::Outcome::Continue) {
        m_error = m_summary->error;
        co_return Outcome::Stop;
    }
    setup.sink->publish(SessionCompacted{input.sessionID});
    co_return Outcome::Continue;
}

} // namespace qcode
