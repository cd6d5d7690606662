#include "SessionProcessor.h"

#include <QJsonDocument>
#include <QScopeGuard>
#include <QTimer>

#include <QCoro/QCoroSignal>
#include <QCoro/QCoroTimer>

#include "MessageErrors.h"
#include "engine/session/NextEmission.h"
#include "engine/session/asks/PermissionTexts.h"
#include "engine/session/SessionLogging.h"
#include "engine/catalogue/StepUsage.h"
#include "engine/snapshot/SnapshotStore.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// What the model reads when a call did not run. These stay English and
// match OpenCode's words: they are input to the model, not text for the
// person, and the model was trained on them.
const QString ToolAbortedText = u"Tool execution aborted"_s;
const QString InvalidArgumentsText =
    u"The arguments provided to the tool are invalid: %1 is not a complete JSON object. "
    "Call the tool again with valid JSON arguments."_s;

QString trimEnd(QString text)
{
    qsizetype end = text.size();
    while (end > 0 && text.at(end - 1).isSpace())
        --end;
    text.truncate(end);
    return text;
}

QByteArray canonical(const QJsonObject &input)
{
    return QJsonDocument(input).toJson(QJsonDocument::Compact);
}

} // namespace

SessionProcessor::SessionProcessor(Setup setup, AssistantMessage assistant, QPointer<AbortSignal> abort,
                                   QObject *parent)
    : QObject(parent)
    , m_setup(std::move(setup))
    , m_message(std::move(assistant))
    , m_abort(std::move(abort))
    , m_hasAbort(!m_abort.isNull())
    , m_writer(*m_setup.store, *m_setup.sink, m_setup.flushInterval)
{
    Q_ASSERT(m_setup.store && m_setup.sink && m_setup.tools && m_setup.permissions);
    if (!m_setup.clock)
        m_setup.clock = [] { return QDateTime::currentDateTimeUtc(); };
}

SessionProcessor::~SessionProcessor() = default;

qint64 SessionProcessor::now() const
{
    return m_setup.clock().toMSecsSinceEpoch();
}

bool SessionProcessor::aborted() const
{
    // A destroyed signal means its prompt is gone: stop as well.
    return m_hasAbort && (m_abort.isNull() || m_abort->isAborted());
}

Part SessionProcessor::newPart(PartBody body) const
{
    return Part{Identifier::ascending(Identifier::Prefix::Part), m_message.sessionID, m_message.id, std::move(body), {}};
}

void SessionProcessor::publishStatus(const SessionStatus &status)
{
    m_setup.sink->publish(SessionStatusChanged{m_message.sessionID, status});
}

Result<void> SessionProcessor::saveMessage()
{
    const Message message(m_message);
    if (auto saved = m_setup.store->updateMessage(message); !saved)
        return saved;
    m_setup.sink->publish(MessageUpdated{message});
    return {};
}

void SessionProcessor::fail(const NamedError &error)
{
    qCInfo(lcProcessor) << "message" << m_message.id << "ends with" << error.name << error.message();
    m_message.error = error;
    m_setup.sink->publish(SessionError{m_message.sessionID, error});
    publishStatus(SessionStatus::idle());
}

