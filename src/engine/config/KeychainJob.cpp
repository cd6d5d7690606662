#include "KeychainJob.h"

#include <QCoreApplication>
#include <QMutex>
#include <QObject>

#include <QCoro/QCoroSignal>

#include <memory>

namespace qcode {
namespace {

// The asking thread's end: the main thread hands the outcome to it.
class KeychainReply : public QObject
{
    Q_OBJECT

Q_SIGNALS:
    void finished(const qcode::KeychainOutcome &outcome);
};

// Whether the asker still waits. Its reply lives in the asking coroutine's
// frame, which may be destroyed before the keychain answers (a timeout, an
// engine shutting down); the main thread then drops the answer.
struct ReplyLink {
    QMutex mutex;
    KeychainReply *reply = nullptr;
};

// Cuts the link when the asking frame goes, whichever way it goes. The
// reply is deleted later, never at once: the frame may end inside the
// reply's own signal, which resumed it.
struct ReplyLinkGuard {
    std::shared_ptr<ReplyLink> link;
    ~ReplyLinkGuard()
    {
        const QMutexLocker lock(&link->mutex);
        link->reply->deleteLater();
        link->reply = nullptr;
    }
};

void startOnMainThread(const std::function<QKeychain::Job *()> &make, const std::shared_ptr<ReplyLink> &link)
{
    QKeychain::Job *job = make();
    job->setAutoDelete(true);
    QObject::connect(job, &QKeychain::Job::finished, job, [link](QKeychain::Job *done) {
        KeychainOutcome outcome;
        outcome.answered = true;
        outcome.error = done->error();
        outcome.errorString = done->errorString();
        if (auto *read = qobject_cast<QKeychain::ReadPasswordJob *>(done))
            outcome.text = read->textData();
        const QMutexLocker lock(&link->mutex);
        if (KeychainReply *reply = link->reply) {
            // Queued even on the same thread: the asker may not be
            // awaiting yet when a job fails at once.
            QMetaObject::invokeMethod(
                reply, [reply, outcome] { Q_EMIT reply->finished(outcome); }, Qt::QueuedConnection);
        }
    });
    job->start();
}

} // namespace

QCoro::Task<KeychainOutcome> runKeychainJob(const std::function<QKeychain::Job *()> &make,
                                            std::chrono::milliseconds timeout)
{
    auto *reply = new KeychainReply;
    auto link = std::make_shared<ReplyLink>();
    link->reply = reply;
    const ReplyLinkGuard guard{link};
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [make, link] { startOnMainThread(make, link); },
        Qt::QueuedConnection);
    const std::optional<KeychainOutcome> outcome = co_await qCoro(reply, &KeychainReply::finished, timeout);
    co_return outcome.value_or(KeychainOutcome{});
}

} // namespace qcode

#include "KeychainJob.moc"
