#include "NetworkSetup.h"

#include "EnvironmentProxyFactory.h"
#include "NetworkLogging.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QNetworkProxyFactory>
#if QT_CONFIG(ssl)
#include <QSslCertificate>
#include <QSslConfiguration>
#endif

#include <atomic>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

std::atomic<EnvironmentProxyFactory *> installedFactory = nullptr;

// The bundles distributions build from their trusted authorities, which
// TLS already trusts by default.
bool isSystemBundle(const QString &canonicalPath)
{
    static const QStringList bundles = {
        u"/etc/ssl/certs/ca-certificates.crt"_s, // Debian, Ubuntu, Arch
        u"/etc/pki/tls/certs/ca-bundle.crt"_s,   // Fedora, RHEL
        u"/etc/ssl/ca-bundle.pem"_s,             // openSUSE
        u"/etc/ssl/cert.pem"_s,                  // Alpine, macOS
    };
    for (const QString &bundle : bundles) {
        if (QFileInfo(bundle).canonicalFilePath() == canonicalPath)
            return true;
    }
    return false;
}

} // namespace

QStringList NetworkSetup::apply(const Options &options)
{
    auto *factory = new EnvironmentProxyFactory(options.environment, options.proxy);
    // The application takes ownership and deletes the previous one.
    QNetworkProxyFactory::setApplicationProxyFactory(factory);
    installedFactory = factory;
    QStringList problems;
    if (!options.proxy.trimmed().isEmpty()
        && EnvironmentProxyFactory::proxyFromText(options.proxy).type() == QNetworkProxy::NoProxy)
        problems.append(QCoreApplication::translate("qcode::NetworkSetup", "The proxy \"%1\" set in Settings is not an "
                                                                           "address like http://proxy.example.com:3128; "
                                                                           "no proxy is used.")
                            .arg(options.proxy));

    const QList<std::pair<QString, QString>> sources = {
        {u"Settings"_s, options.certificateFile},
        {u"SSL_CERT_FILE"_s, options.environment.value(u"SSL_CERT_FILE"_s)},
        {u"NODE_EXTRA_CA_CERTS"_s, options.environment.value(u"NODE_EXTRA_CA_CERTS"_s)},
    };
    QStringList seen;
    for (const auto &[source, file] : sources) {
        if (file.trimmed().isEmpty())
            continue;
        // Many systems point SSL_CERT_FILE and NODE_EXTRA_CA_CERTS at the
        // distribution's own bundle: those authorities are trusted already,
        // and parsing a hundred and fifty certificates at every start costs
        // more CPU than a whole streamed answer.
        const QString canonical = QFileInfo(file.trimmed()).canonicalFilePath();
        if (!canonical.isEmpty() && (seen.contains(canonical) || isSystemBundle(canonical))) {
            qCDebug(lcHttp).noquote() << source << "names" << canonical << "which is already trusted";
            continue;
        }
        seen.append(canonical);
        QString problem;
        const int added = addCertificateAuthorities(file.trimmed(), &problem);
        if (added == 0)
            problems.append(QCoreApplication::translate("qcode::NetworkSetup", "The certificates named by %1 were not "
                                                                               "added: %2")
                                .arg(source, problem));
        else
            qCInfo(lcHttp).noquote() << "added" << added << "certificate authorities from" << source;
    }
    return problems;
}

int NetworkSetup::addCertificateAuthorities(const QString &file, QString *problem)
{
#if QT_CONFIG(ssl)
    if (!QFileInfo(file).isFile()) {
        *problem = QCoreApplication::translate("qcode::NetworkSetup", "%1 is not a file").arg(file);
        return 0;
    }
    const QList<QSslCertificate> certificates = QSslCertificate::fromPath(file, QSsl::Pem);
    if (certificates.isEmpty()) {
        *problem = QCoreApplication::translate("qcode::NetworkSetup", "%1 holds no PEM certificate").arg(file);
        return 0;
    }
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.addCaCertificates(certificates);
    QSslConfiguration::setDefaultConfiguration(configuration);
    return int(certificates.size());
#else
    *problem = QCoreApplication::translate("qcode::NetworkSetup", "this build of Qt has no TLS support");
    Q_UNUSED(file)
    return 0;
#endif
}

EnvironmentProxyFactory *NetworkSetup::proxyFactory()
{
    return installedFactory;
}

} // namespace qcode