QCoro::Task<SessionProcessor::Outcome> SessionProcessor::process(CallFactory makeCall)
{
    QPointer<SessionProcessor> self(this);
    m_needsCompaction = false;
    // What the message held before this call; a retried attempt keeps only
    // that (and the patches) of what the cut one wrote.
    const Result<QList<Part>> before = m_setup.store->parts(m_message.id);
    if (!before)
        qCWarning(lcProcessor) << "a retry of message" << m_message.id
                               << "would keep the cut attempt's parts:" << before.errorMessage();
    QSet<QString> kept;
    for (const Part &part : before ? *before : QList<Part>())
        kept.insert(part.id);
    while (true) {
        // Each awaited task is named before it is awaited: GCC 12 destroys
        // temporaries of a co_await expression twice.
        QCoro::Task<std::optional<StreamFailure>> streaming = consume(makeCall);
        std::optional<StreamFailure> failure = co_await streaming;
        if (!self)
            co_return Outcome::Stop;
        // However the stream ended, the tools it started end first (an
        // abort has told them to stop): their results belong to this step.
        QCoro::Task<> settling = settleTools();
        co_await settling;
        if (!self || self->orphaned())
            co_return Outcome::Stop;
        if (m_toolError)
            failure = StreamFailure{*std::exchange(m_toolError, std::nullopt)};
        if (!failure)
            break;
        if (aborted()) {
            fail(MessageErrors::aborted());
            break;
        }
        if (const auto *error = std::get_if<Error>(&*failure)) {
            fail(MessageErrors::unknown(error->message));
            break;
        }
        const ProviderError &providerError = std::get<ProviderError>(*failure);
        // Compaction's job; the message itself did nothing wrong (OpenCode
        // 1.2.27). With compaction.auto = false nothing is summarised: the
        // overflow ends the message like any other error. A summary that
        // overflows is always compaction's to report.
        if (providerError.isContextOverflow() && (m_setup.compaction.autoCompact || m_message.isSummary())) {
            m_needsCompaction = true;
            m_setup.sink->publish(SessionError{m_message.sessionID, MessageErrors::fromProviderError(providerError)});
            break;
        }
        const std::optional<QString> reason = RetryPolicy::retryReason(providerError);
        if (!reason) {
            fail(MessageErrors::fromProviderError(providerError));
            break;
        }
        // The person rejected a call of this step: the turn stops here, and
        // a new attempt could run nothing anyway.
        if (m_blocked)
            break;
        ++m_attempt;
        if (!m_setup.retry.allowsAttempt(m_attempt)) {
            fail(MessageErrors::retriesExhausted(m_attempt, providerError));
            break;
        }
        const QDateTime at = m_setup.clock();
        const qint64 delay = RetryPolicy::delayMs(m_attempt, providerError, at);
        qCInfo(lcProcessor) << "retry" << m_attempt << "of message" << m_message.id << "in" << delay << "ms:" << *reason;
        // What the cut call said stays on screen while the retry waits (and
        // stays if the person stops it then); the next call replaces it.
        closeOpenParts();
        publishStatus(SessionStatus::retry(m_attempt, *reason, at.toMSecsSinceEpoch() + delay));
        QCoro::Task<> waiting = waitBeforeRetry(std::chrono::milliseconds(delay));
        co_await waiting;
        if (!self || self->orphaned())
            co_return Outcome::Stop;
        if (aborted()) {
            fail(MessageErrors::aborted());
            break;
        }
        // One answer per step: the model and the window see the retried
        // attempt only (OpenCode keeps the same message for the retry).
        if (before)
            discardAttempt(kept);
    }
    QCoro::Task<> cleaning = cleanup();
    co_await cleaning;
    if (!self || self->orphaned())
        co_return Outcome::Stop;
    if (m_needsCompaction)
        co_return Outcome::Compact;
    if (m_blocked || m_message.error)
        co_return Outcome::Stop;
    co_return Outcome::Continue;
}

