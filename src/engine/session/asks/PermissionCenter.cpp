#include "PermissionCenter.h"

#include <QTimer>

#include <QCoro/QCoroSignal>

#include "engine/session/SessionLogging.h"
#include "engine/agent/PermissionRules.h"
#include "engine/glob/Wildcard.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

// One pending question; answered() fires once, after `answer` is set. The
// signal carries nothing: QCoro resumes through a queued connection, and
// the answer type is not a registered metatype.
class PermissionCenter::Question : public QObject
{
    Q_OBJECT

public:
    explicit Question(PermissionRequest request, PermissionRuleset rules, QString projectID, QObject *parent)
        : QObject(parent)
        , request(std::move(request))
        , rules(std::move(rules))
        , projectID(std::move(projectID))
    {
    }

    PermissionRequest request;
    PermissionRuleset rules;
    QString projectID;
    PermissionAnswer answer;
    quint64 order = 0;  // when it was asked, among all questions
    bool shown = false; // published; else it waits its session's turn

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

PermissionCenter::Verdict PermissionCenter::evaluate(const Question &question)
{
    const PermissionRequest &request = question.request;
    // Session approvals after project ones: both only allow, so the order
    // does not matter, but both must be looked at.
    PermissionRuleset approved = question.projectID.isEmpty() ? PermissionRuleset() : projectApprovals(question.projectID);
    approved += m_approved.value(request.sessionID);
    bool everyAllowed = true;
    for (const QString &pattern : request.patterns) {
        if (request.judgedWhole) {
            const PermissionAction action = PermissionRules::evaluateWhole(request.permission, question.rules).action;
            if (action == PermissionAction::Deny)
                return Verdict::Deny;
            if (action == PermissionAction::Allow)
                continue;
            // Only an approval of this very line, or of everything.
            const bool covered = std::any_of(approved.cbegin(), approved.cend(), [&](const PermissionRule &rule) {
                return (rule.pattern == pattern || rule.pattern == "*"_L1)
                       && Wildcard::match(request.permission, rule.permission);
            });
            everyAllowed = everyAllowed && covered;
            continue;
        }
        const PermissionAction action = PermissionRules::evaluate(request.permission, pattern, question.rules).action;
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

PermissionRuleset PermissionCenter::projectApprovals(const QString &projectID)
{
    if (auto cached = m_projectApproved.constFind(projectID); cached != m_projectApproved.constEnd())
        return *cached;
    PermissionRuleset rules;
    if (m_store) {
        const Result<std::optional<QJsonArray>> saved = m_store->permission(projectID);
        if (!saved)
            qCWarning(lcSession).noquote() << "project approvals of" << projectID << "not read:" << saved.errorMessage();
        else if (*saved)
            rules = rulesetFromJson(**saved);
    }
    // Only allow rules are approvals; anything else in the table is not
    // ours to apply.
    rules.removeIf([](const PermissionRule &rule) { return rule.action != PermissionAction::Allow; });
    m_projectApproved.insert(projectID, rules);
    return rules;
}

Result<void> PermissionCenter::setProjectApprovals(const QString &projectID, const PermissionRuleset &rules)
{
    if (m_store) {
        if (Result<void> saved = m_store->setPermission(projectID, rulesetToJson(rules)); !saved)
            return saved;
    }
    m_projectApproved.insert(projectID, rules);
    Q_EMIT projectApprovalsChanged(projectID, rules);
    return {};
}

QCoro::Task<PermissionAnswer> PermissionCenter::ask(PermissionRequest incoming, PermissionRuleset rules,
                                                    QPointer<AbortSignal> abort, QString projectID)
{
    QPointer<Question> question = new Question(std::move(incoming), std::move(rules), std::move(projectID), this);
    const Verdict verdict = evaluate(*question);
    if (verdict != Verdict::Ask)
        delete question.data();
    switch (verdict) {
    case Verdict::Allow:
        co_return PermissionAnswer{PermissionReply::Once, {}, true};
    case Verdict::Deny:
        co_return PermissionAnswer{PermissionReply::Reject, {}, true};
    case Verdict::Ask:
        break;
    }
    if (abort.isNull() || abort->isAborted()) {
        delete question.data();
        co_return PermissionAnswer{PermissionReply::Reject, {}, false};
    }
    if (question->request.id.isEmpty())
        question->request.id = Identifier::ascending(Identifier::Prefix::Permission);
    const PermissionRequest request = question->request;
    question->order = ++m_asked;

    if (m_policy != AskPolicy::Ask) {
        delete question.data();
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

    const bool waitsItsTurn = hasPending(request.sessionID);
    m_pending.insert(request.id, question.data());
    QMetaObject::Connection onAbort;
    if (abort) {
        const QString id = request.id;
        onAbort = connect(abort.data(), &AbortSignal::aborted, this,
                          [this, id] { answer(id, PermissionAnswer{PermissionReply::Reject, {}, false}); });
    }
    if (!waitsItsTurn) {
        question->shown = true;
        m_sink.publish(PermissionAsked{request});
    }
    co_await qCoro(question.data(), &Question::answered);
    QObject::disconnect(onAbort);
    if (!question)
        co_return PermissionAnswer{PermissionReply::Reject, {}, false};
    const PermissionAnswer result = question->answer;
    delete question.data();
    co_return result;
}

bool PermissionCenter::reply(const QString &requestID, PermissionReply reply, const QString &message,
                             ApprovalScope scope)
{
    Question *question = m_pending.value(requestID);
    if (!question || !question->shown)
        return false;
    const PermissionRequest request = question->request;
    const QString projectID = question->projectID;
    if (reply == PermissionReply::Always)
        approve(*question, question->projectID.isEmpty() ? ApprovalScope::Session : scope);
    answer(requestID, PermissionAnswer{reply, message, false});

    const QList<Question *> waiting = m_pending.values();
    for (Question *other : waiting) {
        if (reply == PermissionReply::Reject || reply == PermissionReply::RejectWithMessage) {
            // The person stopped this turn; its other questions are moot.
            if (other->request.sessionID == request.sessionID)
                answer(other->request.id, PermissionAnswer{PermissionReply::Reject, {}, false});
            continue;
        }
        if (reply != PermissionReply::Always)
            continue;
        // Answer every other pending question the approval now covers: of
        // the session, or of the project's sessions when it was for all.
        const bool inScope = scope == ApprovalScope::Project && !projectID.isEmpty()
                                 ? other->projectID == projectID
                                 : other->request.sessionID == request.sessionID;
        if (inScope && evaluate(*other) == Verdict::Allow)
            answer(other->request.id, PermissionAnswer{PermissionReply::Always, {}, false});
    }
    return true;
}

void PermissionCenter::approve(const Question &question, ApprovalScope scope)
{
    const PermissionRequest &request = question.request;
    PermissionRuleset rules = scope == ApprovalScope::Project ? projectApprovals(question.projectID)
                                                              : m_approved.value(request.sessionID);
    for (const QString &pattern : request.always) {
        const PermissionRule rule{request.permission, pattern, PermissionAction::Allow};
        if (!rules.contains(rule))
            rules.append(rule);
    }
    if (scope == ApprovalScope::Session) {
        m_approved.insert(request.sessionID, rules);
        return;
    }
    if (Result<void> saved = setProjectApprovals(question.projectID, rules); !saved) {
        // Still approved for now; the person is told it will not last.
        m_projectApproved.insert(question.projectID, rules);
        m_sink.publish(SessionError{request.sessionID,
                                    NamedError{u"UnknownError"_s,
                                               QJsonObject{{u"message"_s, tr("The approval for this project could "
                                                                             "not be saved and lasts only until qcode "
                                                                             "quits: %1")
                                                                              .arg(saved.errorMessage())}}}});
    }
}

void PermissionCenter::answer(const QString &requestID, const PermissionAnswer &answer)
{
    Question *question = m_pending.take(requestID);
    if (!question)
        return;
    const QString sessionID = question->request.sessionID;
    if (question->shown) {
        const PermissionReply onBus = answer.reply == PermissionReply::RejectWithMessage ? PermissionReply::Reject
                                                                                          : answer.reply;
        m_sink.publish(PermissionReplied{sessionID, requestID, onBus});
    }
    question->answer = answer;
    Q_EMIT question->answered();
    // Later: a reject, an "always" or an abort answers more of the
    // session's questions right after this one, and none of those should
    // be shown on the way.
    QTimer::singleShot(0, this, [this, sessionID] { showNext(sessionID); });
}

bool PermissionCenter::hasPending(const QString &sessionID) const
{
    return std::any_of(m_pending.cbegin(), m_pending.cend(),
                       [&sessionID](const Question *question) { return question->request.sessionID == sessionID; });
}

void PermissionCenter::showNext(const QString &sessionID)
{
    Question *next = nullptr;
    for (Question *question : std::as_const(m_pending)) {
        if (question->request.sessionID != sessionID)
            continue;
        if (question->shown)
            return;
        if (!next || question->order < next->order)
            next = question;
    }
    if (!next)
        return;
    next->shown = true;
    m_sink.publish(PermissionAsked{next->request});
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
    QList<const Question *> questions(m_pending.cbegin(), m_pending.cend());
    std::sort(questions.begin(), questions.end(),
              [](const Question *a, const Question *b) { return a->order < b->order; });
    QList<PermissionRequest> requests;
    for (const Question *question : std::as_const(questions))
        requests.append(question->request);
    return requests;
}

QCoro::Task<PermissionAnswer> RuledPermissionAsker::ask(PermissionRequest request, QPointer<AbortSignal> abort)
{
    if (!m_center)
        co_return PermissionAnswer{PermissionReply::Reject, {}, false};
    if (request.sessionID.isEmpty())
        request.sessionID = m_sessionID;
    QCoro::Task<PermissionAnswer> asking = m_center->ask(std::move(request), m_rules, std::move(abort), m_projectID);
    const PermissionAnswer answer = co_await asking;
    co_return answer;
}

} // namespace qcode

#include "PermissionCenter.moc"
