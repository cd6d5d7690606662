#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include <functional>

#include "AbortSignal.h"
#include "ModelMessages.h"
#include "engine/session/SessionEvents.h"
#include "engine/network/ProviderCall.h"
#include "model/Part.h"
#include "model/Result.h"
#include "model/Session.h"
#include "model/Store.h"

namespace qcode {

// OpenCode's ensureTitle (reference §2.11): after the first exchange the
// hidden `title` agent names the session, unless the person already did.
// qcode keeps titles to 50 characters (issue #4); OpenCode allows 100.
namespace TitleGenerator {

// The longest title qcode stores.
constexpr qsizetype MaxLength = 50;

// A root session whose title is still the default, with exactly one user
// message the person wrote (not every part synthetic).
bool needsTitle(const Session &session, const QList<MessageWithParts> &messages);

// The conversation the title agent reads: "Generate a title for this
// conversation:" and the history up to the first message the person wrote
// (a subtask-only message gives its prompts instead). Empty when there is
// no such message.
QList<ModelMessage> request(const QList<MessageWithParts> &messages, const ModelTarget &target);

// The title in a model's answer: <think> blocks dropped, the first
// non-empty line, trimmed, at most MaxLength characters (cut at a word
// where possible, ending with "…"). Empty when the answer holds none.
QString clean(const QString &modelOutput);

// OpenCode's default titles: "New session - " or "Child session - "
// followed by the creation time as JavaScript's toISOString() writes it.
bool isDefaultTitle(const QString &title);
QString defaultTitle(qint64 createdMs, bool child);

// The first words the person wrote (at most FirstWords, and MaxLength
// characters), for a session no title model can name. Empty when the
// first message holds no text.
constexpr int FirstWords = 8;
QString fromPrompt(const QList<MessageWithParts> &messages);

// Names the session `title` when it still has its default title and
// publishes SessionUpdated; returns the session's title afterwards.
Result<QString> apply(Store &store, SessionEventSink &sink, const QString &sessionID, const QString &title);

// Starts the title agent's call, owned by `owner`, for `messages` (the
// caller adds the agent's prompt, model and sampling).
using StartCall = std::function<Result<ProviderCall *>(QObject *owner, QList<ModelMessage> messages)>;

// Names the session if it needsTitle(): runs the call, cleans its answer,
// saves the title and publishes SessionUpdated. Returns the session's
// title afterwards — unchanged when no title was needed, or when the
// person renamed the session while the model answered. A failed call or an
// answer without a title leaves the title as it was and returns the error.
// `stop`, when it fires, cuts the call: the task ends with an error and
// touches nothing, so an engine that is going can still let it finish.
// `store` and `sink` must outlive the returned task.
QCoro::Task<Result<QString>> generate(Store &store, SessionEventSink &sink, QString sessionID, StartCall startCall,
                                      ModelTarget target = {}, QPointer<AbortSignal> stop = {});

} // namespace TitleGenerator

} // namespace qcode
