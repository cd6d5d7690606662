#include "PermissionCenter.h"

#include <QCoro/QCoroSignal>

#include "SessionLogging.h"
#include "engine/agent/PermissionRules.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode {

// One pending question; answered() fires once, after `answer` is set. The
// signal carries nothing: QCoro resumes through a queued connection, and
// the answer type is not a registered metatype.
class PermissionCenter::Question : public QObject
{
    Q_OBJECT

public:
    explicit Question(PermissionRequest request, PermissionRuleset rules, QObject *parent)
        : QObject(parent)
        , request(std::move(request))
        , rules(std::move(rules))
    {
    }

    PermissionRequest request;
    PermissionRuleset rules;
    PermissionAnswer answer;

Q_SIGNALS:
    void answered();
};

PermissionCenter::PermissionCenter(SessionEventSink &sink, AskPolicy policy, QObject *parent)
    : QObject(parent)
    , m_sink(sink)
    , m_policy(policy)
{
}

PermissionCenter::~PermissionCenter()
{
    // Whoever still waits is told no, so no coroutine waits forever.
    const QStringList ids = m_pending.keys();
    for (const QString &id : ids)
        answer(id, PermissionAnswer{PermissionReply::Reject, {}, false});
}

PermissionCenter::Verdict PermissionCenter::evaluate(const PermissionRequest &request,
                                                     const PermissionRuleset &rules) const
{
    const PermissionRuleset approved = m_approved.value(request.sessionID);
    bool everyAllowed = true;
    for (const QString &pattern : request.patterns) {
        const PermissionAction action = PermissionRules::evaluate(request.permission, pattern, rules).action;
        if (action == PermissionAction::Deny)
            return Verdict::Deny;
        if (action == PermissionAction::Allow)
            continue;
        // An "always" answer covers what the rules leave to the person,
        // never what they deny.
        const bool covered = !approved.isEmpty()
                             && PermissionRules::evaluate(request.permission, pattern, approved).action
                                    == PermissionAction::Allow;
        everyAllowed = everyAllowed && covered;
    }
    return everyAllowed ? Verdict::Allow : Verdict::Ask;
}

QCoro::Task<PermissionAnswer> PermissionCenter::ask(PermissionRequest request, PermissionRuleset rules,
                                                    QPointer<AbortSignal> abort)
{
    switch (evaluate(request, rules)) {
    case Verdict::Allow:
        co_return PermissionAnswer{PermissionReply::Once, {}, true};
    case Verdict::Deny:
        co_return PermissionAnswer{PermissionReply::Reject, {}, true};
    case Verdict::Ask:
        break;
    }
    if (abort.isNull() || abort->isAborted())
        co_return PermissionAnswer{PermissionReply::Reject, {}, false};
    if (request.id.isEmpty())
        request.id = Identifier::ascending(Identifier::Prefix::Permission);

    if (m_policy != AskPolicy::Ask) {
        const PermissionReply reply = m_policy == AskPolicy::AutoApprove ? PermissionReply::Once : PermissionReply::Reject;
        m_sink.publish(PermissionAsked{request});
        m_sink.publish(PermissionReplied{request.sessionID, request.id, reply});
        if (reply == PermissionReply::Reject) {
            m_sink.publish(SessionError{request.sessionID,
                                        NamedError{u"PermissionRefused"_s,
                                                   QJsonObject{{u"message"_s,
                                                                tr("Permission \"%1\" for %2 was refused: nobody can be "
                                                                   "asked here (run with --auto-approve to allow it).")
                                                                    .arg(request.permission,
                                                                         request.patterns.join(u", "_s))}}}});
        }
        co_return PermissionAnswer{reply, {}, false};
    }

    QPointer<Question> question = new Question(request, std::move(rules), this);
    m_pending.insert(request.id, question.data());
    QMetaObject::Connection onAbort;
    if (abort) {
        const QString id = request.id;
        onAbort = connect(abort.data(), &AbortSignal::aborted, this,
                          [this, id] { answer(id, PermissionAnswer{PermissionReply::Reject, {}, false}); });
    }
    m_sink.publish(PermissionAsked{request});
    co_await qCoro(question.data(), &Question::answered);
    QObject::disconnect(onAbort);
    if (!question)
        co_return PermissionAnswer{PermissionReply::Reject, {}, false};
    const PermissionAnswer result = question->answer;
    delete question.data();
    co_return result;
}

bool PermissionCenter::reply(const QString &requestID, PermissionReply reply, const QString &message)
{
    Question *question = m_pending.value(requestID);
    if (!question)
        return false;
    const PermissionRequest request = question->request;
    answer(requestID, PermissionAnswer{reply, message, false});
    if (reply != PermissionReply::Always)
        return true;

    // Approve the suggested patterns for this session, then answer every
    // other pending question of the session they now cover.
    PermissionRuleset &approved = m_approved[request.sessionID];
    for (const QString &pattern : request.always)
        approved.append(PermissionRule{request.permission, pattern, PermissionAction::Allow});
    const QList<Question *> waiting = m_pending.values();
    for (Question *other : waiting) {
        if (other->request.sessionID == request.sessionID && evaluate(other->request, other->rules) == Verdict::Allow)
            answer(other->request.id, PermissionAnswer{PermissionReply::Always, {}, false});
    }
    return true;
}

void PermissionCenter::answer(const QString &requestID, const PermissionAnswer &answer)
{
    Question *question = m_pending.take(requestID);
    if (!question)
        return;
    const PermissionReply onBus = answer.reply == PermissionReply::RejectWithMessage ? PermissionReply::Reject
                                                                                      : answer.reply;
    m_sink.publish(PermissionReplied{question->request.sessionID, requestID, onBus});
    question->answer = answer;
    Q_EMIT question->answered();
}

void PermissionCenter::cancelSession(const QString &sessionID)
{
    const QList<Question *> waiting = m_pending.values();
    for (Question *question : waiting) {
        if (question->request.sessionID == sessionID)
            answer(question->request.id, PermissionAnswer{PermissionReply::Reject, {}, false});
    }
}

void PermissionCenter::forgetSession(const QString &sessionID)
{
    cancelSession(sessionID);
    m_approved.remove(sessionID);
}

QList<PermissionRequest> PermissionCenter::pending() const
{
    QList<PermissionRequest> requests;
    for (const Question *question : m_pending)
        requests.append(question->request);
    std::sort(requests.begin(), requests.end(),
              [](const PermissionRequest &a, const PermissionRequest &b) { return a.id < b.id; });
    return requests;
}

QCoro::Task<PermissionAnswer> RuledPermissionAsker::ask(PermissionRequest request, QPointer<AbortSignal> abort)
{
    if (!m_center)
        co_return PermissionAnswer{PermissionReply::Reject, {}, false};
    if (request.sessionID.isEmpty())
        request.sessionID = m_sessionID;
    QCoro::Task<PermissionAnswer> asking = m_center->ask(std::move(request), m_rules, std::move(abort));
    const PermissionAnswer answer = co_await asking;
    co_return answer;
}

} // namespace qcode

#include "PermissionCenter.moc"