QCoro::Task<std::optional<SessionProcessor::StreamFailure>> SessionProcessor::consume(CallFactory makeCall)
{
    QPointer<SessionProcessor> self(this);
    if (aborted())
        co_return StreamFailure{ProviderError::aborted()};
    Result<ProviderCall *> started = makeCall(this);
    if (!started)
        co_return StreamFailure{started.error()};
    QPointer<ProviderCall> call = *started;
    // Leaving early (compaction, a failed write) abandons the call; its
    // destruction aborts the request.
    const auto release = qScopeGuard([call] {
        if (call)
            call->deleteLater();
    });
    if (m_abort)
        connect(m_abort.data(), &AbortSignal::aborted, call.data(), &ProviderCall::abort);

    while (call) {
        const std::optional<ProviderEvent> event = co_await call->nextEvent();
        if (!self || self->orphaned() || !event)
            co_return std::nullopt;
        if (aborted())
            co_return StreamFailure{ProviderError::aborted()};
        if (const auto *error = std::get_if<ErrorEvent>(&*event))
            co_return StreamFailure{error->error};
        if (const auto *toolCall = std::get_if<ToolCallEvent>(&*event)) {
            startTool(*toolCall);
            if (!self || self->orphaned())
                co_return std::nullopt;
            if (aborted())
                co_return StreamFailure{ProviderError::aborted()};
        } else if (std::holds_alternative<StartStepEvent>(*event)) {
            QCoro::Task<Result<void>> starting = onStartStep();
            const Result<void> handled = co_await starting;
            if (!self || self->orphaned())
                co_return std::nullopt;
            if (!handled)
                co_return StreamFailure{handled.error()};
        } else if (const auto *finish = std::get_if<FinishStepEvent>(&*event)) {
            // The step's results and file changes come before its end.
            QCoro::Task<> settling = settleTools();
            co_await settling;
            if (!self || self->orphaned())
                co_return std::nullopt;
            if (aborted())
                co_return StreamFailure{ProviderError::aborted()};
            if (m_toolError)
                co_return StreamFailure{*m_toolError};
            QCoro::Task<Result<void>> finishing = onFinishStep(*finish);
            const Result<void> handled = co_await finishing;
            if (!self || self->orphaned())
                co_return std::nullopt;
            if (!handled)
                co_return StreamFailure{handled.error()};
        } else if (Result<void> handled = handle(*event); !handled) {
            co_return StreamFailure{handled.error()};
        }
        if (m_toolError)
            co_return StreamFailure{*m_toolError};
        if (m_needsCompaction)
            co_return std::nullopt;
    }
    co_return std::nullopt;
}

Result<void> SessionProcessor::handle(const ProviderEvent &event)
{
    if (std::holds_alternative<StartEvent>(event)) {
        publishStatus(SessionStatus::busy());
        return {};
    }
    if (const auto *e = std::get_if<ReasoningStartEvent>(&event))
        return onReasoningStart(*e);
    if (const auto *e = std::get_if<ReasoningDeltaEvent>(&event)) {
        const QString partID = m_reasoning.value(e->id);
        return partID.isEmpty() ? Result<void>() : m_writer.append(partID, e->text);
    }
    if (const auto *e = std::get_if<ReasoningEndEvent>(&event))
        return onReasoningEnd(*e);
    if (const auto *e = std::get_if<TextStartEvent>(&event))
        return onTextStart(*e);
    if (const auto *e = std::get_if<TextDeltaEvent>(&event)) {
        const QString partID = m_text.value(e->id);
        return partID.isEmpty() ? Result<void>() : m_writer.append(partID, e->text);
    }
    if (const auto *e = std::get_if<TextEndEvent>(&event))
        return onTextEnd(*e);
    if (const auto *e = std::get_if<ToolInputStartEvent>(&event))
        return onToolInputStart(*e);
    // start-step and finish-step wait for snapshots: consume() awaits them.
    // tool-input-delta/end: the arguments arrive whole with tool-call.
    // finish: the step's finish-step said everything.
    return {};
}

Result<void> SessionProcessor::onReasoningStart(const ReasoningStartEvent &event)
{
    if (m_reasoning.contains(event.id))
        return {};
    ReasoningPart body{QString(), std::nullopt, PartTime{now(), std::nullopt}};
    if (!event.providerMetadata.isEmpty())
        body.metadata = event.providerMetadata;
    const Part part = newPart(body);
    m_reasoning.insert(event.id, part.id);
    return m_writer.open(part);
}

Result<void> SessionProcessor::onReasoningEnd(const ReasoningEndEvent &event)
{
    const QString partID = m_reasoning.take(event.id);
    std::optional<Part> part = m_writer.openPart(partID);
    if (!part)
        return {};
    auto *reasoning = part->as<ReasoningPart>();
    reasoning->text = trimEnd(reasoning->text);
    reasoning->time.end = now();
    if (!event.providerMetadata.isEmpty())
        reasoning->metadata = event.providerMetadata;
    return m_writer.close(*part);
}

