#include "EnvironmentProxyFactory.h"

#include <QHostAddress>
#include <QMutexLocker>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace qcode {

EnvironmentProxyFactory::EnvironmentProxyFactory(const QProcessEnvironment &environment, const QString &configuredProxy)
    : m_environment(environment)
    , m_configuredProxy(configuredProxy.trimmed())
{
}

QList<QNetworkProxy> EnvironmentProxyFactory::queryProxy(const QNetworkProxyQuery &query)
{
    const QString scheme = query.protocolTag().toLower();
    const QString host = query.peerHostName();
    const int port = query.peerPort();
    if (isExempt(variable("no_proxy"), host, port))
        return {QNetworkProxy(QNetworkProxy::NoProxy)};

    if (!m_configuredProxy.isEmpty())
        return {withCredentials(proxyFromText(m_configuredProxy))};

    QString text = scheme == "https"_L1 ? variable("https_proxy") : scheme == "http"_L1 ? variable("http_proxy") : QString();
    if (text.isEmpty())
        text = variable("all_proxy");
    if (!text.isEmpty())
        return {withCredentials(proxyFromText(text))};
    return systemProxyForQuery(query);
}

void EnvironmentProxyFactory::setCredentials(const QString &hostAndPort, const QString &user, const QString &password)
{
    const QMutexLocker lock(&m_mutex);
    m_credentials.insert(hostAndPort.toLower(), {user, password});
}

QNetworkProxy EnvironmentProxyFactory::proxyFromText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return QNetworkProxy(QNetworkProxy::NoProxy);
    const QUrl url = QUrl::fromUserInput(trimmed.contains("://"_L1) ? trimmed : "http://"_L1 + trimmed);
    if (!url.isValid() || url.host().isEmpty())
        return QNetworkProxy(QNetworkProxy::NoProxy);
    const QString scheme = url.scheme().toLower();
    const bool socks = scheme.startsWith("socks"_L1);
    QNetworkProxy proxy(socks ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy, url.host(),
                        quint16(url.port(socks ? 1080 : 80)));
    proxy.setUser(url.userName(QUrl::FullyDecoded));
    proxy.setPassword(url.password(QUrl::FullyDecoded));
    return proxy;
}

bool EnvironmentProxyFactory::isExempt(const QString &noProxy, const QString &host, int port)
{
    const QString name = host.toLower();
    const QHostAddress address(name);
    const QStringList entries = noProxy.split(QRegularExpression(u"[,\\s]+"_s), Qt::SkipEmptyParts);
    for (QString entry : entries) {
        entry = entry.toLower();
        if (entry == "*"_L1)
            return true;
        if (entry.contains(u'/')) {
            if (!address.isNull() && address.isInSubnet(QHostAddress::parseSubnet(entry)))
                return true;
            continue;
        }
        // "host:port", but not a bare IPv6 address.
        const qsizetype colon = entry.lastIndexOf(u':');
        if (colon > 0 && entry.count(u':') == 1) {
            bool ok = false;
            const int entryPort = entry.mid(colon + 1).toInt(&ok);
            if (!ok || entryPort != port)
                continue;
            entry.truncate(colon);
        }
        if (entry.startsWith("*."_L1))
            entry.remove(0, 1);
        if (entry.startsWith(u'.'))
            entry.remove(0, 1);
        if (entry.startsWith(u'[') && entry.endsWith(u']'))
            entry = entry.mid(1, entry.size() - 2);
        if (entry.isEmpty())
            continue;
        if (name == entry || name.endsWith(u'.' + entry))
            return true;
        if (!address.isNull() && address.isEqual(QHostAddress(entry)))
            return true;
    }
    return false;
}

QString EnvironmentProxyFactory::variable(const char *lowerCaseName) const
{
    const QString lower = QString::fromLatin1(lowerCaseName);
    const QString value = m_environment.value(lower).trimmed();
    return value.isEmpty() ? m_environment.value(lower.toUpper()).trimmed() : value;
}

QNetworkProxy EnvironmentProxyFactory::withCredentials(QNetworkProxy proxy) const
{
    // Credentials given here win over the address's: they were asked for
    // after the proxy refused those.
    if (proxy.type() == QNetworkProxy::NoProxy)
        return proxy;
    const QMutexLocker lock(&m_mutex);
    const auto found = m_credentials.constFind(proxy.hostName().toLower() + u':' + QString::number(proxy.port()));
    if (found != m_credentials.cend()) {
        proxy.setUser(found->first);
        proxy.setPassword(found->second);
    }
    return proxy;
}

} // namespace qcode
