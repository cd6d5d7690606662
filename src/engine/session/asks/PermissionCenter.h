#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>

#include "engine/agent/PermissionRule.h"
#include "engine/session/asks/PermissionAsker.h"
#include "model/Result.h"

namespace qcode {

class Store;

// Where an "always" answer applies: the session it was given in, or every
// session of the project (kept in the store's permission table, so it
// outlives a restart, and listed in settings to be taken back).
enum class ApprovalScope { Session, Project };

// How the engine answers a permission the rules leave to the person.
enum class AskPolicy {
    Ask,         // publish PermissionAsked and wait for reply() (the app)
    AutoApprove, // answer Once at once (`qcode run --auto-approve`)
    Refuse,      // answer Reject at once and say so as a session error
};

// The engine's side of reference §9's ask flow: rules first (every pattern
// allowed → Once; any denied → Reject by rule), then the person. Pending
// questions wait without blocking anything else and are answered by
// reply(), by the prompt's abort, or by an "always" answer to another
// question it now covers.
//
// "Always" adds allow rules for the request's `always` patterns to the
// session or to its project (ApprovalScope), never to another project, and
// never overrides a rule's deny (OpenCode keeps approvals for the whole
// project instance and lets them beat a deny: its users report approvals
// leaking past agent restrictions, reference §13). A reject answers every
// other pending question of the session with a reject too, as OpenCode's.
//
// A session's questions are shown one at a time, in the order asked: the
// tools of one step run at once and may ask together, and the window shows
// whatever PermissionAsked arrives, so the next question of a session is
// published only once the one before it is answered. A question still
// waiting its turn was never on the bus; answering it (abort, reject,
// "always") publishes nothing for it.
class PermissionCenter : public QObject
{
    Q_OBJECT

public:
    PermissionCenter(SessionEventSink &sink, AskPolicy policy, QObject *parent = nullptr);
    ~PermissionCenter() override;

    // Project approvals are read from and written to `store` (the engine
    // thread's connection); without one they last until the engine stops.
    void setApprovalStore(Store *store) { m_store = store; }

    // `projectID` names whose project approvals apply (empty: none).
    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, PermissionRuleset rules, QPointer<AbortSignal> abort,
                                      QString projectID = {});
    // False when no shown question has this id (answered meanwhile,
    // unknown, or still waiting its turn).
    bool reply(const QString &requestID, PermissionReply reply, const QString &message = {},
               ApprovalScope scope = ApprovalScope::Session);
    // Rejects every pending question of the session (its prompt stopped).
    void cancelSession(const QString &sessionID);
    // Forgets a deleted session's approvals.
    void forgetSession(const QString &sessionID);

    // The questions not answered yet, shown or waiting their turn, in the
    // order asked.
    QList<PermissionRequest> pending() const;

Q_SIGNALS:
    // A project's approvals changed (an "always" for the project, or
    // setProjectApprovals).
    void projectApprovalsChanged(const QString &projectID, const qcode::PermissionRuleset &rules);

public:
    // What "always" approved so far in a session, as allow rules.
    PermissionRuleset approved(const QString &sessionID) const { return m_approved.value(sessionID); }
    // What "always" approved for a whole project, as allow rules.
    PermissionRuleset projectApprovals(const QString &projectID);
    // Replaces them (settings takes some back); saved before it returns.
    Result<void> setProjectApprovals(const QString &projectID, const PermissionRuleset &rules);

private:
    class Question;

    enum class Verdict { Allow, Deny, Ask };
    Verdict evaluate(const Question &question);
    void answer(const QString &requestID, const PermissionAnswer &answer);
    void approve(const Question &question, ApprovalScope scope);
    bool hasPending(const QString &sessionID) const;
    // Publishes the session's oldest waiting question unless one is shown.
    void showNext(const QString &sessionID);

    SessionEventSink &m_sink;
    AskPolicy m_policy;
    QHash<QString, Question *> m_pending; // by request id; shown or waiting their turn
    quint64 m_asked = 0;                  // questions asked so far: their order
    QHash<QString, PermissionRuleset> m_approved;        // by session
    QHash<QString, PermissionRuleset> m_projectApproved; // by project, as loaded or saved
    Store *m_store = nullptr;
};

// A PermissionAsker for one step: the center, with the step's rules (the
// agent's merged with the session's).
class RuledPermissionAsker : public PermissionAsker
{
public:
    RuledPermissionAsker(PermissionCenter &center, PermissionRuleset rules, QString sessionID = {},
                         QString projectID = {})
        : m_center(&center)
        , m_rules(std::move(rules))
        , m_sessionID(std::move(sessionID))
        , m_projectID(std::move(projectID))
    {
    }
    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, QPointer<AbortSignal> abort) override;
    const PermissionRuleset &rules() const { return m_rules; }

private:
    QPointer<PermissionCenter> m_center;
    PermissionRuleset m_rules;
    QString m_sessionID;
    QString m_projectID;
};

} // namespace qcode
