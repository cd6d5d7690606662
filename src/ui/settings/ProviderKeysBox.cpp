#include "ProviderKeysBox.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <QCoro/QCoroTask>

#include "InlineMessage.h"
#include "KeychainMessages.h"
#include "SecretLineEdit.h"
#include "SettingsLogging.h"
#include "engine/config/FallbackSecretStore.h"
#include "engine/config/SecretStore.h"

using namespace Qt::StringLiterals;

namespace qcode {

ProviderKeysBox::ProviderKeysBox(ModelCatalogue catalogue, Config config, QProcessEnvironment environment,
                                 SecretStore *secrets, QWidget *parent)
    : QGroupBox(parent)
    , m_catalogue(std::move(catalogue))
    , m_config(std::move(config))
    , m_environment(std::move(environment))
    , m_secrets(secrets)
{
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(u"providerTree"_s);
    m_tree->setColumnCount(2);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setMinimumHeight(130);

    m_keychainMessage = new InlineMessage(this);
    m_keychainMessage->setObjectName(u"keychainMessage"_s);

    m_keyLabel = new QLabel(this);
    m_key = new SecretLineEdit(this);
    m_key->setObjectName(u"keyEdit"_s);
    m_keyLabel->setBuddy(m_key);
    m_save = new QPushButton(this);
    m_save->setObjectName(u"saveKeyButton"_s);
    m_remove = new QPushButton(this);
    m_remove->setObjectName(u"removeKeyButton"_s);
    m_message = new InlineMessage(this);
    m_message->setObjectName(u"keyMessage"_s);

    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_save);
    keyRow->addWidget(m_remove);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tree);
    layout->addWidget(m_keychainMessage);
    layout->addWidget(m_keyLabel);
    layout->addLayout(keyRow);
    layout->addWidget(m_message);

    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this] {
        select();
        if (const ProviderStatus *status = current(); status && status->custom)
            Q_EMIT customProviderSelected(status->id);
    });
    connect(m_save, &QPushButton::clicked, this, &ProviderKeysBox::saveKey);
    connect(m_key, &SecretLineEdit::returnPressed, this, &ProviderKeysBox::saveKey);
    connect(m_remove, &QPushButton::clicked, this, &ProviderKeysBox::removeKey);

    retranslateUi();
    if (m_tree->topLevelItemCount() > 0)
        m_tree->setCurrentItem(m_tree->topLevelItem(0));
    readKeychain();
}

void ProviderKeysBox::retranslateUi()
{
    setTitle(tr("Providers"));
    m_tree->setHeaderLabels({tr("Provider"), tr("Key")});
    m_save->setText(tr("Save Key"));
    m_remove->setText(tr("Remove Key"));
    rebuild(); // where each key comes from, in words
}

void ProviderKeysBox::changeEvent(QEvent *event)
{
    QGroupBox::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    retranslateUi();
    if (!m_secrets)
        readKeychain(); // says again, in the new words, that there is none
}

void ProviderKeysBox::readKeychain()
{
    if (!m_secrets) {
        m_keychainMessage->showInfo(tr("qcode has no system keychain to keep keys in. Each provider's key can "
                                       "come from its environment variable instead."));
        return;
    }
    for (const ProviderStatus &status : std::as_const(m_statuses)) {
        const QString id = status.id;
        QCoro::connect(m_secrets->readKey(id), this, [this, id](const Result<std::optional<QString>> &key) {
            if (key) {
                setKeyStored(id, key->has_value() && !(*key)->isEmpty());
                const FallbackSecretStore *fallback = FallbackSecretStore::of(m_secrets);
                if (fallback && fallback->usesKeyFile() && !m_keyFileSaid) {
                    m_keyFileSaid = true;
                    m_keychainMessage->showInfo(KeychainMessages::keysInKeyFile(fallback->keyFilePath()));
                }
                return;
            }
            if (!m_keychainProblem.isEmpty())
                return; // one sentence about the keychain is enough
            m_keychainProblem = key.errorMessage();
            qCWarning(lcSettings).noquote() << "keychain not readable:" << m_keychainProblem;
            m_keychainMessage->showError(KeychainMessages::unreadable(m_keychainProblem));
        });
    }
}

void ProviderKeysBox::setConfig(const Config &config)
{
    m_config = config;
    rebuild();
}

void ProviderKeysBox::setKeyStored(const QString &providerID, bool stored)
{
    if (stored == m_keychainIds.contains(providerID))
        return;
    if (stored)
        m_keychainIds.insert(providerID);
    else
        m_keychainIds.remove(providerID);
    rebuild();
}