Result<void> SessionProcessor::onTextStart(const TextStartEvent &event)
{
    TextPart body;
    body.time = PartTime{now(), std::nullopt};
    if (!event.providerMetadata.isEmpty())
        body.metadata = event.providerMetadata;
    const Part part = newPart(body);
    m_text.insert(event.id, part.id);
    return m_writer.open(part);
}

Result<void> SessionProcessor::onTextEnd(const TextEndEvent &event)
{
    const QString partID = m_text.take(event.id);
    std::optional<Part> part = m_writer.openPart(partID);
    if (!part)
        return {};
    auto *text = part->as<TextPart>();
    text->text = trimEnd(text->text);
    // OpenCode overwrites the start time here as well; qcode keeps when
    // the text began.
    text->time = PartTime{text->time ? text->time->start : now(), now()};
    if (!event.providerMetadata.isEmpty())
        text->metadata = event.providerMetadata;
    return m_writer.close(*part);
}

Result<void> SessionProcessor::onToolInputStart(const ToolInputStartEvent &event)
{
    Part part = newPart(ToolPart{event.id, event.toolName, ToolPending{}, std::nullopt, {}});
    if (const auto known = m_toolCalls.constFind(event.id); known != m_toolCalls.cend())
        part.id = known->id;
    if (auto written = m_writer.write(part); !written)
        return written;
    m_toolCalls.insert(event.id, part);
    return {};
}

void SessionProcessor::startTool(ToolCallEvent event)
{
    ++m_runningTools;
    // The task runs at once up to its first wait (the part is saved as
    // running, the doom-loop check is made, the tool starts); the stream
    // is read on meanwhile.
    QCoro::connect(runTool(std::move(event)), this, [this](const Result<void> &recorded) {
        --m_runningTools;
        if (!recorded && !m_toolError)
            m_toolError = recorded.error();
        if (m_runningTools == 0)
            Q_EMIT toolsSettled();
    });
}

QCoro::Task<> SessionProcessor::settleTools()
{
    // No call starts while the stream reader waits here, so the count
    // cannot rise again before the resume.
    if (m_runningTools > 0) {
        NextEmission settled(this, &SessionProcessor::toolsSettled);
        co_await settled;
    }
}

