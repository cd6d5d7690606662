#include "ProxyCredentialRequests.h"

#include "EnvironmentProxyFactory.h"
#include "NetworkLogging.h"
#include "NetworkSetup.h"

#include <QCoreApplication>
#include <QMutexLocker>
#include <QThread>

namespace qcode {

ProxyCredentialRequests::ProxyCredentialRequests(QObject *parent)
    : QObject(parent)
{
}

ProxyCredentialRequests *ProxyCredentialRequests::instance()
{
    // Never destroyed: requests in other threads may still ask while the
    // application ends.
    static ProxyCredentialRequests *const requests = [] {
        auto *made = new ProxyCredentialRequests;
        if (QCoreApplication *app = QCoreApplication::instance(); app && made->thread() != app->thread())
            made->moveToThread(app->thread());
        return made;
    }();
    return requests;
}

void ProxyCredentialRequests::addAnswerer()
{
    ++m_answerers;
}

void ProxyCredentialRequests::removeAnswerer()
{
    if (--m_answerers > 0)
        return;
    QStringList proxies;
    {
        const QMutexLocker lock(&m_mutex);
        proxies = m_waiting.keys();
    }
    for (const QString &proxy : std::as_const(proxies))
        answer(proxy, std::nullopt);
}

bool ProxyCredentialRequests::ask(const QString &proxy, const QString &triedUser, QObject *context, Reply reply)
{
    if (!isAnswering())
        return false;
    bool first = false;
    {
        const QMutexLocker lock(&m_mutex);
        QList<Waiter> &waiters = m_waiting[proxy];
        first = waiters.isEmpty();
        waiters.append({context, std::move(reply)});
    }
    // The user name only: a password never reaches a log.
    if (triedUser.isEmpty())
        qCInfo(lcHttp).noquote() << "the proxy" << proxy << "wants credentials; none were sent";
    else
        qCInfo(lcHttp).noquote() << "the proxy" << proxy << "refused the credentials of" << triedUser;
    if (first)
        Q_EMIT credentialsWanted(proxy, triedUser);
    return true;
}

void ProxyCredentialRequests::answer(const QString &proxy, const std::optional<ProxyCredentials> &credentials)
{
    if (credentials) {
        if (EnvironmentProxyFactory *factory = NetworkSetup::proxyFactory())
            factory->setCredentials(proxy, credentials->user, credentials->password);
    }
    QList<Waiter> waiters;
    {
        const QMutexLocker lock(&m_mutex);
        waiters = m_waiting.take(proxy);
    }
    for (const Waiter &waiter : std::as_const(waiters)) {
        if (!waiter.context)
            continue;
        // Queued, in the waiter's thread: dropped if it is destroyed first.
        QMetaObject::invokeMethod(
            waiter.context, [reply = waiter.reply, credentials] { reply(credentials); }, Qt::QueuedConnection);
    }
}

int ProxyCredentialRequests::waiting(const QString &proxy) const
{
    const QMutexLocker lock(&m_mutex);
    return int(m_waiting.value(proxy).size());
}

} // namespace qcode
