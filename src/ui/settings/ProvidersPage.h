#pragma once

#include <QList>
#include <QWidget>

#include "SettingsContext.h"

class QNetworkAccessManager;

namespace qcode {

class CompatibleProviderForm;
class LocalServersBox;
class ProviderKeysBox;

// Settings › Providers: the known providers and their keys, the servers
// found on this machine, and a form for any OpenAI-compatible server.
class ProvidersPage : public QWidget
{
    Q_OBJECT

public:
    ProvidersPage(const SettingsContext &context, QNetworkAccessManager *network, QWidget *parent = nullptr);

    // Probes this machine's model servers in the background.
    void detectLocalServers();
    // The config with the providers saved or removed here applied.
    const Config &config() const { return m_config; }
    CompatibleProviderForm *form() const { return m_form; }
    LocalServersBox *localServers() const { return m_local; }

Q_SIGNALS:
    void configChanged(const qcode::Config &config);
    void localServersFound(const QList<qcode::LocalServer> &servers);

private:
    void setConfigProvider(const QString &providerID, const std::optional<QJsonObject> &entry);

    Config m_config;
    ProviderKeysBox *m_keys = nullptr;
    LocalServersBox *m_local = nullptr;
    CompatibleProviderForm *m_form = nullptr;
};

} // namespace qcode
