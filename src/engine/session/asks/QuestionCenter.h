#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <QCoro/QCoroTask>

#include <optional>

#include "engine/session/loop/AbortSignal.h"
#include "PermissionCenter.h"
#include "engine/session/SessionEvents.h"

namespace qcode {

// The engine's side of the question tool (reference §8.11): a request is
// published as QuestionAsked and waits, without blocking anything else,
// for reply() (QuestionReplied) or reject() (QuestionRejected). The
// prompt's abort and cancelSession() reject it too, so a stopped prompt
// never waits on a dialog.
//
// Under AskPolicy::Ask the person answers. Under any other policy (`qcode
// run`) nobody can: the question is published, rejected at once and the
// reason reported as a session error named QuestionRefused — approving
// permissions automatically does not make up answers.
class QuestionCenter : public QObject
{
    Q_OBJECT

public:
    QuestionCenter(SessionEventSink &sink, AskPolicy policy, QObject *parent = nullptr);
    ~QuestionCenter() override;

    // One list of answers per question, or nothing when rejected. The
    // request's id is given here when empty.
    QCoro::Task<std::optional<QList<QStringList>>> ask(QuestionRequest request, QPointer<AbortSignal> abort);
    // False when no pending request has this id (answered meanwhile, or unknown).
    bool reply(const QString &requestID, const QList<QStringList> &answers);
    bool reject(const QString &requestID);
    // Rejects every pending request of the session (its prompt stopped).
    void cancelSession(const QString &sessionID);

    QList<QuestionRequest> pending() const;

private:
    class Pending;

    void answer(const QString &requestID, std::optional<QList<QStringList>> answers);

    SessionEventSink &m_sink;
    AskPolicy m_policy;
    QHash<QString, Pending *> m_pending;
};

} // namespace qcode