QCoro::Task<Result<void>> SessionProcessor::runTool(ToolCallEvent event)
{
    QPointer<SessionProcessor> self(this);
    const QString callID = event.toolCallId;
    // A provider that sends the call whole, without tool-input-start, still
    // gets a part.
    Part part = m_toolCalls.contains(callID)
                    ? m_toolCalls.value(callID)
                    : newPart(ToolPart{callID, event.toolName, ToolPending{}, std::nullopt, {}});
    ToolPart *tool = part.as<ToolPart>();
    if (auto started = tool->start(event.parsedInput.value_or(QJsonObject()), now()); !started) {
        qCWarning(lcProcessor) << "ignoring a repeated tool-call for" << callID << started.errorMessage();
        co_return Result<void>();
    }
    if (!event.providerMetadata.isEmpty())
        tool->metadata = event.providerMetadata;
    if (auto written = m_writer.write(part); !written)
        co_return written;
    m_toolCalls.insert(callID, part);

    if (!event.parsedInput)
        co_return finishTool(callID, ToolFailure{InvalidArgumentsText.arg(event.input), ToolFailure::Kind::Failed});
    // After a rejection in this step nothing more runs; cleanup marks the
    // rest as aborted.
    if (m_blocked)
        co_return Result<void>();

    QCoro::Task<std::optional<PermissionAnswer>> checking = checkDoomLoop(*tool);
    const std::optional<PermissionAnswer> doomLoop = co_await checking;
    // A question cut short by the abort is not the person's answer; cleanup
    // marks the call aborted.
    if (!self || self->orphaned() || aborted())
        co_return Result<void>();
    if (doomLoop && !doomLoop->allows()) {
        if (doomLoop->reply == PermissionReply::RejectWithMessage)
            co_return finishTool(callID, ToolFailure{PermissionTexts::corrected(doomLoop->message),
                                                     ToolFailure::Kind::PermissionRejectedWithMessage});
        // A deny rule is not the person saying no, and the model is told
        // so; either way the loop stops, as OpenCode's thrown error does.
        const QString refusal = doomLoop->byRule ? PermissionTexts::denied(u"doom_loop"_s, {event.toolName})
                                                 : PermissionTexts::rejected();
        co_return finishTool(callID, ToolFailure{refusal, ToolFailure::Kind::PermissionRejected});
    }
    const ToolCall call{event.toolName, callID, *event.parsedInput};
    ToolContext context;
    context.sessionID = m_message.sessionID;
    context.messageID = m_message.id;
    context.agent = m_message.agent;
    context.abort = m_abort;
    context.callID = event.toolCallId;
    context.model = ModelRef{m_message.providerID, m_message.modelID};
    context.progress = [self, callID](const QString &title, const QJsonObject &metadata) {
        if (self)
            self->onToolProgress(callID, title, metadata);
    };
    QCoro::Task<ToolResult> running = m_setup.tools->run(call, context);
    const ToolResult result = co_await running;
    if (!self || self->orphaned())
        co_return Result<void>();
    // A tool that gave up because of the abort reports whatever it met on
    // the way out; the part says what really happened.
    if (aborted() && std::holds_alternative<ToolFailure>(result))
        co_return Result<void>();
    co_return finishTool(callID, result);
}

QCoro::Task<std::optional<PermissionAnswer>> SessionProcessor::checkDoomLoop(ToolPart current)
{
    // The current call's part is already saved as running, so three
    // identical calls in a row means the last three parts.
    const Result<QList<Part>> parts = m_setup.store->parts(m_message.id);
    if (!parts) {
        qCWarning(lcProcessor) << "doom-loop check skipped:" << parts.errorMessage();
        co_return std::nullopt;
    }
    if (parts->size() < DoomLoopThreshold)
        co_return std::nullopt;
    const QByteArray input = canonical(current.input());
    for (qsizetype i = parts->size() - DoomLoopThreshold; i < parts->size(); ++i) {
        const ToolPart *tool = parts->at(i).as<ToolPart>();
        if (!tool || tool->tool != current.tool || std::holds_alternative<ToolPending>(tool->state)
            || canonical(tool->input()) != input)
            co_return std::nullopt;
    }
    qCInfo(lcProcessor) << "doom loop:" << DoomLoopThreshold << "identical" << current.tool << "calls in message"
                        << m_message.id;
    PermissionRequest request;
    request.sessionID = m_message.sessionID;
    request.permission = u"doom_loop"_s;
    request.patterns = {current.tool};
    request.always = {current.tool};
    request.metadata = QJsonObject{{"tool"_L1, current.tool}, {"input"_L1, current.input()}};
    request.tool = PermissionToolRef{m_message.id, current.callID};
    // The agent's rules alone decide (reference §9): a session's own
    // allow rules do not silence the doom-loop check.
    PermissionAsker *asker = m_setup.doomLoopPermissions ? m_setup.doomLoopPermissions : m_setup.permissions;
    QCoro::Task<PermissionAnswer> asking = asker->ask(request, m_abort);
    const PermissionAnswer answer = co_await asking;
    co_return answer;
}

void SessionProcessor::onToolProgress(const QString &callID, const QString &title, const QJsonObject &metadata)
{
    const auto it = m_toolCalls.find(callID);
    if (it == m_toolCalls.end())
        return; // finished meanwhile: the final state wins
    ToolPart *tool = it->as<ToolPart>();
    if (Result<void> updated = tool->updateRunning(title.isEmpty() ? std::nullopt : std::optional(title), metadata);
        !updated) {
        qCWarning(lcProcessor) << "tool progress for" << callID << updated.errorMessage();
        return;
    }
    if (Result<void> written = m_writer.write(*it); !written)
        qCWarning(lcProcessor) << "tool progress for" << callID << written.errorMessage();
}

