#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <QCoro/QCoroTask>

#include <chrono>
#include <functional>
#include <optional>
#include <variant>

#include "AbortSignal.h"
#include "engine/session/compaction/CompactionRules.h"
#include "PartWriter.h"
#include "engine/session/asks/PermissionAsker.h"
#include "RetryPolicy.h"
#include "engine/session/SessionEvents.h"
#include "ToolRunner.h"
#include "engine/catalogue/ModelInfo.h"
#include "engine/network/ProviderCall.h"
#include "model/Message.h"
#include "model/Store.h"

namespace qcode {

class SnapshotStore;

// OpenCode's SessionProcessor (reference §3, the seed's flowchart 3.2):
// turns the event stream of one provider call into the parts of one
// assistant message, runs the tools the model calls, watches for doom
// loops, retries what is worth retrying and cleans up after success, error
// or abort. process() answers what the prompt loop does next.
//
// Each tool starts as soon as its call is complete in the stream, while the
// stream goes on, so the calls of one step run at once (as OpenCode's); each
// records its result in its own part, which keeps the call order. A step
// ends, and a stream's end is handled, only once all its tools have ended.
// A retried call replaces what the cut attempt streamed, so the step leaves
// one answer.
//
//     SessionProcessor processor(setup, assistant, abort);
//     switch (co_await processor.process(makeCall)) { … }
//
// The store, sink, tool runner and permission asker must outlive the
// processor; the processor must outlive process() or be destroyed only
// after it returned (process() checks, after each wait, that it still
// exists, and gives up quietly when it does not).
class SessionProcessor : public QObject
{
    Q_OBJECT

public:
    enum class Outcome { Continue, Stop, Compact };
    Q_ENUM(Outcome)

    // OpenCode's DOOM_LOOP_THRESHOLD.
    static constexpr int DoomLoopThreshold = 3;

    struct Setup {
        Store *store = nullptr;
        SessionEventSink *sink = nullptr;
        ToolRunner *tools = nullptr;
        PermissionAsker *permissions = nullptr;
        // Asks about doom loops with the agent's rules alone; null: the
        // asker above.
        PermissionAsker *doomLoopPermissions = nullptr;
        // Where each step's file changes are recorded (a patch part per
        // step that changed files); null: no snapshots.
        SnapshotStore *snapshots = nullptr;
        ModelInfo model;     // prices and limits
        QString npm;         // the SDK package that prices usage: the model's, else its provider's
        CompactionRules::CompactionSettings compaction;
        RetryPolicy retry;
        // config experimental.continue_loop_on_deny: a rejected permission
        // feeds back instead of stopping.
        bool continueLoopOnDeny = false;
        std::chrono::milliseconds flushInterval = PartWriter::DefaultFlushInterval;
        // Now, for part and message times and retry deadlines; tests pin it.
        std::function<QDateTime()> clock;
    };

    // Starts one provider call for this message, owned by `owner`, or says
    // why it cannot. Called again for each retry.
    using CallFactory = std::function<Result<ProviderCall *>(QObject *owner)>;

    // `assistant` is already saved; `abort` may be null (never aborted).
    SessionProcessor(Setup setup, AssistantMessage assistant, QPointer<AbortSignal> abort, QObject *parent = nullptr);
    ~SessionProcessor() override;

    // The message as processed so far.
    const AssistantMessage &message() const { return m_message; }
    // Retries so far; OpenCode keeps counting across process() calls.
    int attempt() const { return m_attempt; }

    QCoro::Task<Outcome> process(CallFactory makeCall);

Q_SIGNALS:
    // Every tool call this processor started has ended and its result is
    // recorded.
    void toolsSettled();

private:
    // Why one pass over a stream ended early.
    using StreamFailure = std::variant<ProviderError, Error>;

    QCoro::Task<std::optional<StreamFailure>> consume(CallFactory makeCall);
    Result<void> handle(const ProviderEvent &event);
    // Starts the call and returns at once; toolsSettled() says when the last
    // running call has ended.
    void startTool(ToolCallEvent event);
    QCoro::Task<Result<void>> runTool(ToolCallEvent event);
    // Returns once every started tool call has ended.
    QCoro::Task<> settleTools();
    // What a cut attempt wrote gives way to the retried one: every part not
    // in `kept`, except the patches that record what the files went through.
    void discardAttempt(const QSet<QString> &kept);
    QCoro::Task<std::optional<PermissionAnswer>> checkDoomLoop(ToolPart current);
    QCoro::Task<> waitBeforeRetry(std::chrono::milliseconds delay);

    Result<void> onReasoningStart(const ReasoningStartEvent &event);
    Result<void> onReasoningEnd(const ReasoningEndEvent &event);
    Result<void> onTextStart(const TextStartEvent &event);
    Result<void> onTextEnd(const TextEndEvent &event);
    Result<void> onToolInputStart(const ToolInputStartEvent &event);
    QCoro::Task<Result<void>> onStartStep();
    QCoro::Task<Result<void>> onFinishStep(FinishStepEvent event);
    // The patch part of the open step snapshot, up to `to` (a finished
    // step's tree) or to the files as they are now; closes the snapshot.
    QCoro::Task<> writePatch(std::optional<QString> to);
    Result<void> finishTool(const QString &callID, const ToolResult &result);
    // A running tool's live title and metadata (bash output as it comes).
    void onToolProgress(const QString &callID, const QString &title, const QJsonObject &metadata);

    void fail(const NamedError &error);
    void closeOpenParts();
    QCoro::Task<> cleanup();
    Result<void> saveMessage();
    void publishStatus(const SessionStatus &status);
    Part newPart(PartBody body) const;
    qint64 now() const;
    bool aborted() const;
    // The abort signal's owner (the prompt loop, with the store and sink
    // this processor writes to) was destroyed while a call was awaited, as
    // when the engine shuts down mid-stream: touch nothing, stop.
    bool orphaned() const { return m_hasAbort && m_abort.isNull(); }

    Setup m_setup;
    AssistantMessage m_message;
    QPointer<AbortSignal> m_abort;
    bool m_hasAbort = false;
    PartWriter m_writer;

    QHash<QString, QString> m_reasoning; // stream block id → part id
    QHash<QString, QString> m_text;      // stream block id → part id
    QHash<QString, Part> m_toolCalls;    // call id → its part, until it finishes
    int m_runningTools = 0;
    // The first failure to record a tool's part; it ends the stream.
    std::optional<Error> m_toolError;
    // The tree at the start of the open step, until its patch is written.
    std::optional<QString> m_snapshot;
    int m_attempt = 0;
    bool m_blocked = false;
    bool m_needsCompaction = false;
};

} // namespace qcode
