#include "QuestionCenter.h"

#include <QCoro/QCoroSignal>

#include <algorithm>

#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode {

// One waiting request; answered() fires once, after `answers` is set. The
// signal carries nothing: QCoro resumes through a queued connection.
class QuestionCenter::Pending : public QObject
{
    Q_OBJECT

public:
    Pending(QuestionRequest request, QObject *parent)
        : QObject(parent)
        , request(std::move(request))
    {
    }

    QuestionRequest request;
    std::optional<QList<QStringList>> answers;

Q_SIGNALS:
    void answered();
};

QuestionCenter::QuestionCenter(SessionEventSink &sink, AskPolicy policy, QObject *parent)
    : QObject(parent)
    , m_sink(sink)
    , m_policy(policy)
{
}

QuestionCenter::~QuestionCenter()
{
    // Whoever still waits is told no, so no coroutine waits forever.
    const QStringList ids = m_pending.keys();
    for (const QString &id : ids)
        answer(id, std::nullopt);
}

QCoro::Task<std::optional<QList<QStringList>>> QuestionCenter::ask(QuestionRequest request,
                                                                   QPointer<AbortSignal> abort)
{
    if (abort.isNull() || abort->isAborted())
        co_return std::nullopt;
    if (request.id.isEmpty())
        request.id = Identifier::ascending(Identifier::Prefix::Question);

    if (m_policy != AskPolicy::Ask) {
        m_sink.publish(QuestionAsked{request});
        m_sink.publish(QuestionRejected{request.sessionID, request.id});
        QStringList asked;
        for (const QuestionInfo &info : request.questions)
            asked.append(info.question);
        m_sink.publish(SessionError{
            request.sessionID,
            NamedError{u"QuestionRefused"_s,
                       QJsonObject{{u"message"_s, tr("The agent asked \"%1\", but nobody can answer questions here; "
                                                     "the question was dismissed.")
                                                      .arg(asked.join(u"\", \""_s))}}}});
        co_return std::nullopt;
    }

    QPointer<Pending> pending = new Pending(request, this);
    m_pending.insert(request.id, pending.data());
    QMetaObject::Connection onAbort;
    if (abort) {
        const QString id = request.id;
        onAbort = connect(abort.data(), &AbortSignal::aborted, this, [this, id] { answer(id, std::nullopt); });
    }
    m_sink.publish(QuestionAsked{request});
    co_await qCoro(pending.data(), &Pending::answered);
    QObject::disconnect(onAbort);
    if (!pending)
        co_return std::nullopt;
    const std::optional<QList<QStringList>> answers = pending->answers;
    delete pending.data();
    co_return answers;
}

bool QuestionCenter::reply(const QString &requestID, const QList<QStringList> &answers)
{
    if (!m_pending.contains(requestID))
        return false;
    answer(requestID, answers);
    return true;
}

bool QuestionCenter::reject(const QString &requestID)
{
    if (!m_pending.contains(requestID))
        return false;
    answer(requestID, std::nullopt);
    return true;
}

void QuestionCenter::answer(const QString &requestID, std::optional<QList<QStringList>> answers)
{
    Pending *pending = m_pending.take(requestID);
    if (!pending)
        return;
    const QString sessionID = pending->request.sessionID;
    if (answers)
        m_sink.publish(QuestionReplied{sessionID, requestID, *answers});
    else
        m_sink.publish(QuestionRejected{sessionID, requestID});
    pending->answers = std::move(answers);
    Q_EMIT pending->answered();
}

void QuestionCenter::cancelSession(const QString &sessionID)
{
    const QList<Pending *> waiting = m_pending.values();
    for (Pending *pending : waiting) {
        if (pending->request.sessionID == sessionID)
            answer(pending->request.id, std::nullopt);
    }
}

QList<QuestionRequest> QuestionCenter::pending() const
{
    QList<QuestionRequest> requests;
    for (const Pending *pending : m_pending)
        requests.append(pending->request);
    std::sort(requests.begin(), requests.end(),
              [](const QuestionRequest &a, const QuestionRequest &b) { return a.id < b.id; });
    return requests;
}

} // namespace qcode

#include "QuestionCenter.moc"