Result<void> SessionProcessor::finishTool(const QString &callID, const ToolResult &result)
{
    const auto it = m_toolCalls.find(callID);
    if (it == m_toolCalls.end())
        return {};
    Part part = *it;
    m_toolCalls.erase(it);
    ToolPart *tool = part.as<ToolPart>();
    Result<void> moved;
    if (const auto *output = std::get_if<ToolOutput>(&result)) {
        std::optional<QList<FileAttachment>> attachments;
        if (!output->attachments.isEmpty()) {
            attachments.emplace();
            for (const FilePart &file : output->attachments)
                attachments->append(FileAttachment{Identifier::ascending(Identifier::Prefix::Part),
                                                   m_message.sessionID, m_message.id, file, {}});
        }
        moved = tool->complete(output->output, output->title, output->metadata, now(), attachments);
    } else {
        const auto &failure = std::get<ToolFailure>(result);
        moved = tool->fail(failure.message, now());
        if (failure.kind == ToolFailure::Kind::PermissionRejected)
            m_blocked = !m_setup.continueLoopOnDeny;
    }
    if (!moved) {
        qCWarning(lcProcessor) << "tool call" << callID << moved.errorMessage();
        return {};
    }
    return m_writer.write(part);
}

QCoro::Task<Result<void>> SessionProcessor::onStartStep()
{
    QPointer<SessionProcessor> self(this);
    // A step cut short (a retried call) keeps the snapshot it started from,
    // so the next patch covers what the cut step changed as well.
    if (m_setup.snapshots && !m_snapshot) {
        QCoro::Task<std::optional<QString>> tracking = m_setup.snapshots->track();
        std::optional<QString> tree = co_await tracking;
        if (!self || self->orphaned())
            co_return Result<void>();
        m_snapshot = std::move(tree);
    }
    co_return m_writer.write(newPart(StepStartPart{m_snapshot}));
}

QCoro::Task<> SessionProcessor::writePatch(std::optional<QString> to)
{
    QPointer<SessionProcessor> self(this);
    if (!m_snapshot || !m_setup.snapshots)
        co_return;
    const QString from = *std::exchange(m_snapshot, std::nullopt);
    PatchPart patch;
    if (to) {
        QCoro::Task<PatchPart> comparing = m_setup.snapshots->changes(from, *to);
        patch = co_await comparing;
    } else {
        QCoro::Task<PatchPart> comparing = m_setup.snapshots->patch(from);
        patch = co_await comparing;
    }
    if (!self || self->orphaned() || patch.files.isEmpty())
        co_return;
    if (Result<void> written = m_writer.write(newPart(patch)); !written)
        qCWarning(lcProcessor) << "saving the patch of message" << m_message.id << "failed:" << written.errorMessage();
}

QCoro::Task<Result<void>> SessionProcessor::onFinishStep(FinishStepEvent event)
{
    QPointer<SessionProcessor> self(this);
    std::optional<QString> finished;
    if (m_setup.snapshots) {
        QCoro::Task<std::optional<QString>> tracking = m_setup.snapshots->track();
        finished = co_await tracking;
        if (!self || self->orphaned())
            co_return Result<void>();
    }
    const StepUsage usage = StepUsage::compute(m_setup.model.cost, m_setup.npm, event.usage, event.providerMetadata);
    const QString reason = finishReasonName(event.reason);
    m_message.finish = reason;
    m_message.cost += usage.cost;
    m_message.tokens = usage.tokens; // the last step's, as OpenCode: it measures the context
    if (auto written = m_writer.write(newPart(StepFinishPart{reason, finished, usage.cost, usage.tokens})); !written)
        co_return written;
    if (auto saved = saveMessage(); !saved)
        co_return saved;
    if (finished) {
        QCoro::Task<> patching = writePatch(finished);
        co_await patching;
        if (!self || self->orphaned())
            co_return Result<void>();
    }
    const ModelInfo::Limits &limits = m_setup.model.limits;
    const CompactionRules::ContextLimits context{
        limits.context, limits.input, limits.output > 0 ? std::optional<qint64>(limits.output) : std::nullopt};
    if (!m_message.isSummary() && CompactionRules::isOverflow(usage.tokens, context, m_setup.compaction))
        m_needsCompaction = true;
    co_return Result<void>();
}

