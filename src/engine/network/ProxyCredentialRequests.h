#pragma once

#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace qcode {

// A user name and password for a proxy, and whether a person just gave
// them (a person is asked once per request: if theirs fail too, the
// request fails rather than asking again).
struct ProxyCredentials {
    QString user;
    QString password;
    bool fromPerson = false;
};

// Where a request that a proxy refused (407) asks for credentials, across
// threads and without blocking any:
//
//   engine thread: ReplyStream::ask(proxy, …)
//        → credentialsWanted(proxy, triedUser) — queued to the window
//   GUI thread:    the window looks in the keychain or asks a person
//        → answer(proxy, credentials or nothing)
//        → every request waiting for that proxy resumes in its own thread
//
// Requests waiting for the same proxy share one question. Nobody waits
// for anybody: a request that is aborted or destroyed meanwhile simply
// gets no answer, and a window that goes away answers "no" to all. Where
// nobody answers (`qcode run`, tests) ask() says so at once and the
// request fails with a sentence saying what to do.
//
// The engine knows no widgets: the window connects to credentialsWanted.
class ProxyCredentialRequests : public QObject
{
    Q_OBJECT

public:
    using Reply = std::function<void(const std::optional<ProxyCredentials> &)>;

    // The process's one, living in the main thread. Thread-safe.
    static ProxyCredentialRequests *instance();

    // Someone answers questions from now on (a window, while it is open),
    // or no longer does. When the last one goes, every waiting request is
    // answered "no".
    void addAnswerer();
    void removeAnswerer();
    bool isAnswering() const { return m_answerers.load() > 0; }

    // Asks for credentials for the proxy `proxy` ("host:port") after
    // `triedUser` ("" for none) was refused. `reply` runs later in
    // `context`'s thread, unless `context` is gone by then. False, and no
    // reply, when nobody answers.
    bool ask(const QString &proxy, const QString &triedUser, QObject *context, Reply reply);

    // The answer to credentialsWanted(proxy); nothing for "no". Credentials
    // are also given to the process's proxy factory, so later requests
    // through that proxy send them without asking.
    void answer(const QString &proxy, const std::optional<ProxyCredentials> &credentials);

    // How many requests wait for an answer about `proxy`.
    int waiting(const QString &proxy) const;

Q_SIGNALS:
    // Someone should find credentials for `proxy` ("host:port") and
    // answer(). Emitted in the asking thread, once per question.
    void credentialsWanted(const QString &proxy, const QString &triedUser);

private:
    explicit ProxyCredentialRequests(QObject *parent = nullptr);

    struct Waiter {
        QPointer<QObject> context;
        Reply reply;
    };

    mutable QMutex m_mutex;
    QHash<QString, QList<Waiter>> m_waiting; // by proxy
    std::atomic<int> m_answerers{0};
};

} // namespace qcode
