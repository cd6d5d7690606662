#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include <functional>
#include <optional>

#include "engine/session/loop/AbortSignal.h"
#include "engine/session/loop/ModelMessages.h"
#include "engine/session/SessionEvents.h"
#include "engine/session/loop/SessionProcessor.h"
#include "model/Message.h"
#include "model/Part.h"
#include "model/Result.h"
#include "model/Store.h"

namespace qcode {

// OpenCode's SessionCompaction (reference §5): asking for a summary,
// clearing old tool output, and writing the summary that lets a long
// session go on. When to compact (CompactionRules::isOverflow, which
// honours compaction.auto = false) and how often to try are the prompt
// loop's decisions.
namespace SessionCompaction {

// The texts the model reads after an automatic compaction (reference §5.4
// step 9). They are OpenCode's words, in English: input to the model, not
// text for the person.
extern const QString ContinueText;
extern const QString MediaOverflowText;

struct Request {
    QString sessionID;
    QString agent;      // the agent that goes on after the summary
    ModelRef model;
    bool autoCompact = true;       // OpenCode's `auto`: false for /compact
    std::optional<bool> overflow;  // the provider refused the request as too large
    qint64 now = 0;                // ms since the epoch; 0: the current time
};

// §5.3: a user message carrying one compaction part, saved and published
// (MessageUpdated, then PartUpdated). The loop finds it as a pending task.
Result<MessageWithParts> create(Store &store, SessionEventSink &sink, const Request &request);

// §5.2: marks the output of old tool calls as cleared (state.time.compacted
// = now; the text stays in the database) and publishes each part. Returns
// the parts it marked, none when clearing would free too little. Whether
// to prune at all (compaction.prune) is the caller's decision.
Result<QList<Part>> prune(Store &store, SessionEventSink &sink, const QString &sessionID, qint64 now);

} // namespace SessionCompaction

// §5.4: one compaction request answered. The compaction agent summarises
// the history (media stripped, no tools) into an assistant message marked
// `summary`; after an automatic compaction a user message tells the model
// to go on — or, when the provider refused a turn as too large, that turn
// is replayed without its media.
//
//     CompactionRun run;
//     QCoro::Task<CompactionRun::Outcome> task = run.process(input);
//     if (co_await task == CompactionRun::Outcome::Stop) …
//
// The run must outlive process(), or be destroyed only after it returned;
// the store and sink in the setup must outlive both.
class CompactionRun : public QObject
{
    Q_OBJECT

public:
    enum class Outcome { Continue, Stop };
    Q_ENUM(Outcome)

    struct Input {
        QList<MessageWithParts> messages; // the history as the loop read it, oldest first
        QString parentID;                 // the compaction user message
        QString sessionID;
        QPointer<AbortSignal> abort;      // may be null: never aborted
        bool autoCompact = true;
        bool overflow = false;
        // store, sink, permissions, model, retry, clock … as the loop builds
        // them. `tools` is not used: the summary gets no tools, and the run
        // refuses every call the model makes anyway.
        SessionProcessor::Setup setup;
        ModelRef model;   // the model that writes the summary
        QString variant;  // empty: the compaction request's own
        ModelTarget target;
        // Given the conversation to send (history + the request text),
        // returns what starts the provider call with the compaction agent's
        // system prompt and no tools.
        std::function<SessionProcessor::CallFactory(QList<ModelMessage> messages)> summaryCall;
        // The summary message's path (OpenCode: the instance's directory
        // and worktree).
        QString directory;
        QString worktree;
    };

    explicit CompactionRun(QObject *parent = nullptr);
    ~CompactionRun() override;

    QCoro::Task<Outcome> process(Input input);

    // The summary message as the last process() left it; empty before.
    const std::optional<AssistantMessage> &summary() const { return m_summary; }
    // Why the last process() stopped, if it stopped on an error: the
    // summary's own error or what kept it from being written.
    const std::optional<NamedError> &error() const { return m_error; }

private:
    struct Plan {
        QList<MessageWithParts> toSummarise;
        std::optional<MessageWithParts> replay; // the turn to send again after the summary
    };

    static Plan plan(const Input &input);
    Result<AssistantMessage> startSummary(const Input &input, const UserMessage &request);
    Result<void> writeFollowUp(const Input &input, const UserMessage &request, const Plan &plan);
    Outcome stop(const Input &input, const NamedError &error);
    Result<void> saveMessage(Store &store, SessionEventSink &sink, const Message &message);
    qint64 now(const Input &input) const;

    std::optional<AssistantMessage> m_summary;
    std::optional<NamedError> m_error;
};

} // namespace qcode
