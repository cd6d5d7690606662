#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace qcode {

class EnvironmentProxyFactory;

// The process-wide network configuration, made once at start before any
// QNetworkAccessManager sends anything:
// - the proxy factory every manager asks (EnvironmentProxyFactory), with
//   the proxy set in Settings, if any, over the environment's;
// - extra certificate authorities, for networks that inspect TLS with a
//   company CA, added to the system's: the file set in Settings,
//   SSL_CERT_FILE and OpenCode's NODE_EXTRA_CA_CERTS.
// A certificate that still does not verify is an error naming the host and
// the problem (ReplyStream); nothing here turns verification off.
class NetworkSetup
{
public:
    struct Options {
        QString proxy;            // from Settings; "" follows the environment and the system
        QString certificateFile;  // from Settings; "" for none
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    };

    // Installs both; returns what could not be used, as sentences to show.
    static QStringList apply(const Options &options);

    // Adds the PEM certificates in `file` to the default TLS configuration's
    // authorities. The count added, or a sentence saying why none was.
    static int addCertificateAuthorities(const QString &file, QString *problem);

    // The factory apply() installed, for credentials asked in the window;
    // nullptr before.
    static EnvironmentProxyFactory *proxyFactory();
};

} // namespace qcode