void ProviderKeysBox::rebuild()
{
    const QString selected = current() ? current()->id : QString();
    m_statuses = ProviderStatus::list(m_catalogue, m_config, m_environment, m_keychainIds);
    const QSignalBlocker blocker(m_tree);
    m_tree->clear();
    for (const ProviderStatus &status : std::as_const(m_statuses)) {
        auto *item = new QTreeWidgetItem(m_tree, {status.custom ? tr("%1 (custom)").arg(status.name) : status.name,
                                                  status.keyDescription()});
        item->setData(0, Qt::UserRole, status.id);
        item->setToolTip(0, status.id);
        if (status.id == selected)
            m_tree->setCurrentItem(item);
    }
    select();
}

const ProviderStatus *ProviderKeysBox::current() const
{
    const QTreeWidgetItem *item = m_tree ? m_tree->currentItem() : nullptr;
    if (!item)
        return nullptr;
    const QString id = item->data(0, Qt::UserRole).toString();
    for (const ProviderStatus &status : m_statuses) {
        if (status.id == id)
            return &status;
    }
    return nullptr;
}

void ProviderKeysBox::select()
{
    const ProviderStatus *status = current();
    m_key->setEnabled(status && !m_busy);
    m_save->setEnabled(status && !m_busy);
    m_remove->setEnabled(status && !m_busy && m_keychainIds.contains(status->id));
    if (!status) {
        m_keyLabel->setText(tr("Pick a provider to set its key."));
        return;
    }
    m_keyLabel->setText(tr("API key for %1:").arg(status->name));
    switch (status->keySource) {
    case KeySource::Environment:
        m_key->setPlaceholderText(tr("Using %1; a key saved here is used instead").arg(status->keyVariable));
        break;
    case KeySource::Config:
        m_key->setPlaceholderText(tr("The config's options.apiKey is used before any key saved here"));
        break;
    case KeySource::Keychain:
        m_key->setPlaceholderText(tr("A key is saved; paste a new one to replace it"));
        break;
    case KeySource::None:
        m_key->setPlaceholderText(status->env.isEmpty() ? tr("Paste the key")
                                                        : tr("Paste the key, or set %1").arg(status->env.join(u", "_s)));
        break;
    }
}

void ProviderKeysBox::setBusy(bool busy)
{
    m_busy = busy;
    select();
}

void ProviderKeysBox::saveKey()
{
    const ProviderStatus *status = current();
    if (!status || m_busy)
        return;
    const QString key = m_key->text().trimmed();
    if (key.isEmpty()) {
        m_message->showError(tr("Paste the key for %1 first.").arg(status->name));
        return;
    }
    const QString id = status->id, name = status->name, variable = status->suggestedVariable();
    if (!m_secrets) {
        m_message->showError(KeychainMessages::keyNotSaved(name, tr("No system keychain is available."), variable));
        return;
    }
    setBusy(true);
    m_message->showInfo(tr("Saving the key for %1 in the system keychain…").arg(name));
    QCoro::connect(m_secrets->writeKey(id, key), this, [this, id, name, variable](const Result<void> &written) {
        setBusy(false);
        if (!written) {
            qCWarning(lcSettings).noquote() << "key for" << id << "not stored:" << written.errorMessage();
            m_message->showError(KeychainMessages::keyNotSaved(name, written.errorMessage(), variable));
            return;
        }
        m_key->clear();
        setKeyStored(id, true);
        if (const FallbackSecretStore *fallback = FallbackSecretStore::of(m_secrets); fallback && fallback->usesKeyFile())
            m_message->showSuccess(KeychainMessages::savedInKeyFile(name, fallback->keyFilePath()));
        else
            m_message->showSuccess(tr("The key for %1 is saved in the system keychain.").arg(name));
    });
}

void ProviderKeysBox::removeKey()
{
    const ProviderStatus *status = current();
    if (!status || m_busy || !m_secrets)
        return;
    const QString id = status->id, name = status->name;
    setBusy(true);
    QCoro::connect(m_secrets->deleteKey(id), this, [this, id, name](const Result<void> &removed) {
        setBusy(false);
        if (!removed) {
            m_message->showError(KeychainMessages::keyNotRemoved(name, removed.errorMessage()));
            return;
        }
        setKeyStored(id, false);
        m_message->showSuccess(tr("The key for %1 is removed from the system keychain.").arg(name));
    });
}

} // namespace qcode