QCoro::Task<> SessionProcessor::waitBeforeRetry(std::chrono::milliseconds delay)
{
    QTimer timer;
    timer.setSingleShot(true);
    // An abort ends the wait at once; process() then sees it.
    if (m_abort)
        connect(m_abort.data(), &AbortSignal::aborted, &timer, [&timer] { timer.start(0); });
    timer.start(delay);
    co_await timer;
}

void SessionProcessor::discardAttempt(const QSet<QString> &kept)
{
    const Result<QList<Part>> parts = m_setup.store->parts(m_message.id);
    if (!parts) {
        qCWarning(lcProcessor) << "the cut attempt of message" << m_message.id
                               << "stays beside the retry:" << parts.errorMessage();
        return;
    }
    for (const Part &part : *parts) {
        // A patch records what the files went through, which a revert needs.
        if (kept.contains(part.id) || part.as<PatchPart>())
            continue;
        if (Result<void> removed = m_setup.store->removePart(part.id); !removed) {
            qCWarning(lcProcessor) << "removing part" << part.id << "of a cut attempt failed:" << removed.errorMessage();
            continue;
        }
        m_setup.sink->publish(PartRemoved{part.sessionID, part.messageID, part.id});
    }
    // Calls the cut attempt announced but never made.
    m_toolCalls.clear();
}

void SessionProcessor::closeOpenParts()
{
    // A stream cut mid-text keeps what arrived.
    for (const QString &partID : m_writer.openPartIDs()) {
        std::optional<Part> part = m_writer.openPart(partID);
        if (auto *text = part->as<TextPart>(); text && text->time)
            text->time->end = now();
        else if (auto *reasoning = part->as<ReasoningPart>())
            reasoning->time.end = now();
        if (auto closed = m_writer.close(*part); !closed)
            qCWarning(lcProcessor) << "saving part" << partID << "failed:" << closed.errorMessage();
    }
    m_text.clear();
    m_reasoning.clear();
}

QCoro::Task<> SessionProcessor::cleanup()
{
    QPointer<SessionProcessor> self(this);
    closeOpenParts();
    // A step that never finished (error, abort) still records what it
    // changed (reference §3.5).
    QCoro::Task<> patching = writePatch(std::nullopt);
    co_await patching;
    if (!self || self->orphaned())
        co_return;

    // Every call that did not finish is marked, from the database when it
    // can be read (reference §3.5), else from what this processor knows.
    Result<QList<Part>> stored = m_setup.store->parts(m_message.id);
    const QList<Part> parts = stored ? *stored : m_toolCalls.values();
    for (Part part : parts) {
        ToolPart *tool = part.as<ToolPart>();
        if (!tool || tool->isFinished())
            continue;
        if (auto failed = tool->fail(ToolAbortedText, now()); !failed)
            continue;
        if (auto written = m_writer.write(part); !written)
            qCWarning(lcProcessor) << "saving aborted tool part" << part.id << "failed:" << written.errorMessage();
    }
    m_toolCalls.clear();

    m_message.completed = now();
    if (auto saved = saveMessage(); !saved) {
        qCWarning(lcProcessor) << "saving message" << m_message.id << "failed:" << saved.errorMessage();
        if (!m_message.error)
            fail(MessageErrors::unknown(saved.errorMessage()));
    }
}

} // namespace qcode
