#pragma once

#include <QHash>
#include <QMutex>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <utility>

namespace qcode {

// Which proxy a request takes, for every QNetworkAccessManager in the
// process (installed with QNetworkProxyFactory::setApplicationProxyFactory):
//
// 1. a proxy set in Settings, when there is one;
// 2. else the variables curl, Python and OpenCode honour, in either case:
//    https_proxy for https, http_proxy for http, all_proxy for both;
// 3. else the platform's settings (QNetworkProxyFactory::systemProxyForQuery).
//
// no_proxy (or NO_PROXY) decides in every case: "*", host names matching
// themselves and their subdomains (a leading "." or "*." is ignored), an
// optional ":port", and IP ranges as "10.0.0.0/8".
//
// Why not Qt's system factory alone: on Debian, Qt 6.4 asks libproxy, whose
// environment module reads http_proxy/https_proxy (and their upper-case
// forms) only when no desktop proxy configuration is found, never all_proxy,
// and Qt's own fallback reads only the lower-case forms. People set all of
// them, and expect them to win.
//
// Credentials come from the proxy address (http://user:password@host:port)
// or from setCredentials(), which the window fills from the keychain.
// Thread-safe: every manager's thread asks it.
class EnvironmentProxyFactory : public QNetworkProxyFactory
{
public:
    explicit EnvironmentProxyFactory(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(),
                                     const QString &configuredProxy = {});

    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query = QNetworkProxyQuery()) override;

    // A user name and password for the proxy at `hostAndPort` ("host:port"),
    // asked for after it refused the request: used instead of those its
    // address carries, if any.
    void setCredentials(const QString &hostAndPort, const QString &user, const QString &password);

    // "http://user:secret@proxy:3128", "proxy:3128", "socks5://…": the proxy
    // it names, or NoProxy for an empty or unusable text.
    static QNetworkProxy proxyFromText(const QString &text);
    // Whether `no_proxy`'s list exempts `host` on `port`.
    static bool isExempt(const QString &noProxy, const QString &host, int port);

private:
    QString variable(const char *lowerCaseName) const;
    QNetworkProxy withCredentials(QNetworkProxy proxy) const;

    QProcessEnvironment m_environment;
    QString m_configuredProxy;
    mutable QMutex m_mutex;
    QHash<QString, std::pair<QString, QString>> m_credentials;
};

} // namespace qcode
