#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>

#include "engine/agent/PermissionRule.h"
#include "engine/session/PermissionAsker.h"

namespace qcode {

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
// "Always" adds allow rules for the request's `always` patterns to this
// session only, and never overrides a rule's deny (OpenCode lets it: its
// users report approvals leaking past agent restrictions, reference §13).
class PermissionCenter : public QObject
{
    Q_OBJECT

public:
    PermissionCenter(SessionEventSink &sink, AskPolicy policy, QObject *parent = nullptr);
    ~PermissionCenter() override;

    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, PermissionRuleset rules, QPointer<AbortSignal> abort);
    // False when no question has this id (answered meanwhile, or unknown).
    bool reply(const QString &requestID, PermissionReply reply, const QString &message = {});
    // Rejects every pending question of the session (its prompt stopped).
    void cancelSession(const QString &sessionID);
    // Forgets a deleted session's approvals.
    void forgetSession(const QString &sessionID);

    QList<PermissionRequest> pending() const;
    // What "always" approved so far in a session, as allow rules.
    PermissionRuleset approved(const QString &sessionID) const { return m_approved.value(sessionID); }

private:
    class Question;

    enum class Verdict { Allow, Deny, Ask };
    Verdict evaluate(const PermissionRequest &request, const PermissionRuleset &rules) const;
    void answer(const QString &requestID, const PermissionAnswer &answer);

    SessionEventSink &m_sink;
    AskPolicy m_policy;
    QHash<QString, Question *> m_pending; // by request id, in the order asked (ids ascend)
    QHash<QString, PermissionRuleset> m_approved;
};

// A PermissionAsker for one step: the center, with the step's rules (the
// agent's merged with the session's).
class RuledPermissionAsker : public PermissionAsker
{
public:
    RuledPermissionAsker(PermissionCenter &center, PermissionRuleset rules, QString sessionID = {})
        : m_center(&center)
        , m_rules(std::move(rules))
        , m_sessionID(std::move(sessionID))
    {
    }
    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, QPointer<AbortSignal> abort) override;
    const PermissionRuleset &rules() const { return m_rules; }

private:
    QPointer<PermissionCenter> m_center;
    PermissionRuleset m_rules;
    QString m_sessionID;
};

} // namespace qcode
