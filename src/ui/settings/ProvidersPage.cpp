#include "ProvidersPage.h"

#include <QJsonObject>
#include <QScrollArea>
#include <QVBoxLayout>

#include "CompatibleProviderForm.h"
#include "LocalServersBox.h"
#include "ProviderKeysBox.h"

using namespace Qt::StringLiterals;

namespace qcode {

ProvidersPage::ProvidersPage(const SettingsContext &context, QNetworkAccessManager *network, QWidget *parent)
    : QWidget(parent), m_config(context.config)
{
    QStringList reserved;
    for (const CatalogueProvider &provider : context.catalogue.providers()) {
        if (!provider.local) // a local one may be set up by hand, as OpenCode's docs show for Ollama
            reserved.append(provider.id);
    }
    m_keys = new ProviderKeysBox(context.catalogue, context.config, context.environment, context.secrets, this);
    m_local = new LocalServersBox(context.localServerProbes, this);
    m_form = new CompatibleProviderForm(context.configDirectory, reserved, context.secrets, network, this);

    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_keys);
    column->addWidget(m_local);
    column->addWidget(m_form);
    column->addStretch();
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    connect(m_keys, &ProviderKeysBox::customProviderSelected, this, [this](const QString &id) {
        if (const ProviderConfig *configured = m_config.provider(id))
            m_form->edit(id, configured->raw);
    });
    connect(m_local, &LocalServersBox::serversFound, this, &ProvidersPage::localServersFound);
    connect(m_local, &LocalServersBox::useServer, m_form, &CompatibleProviderForm::editServer);
    connect(m_form, &CompatibleProviderForm::providerSaved, this,
            [this](const QString &id, const QJsonObject &entry) { setConfigProvider(id, entry); });
    connect(m_form, &CompatibleProviderForm::providerRemoved, this,
            [this](const QString &id) { setConfigProvider(id, std::nullopt); });
    connect(m_form, &CompatibleProviderForm::keyStored, m_keys, &ProviderKeysBox::setKeyStored);
}

void ProvidersPage::detectLocalServers()
{
    m_local->detect();
}

void ProvidersPage::setConfigProvider(const QString &providerID, const std::optional<QJsonObject> &entry)
{
    QJsonObject json = m_config.json();
    QJsonObject providers = json.value("provider"_L1).toObject();
    if (entry)
        providers.insert(providerID, *entry);
    else
        providers.remove(providerID);
    json.insert(u"provider"_s, providers);
    m_config = Config::fromJson(json);
    m_keys->setConfig(m_config);
    Q_EMIT configChanged(m_config);
}

} // namespace qcode
