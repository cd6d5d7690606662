#include "CompatibleProviderForm.h"

#include <QDir>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <QCoro/QCoroTask>

#include "ConnectionTester.h"
#include "InlineMessage.h"
#include "KeychainMessages.h"
#include "SecretLineEdit.h"
#include "SettingsLogging.h"
#include "engine/config/FallbackSecretStore.h"
#include "engine/config/SecretStore.h"
#include "ui/support/FormLabels.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QStringList splitModels(const QString &text)
{
    static const QRegularExpression separators(u"[,\\s]+"_s);
    QStringList models = text.split(separators, Qt::SkipEmptyParts);
    models.removeDuplicates();
    return models;
}

} // namespace

CompatibleProviderForm::CompatibleProviderForm(QString configDirectory, QStringList reservedIds, SecretStore *secrets,
                                               QNetworkAccessManager *network, QWidget *parent)
    : QGroupBox(parent)
    , m_configDirectory(std::move(configDirectory))
    , m_reservedIds(std::move(reservedIds))
    , m_secrets(secrets)
    , m_tester(new ConnectionTester(network, this))
{
    const auto field = [this](const QString &name) {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(name);
        return edit;
    };
    m_id = field(u"providerId"_s);
    m_name = field(u"providerName"_s);
    m_baseUrl = field(u"providerBaseUrl"_s);
    m_key = new SecretLineEdit(this);
    m_key->setObjectName(u"providerKey"_s);
    m_models = field(u"providerModels"_s);

    m_test = new QPushButton(this);
    m_test->setObjectName(u"testConnectionButton"_s);
    m_save = new QPushButton(this);
    m_save->setObjectName(u"saveProviderButton"_s);
    m_remove = new QPushButton(this);
    m_remove->setObjectName(u"removeProviderButton"_s);
    m_remove->setEnabled(false);
    m_new = new QPushButton(this);
    m_new->setObjectName(u"newProviderButton"_s);
    m_message = new InlineMessage(this);
    m_message->setObjectName(u"providerMessage"_s);

    m_form = new QFormLayout;
    for (QWidget *field : std::initializer_list<QWidget *>{m_id, m_name, m_baseUrl, m_key, m_models})
        addFormRow(m_form, field);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_test);
    buttons->addStretch();
    buttons->addWidget(m_new);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addLayout(buttons);
    layout->addWidget(m_message);

    connect(m_test, &QPushButton::clicked, this, &CompatibleProviderForm::testConnection);
    connect(m_save, &QPushButton::clicked, this, &CompatibleProviderForm::save);
    connect(m_remove, &QPushButton::clicked, this, &CompatibleProviderForm::remove);
    connect(m_new, &QPushButton::clicked, this, &CompatibleProviderForm::clearForm);
    connect(m_tester, &ConnectionTester::connected, this, [this](const QStringList &models) {
        m_test->setEnabled(true);
        QString sentence = tr("Connected: %n model(s).", nullptr, int(models.size()));
        if (m_models->text().trimmed().isEmpty() && !models.isEmpty()) {
            m_models->setText(models.join(u", "_s));
            sentence += QLatin1Char(' ') + tr("Their ids are filled in under Models.");
        }
        m_message->showSuccess(sentence);
    });
    connect(m_tester, &ConnectionTester::failed, this, [this](const QString &message) {
        m_test->setEnabled(true);
        m_message->showError(message);
    });
    retranslateUi();
}

void CompatibleProviderForm::retranslateUi()
{
    setTitle(tr("OpenAI-compatible server"));
    m_id->setPlaceholderText(tr("my-server"));
    m_name->setPlaceholderText(tr("My Server"));
    m_baseUrl->setPlaceholderText(tr("http://127.0.0.1:8000/v1"));
    setStoredKey(m_storedKey); // its placeholder
    m_models->setPlaceholderText(tr("Model ids, separated by commas"));
    setFormLabel(m_form, m_id, tr("&Id:"));
    setFormLabel(m_form, m_name, tr("&Name:"));
    setFormLabel(m_form, m_baseUrl, tr("&Base URL:"));
    setFormLabel(m_form, m_key, tr("API &key:"));
    setFormLabel(m_form, m_models, tr("&Models:"));
    m_test->setText(tr("Test Connection"));
    m_save->setText(tr("Save"));
    m_remove->setText(tr("Remove"));
    m_new->setText(tr("New"));
}

void CompatibleProviderForm::changeEvent(QEvent *event)
{
    QGroupBox::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

CompatibleProvider CompatibleProviderForm::provider() const
{
    CompatibleProvider p;
    p.id = m_id->text().trimmed();
    p.name = m_name->text().trimmed();
    p.baseURL = m_baseUrl->text().trimmed();
    p.models = splitModels(m_models->text());
    p.env = m_env.isEmpty() ? QStringList{CompatibleProvider::keyVariable(p.id)} : m_env;
    return p;
}

void CompatibleProviderForm::edit(const QString &providerID, const QJsonObject &entry)
{
    m_tester->cancel();
    m_id->setText(providerID);
    m_name->setText(entry.value("name"_L1).toString());
    const QJsonObject options = entry.value("options"_L1).toObject();
    m_baseUrl->setText(options.value("baseURL"_L1).toString(entry.value("api"_L1).toString()));
    m_models->setText(entry.value("models"_L1).toObject().keys().join(u", "_s));
    m_key->clear();
    m_env.clear();
    for (const QJsonValue &variable : entry.value("env"_L1).toArray())
        m_env.append(variable.toString());
    m_env.removeAll(QString());
    m_savedID = providerID;
    m_remove->setEnabled(true);
    m_message->dismiss();
    readStoredKey(providerID);
}

void CompatibleProviderForm::readStoredKey(const QString &providerID)
{
    const int generation = ++m_generation;
    setStoredKey(std::nullopt);
    if (!m_secrets)
        return;
    QCoro::connect(m_secrets->readKey(providerID), this,
                   [this, generation](const Result<std::optional<QString>> &key) {
                       // A keychain that cannot be read is reported once, above the list.
                       if (generation != m_generation || !key || !key->has_value() || (*key)->isEmpty())
                           return;
                       setStoredKey(**key);
                   });
}

void CompatibleProviderForm::setStoredKey(const std::optional<QString> &key)
{
    m_storedKey = key;
    m_key->setPlaceholderText(key ? tr("A key is saved in the system keychain; paste another to replace it")
                                  : tr("Optional; kept in the system keychain"));
}

void CompatibleProviderForm::editServer(const LocalServer &server)
{
    clearForm();
    m_id->setText(server.providerID);
    m_name->setText(server.name);
    m_baseUrl->setText(server.apiBaseUrl().toString());
    m_models->setText(server.models.join(u", "_s));
}

void CompatibleProviderForm::clearForm()
{
    m_tester->cancel();
    for (QLineEdit *edit : {m_id, m_name, m_baseUrl, m_models})
        edit->clear();
    m_key->clear();
    m_env.clear();
    m_savedID.clear();
    ++m_generation;
    setStoredKey(std::nullopt);
    m_remove->setEnabled(false);
    m_test->setEnabled(true);
    m_message->dismiss();
}

void CompatibleProviderForm::testConnection()
{
    if (Result<void> valid = CompatibleProvider::validateBaseURL(m_baseUrl->text()); !valid) {
        m_message->showError(valid.errorMessage());
        return;
    }
    const QUrl url(m_baseUrl->text().trimmed(), QUrl::StrictMode);
    m_test->setEnabled(false);
    m_message->showInfo(tr("Asking %1 for its models…").arg(ConnectionTester::modelsUrl(url).toString()));
    QString key = m_key->text().trimmed();
    if (key.isEmpty() && m_storedKey && m_id->text().trimmed() == m_savedID)
        key = *m_storedKey;
    m_tester->start(url, key);
}

void CompatibleProviderForm::setBusy(bool busy)
{
    m_busy = busy;
    m_save->setEnabled(!busy);
    m_remove->setEnabled(!busy && !m_savedID.isEmpty());
}

void CompatibleProviderForm::save()
{
    if (m_busy)
        return;
    const CompatibleProvider p = provider();
    if (Result<void> valid = p.validate(); !valid) {
        m_message->showError(valid.errorMessage());
        return;
    }
    if (m_reservedIds.contains(p.id)) {
        m_message->showError(tr("“%1” is one of qcode's built-in providers; give this server another id, such as "
                                "%1-proxy.")
                                 .arg(p.id));
        return;
    }
    UserConfigWriter writer(m_configDirectory);
    if (Result<void> written = writer.setProvider(p); !written) {
        m_message->showError(written.errorMessage());
        return;
    }
    if (!m_savedID.isEmpty() && m_savedID != p.id) {
        // Renamed: the old entry goes, so one server is not listed twice.
        if (Result<void> removed = writer.removeProvider(m_savedID); !removed)
            qCWarning(lcSettings).noquote() << "old provider entry kept:" << removed.errorMessage();
        else
            Q_EMIT providerRemoved(m_savedID);
    }
    m_savedID = p.id;
    m_env = p.env;
    const Result<QJsonObject> saved = writer.read();
    Q_EMIT providerSaved(p.id, saved ? saved->value("provider"_L1).toObject().value(p.id).toObject() : QJsonObject());

    const QString shown = QDir::toNativeSeparators(writer.filePath());
    const QString name = p.name.isEmpty() ? p.id : p.name;
    const QString savedSentence =
        tr("Saved %1 to %2; its models are named %3/<model>.").arg(name, shown, p.id);
    const QString key = m_key->text().trimmed();
    if (key.isEmpty()) {
        setBusy(false);
        m_message->showSuccess(savedSentence);
        return;
    }
    storeKey(p.id, name, key, savedSentence);
}

namespace {

// Where the key went: the keychain, or the private file where none runs.
QString keySavedSentence(const SecretStore *secrets, const QString &name)
{
    if (const FallbackSecretStore *fallback = FallbackSecretStore::of(secrets); fallback && fallback->usesKeyFile())
        return KeychainMessages::savedInKeyFile(name, fallback->keyFilePath());
    return CompatibleProviderForm::tr("Its key is in the system keychain.");
}

} // namespace

void CompatibleProviderForm::storeKey(const QString &providerID, const QString &name, const QString &key,
                                      const QString &savedSentence)
{
    const QString variable = provider().env.value(0, CompatibleProvider::keyVariable(providerID));
    if (!m_secrets) {
        setBusy(false);
        m_message->showError(savedSentence + QLatin1Char(' ')
                             + KeychainMessages::keyNotSaved(name, tr("No system keychain is available."), variable));
        return;
    }
    setBusy(true);
    m_message->showInfo(savedSentence + QLatin1Char(' ') + tr("Saving its key in the system keychain…"));
    QCoro::connect(m_secrets->writeKey(providerID, key), this,
                   [this, providerID, name, key, variable, savedSentence](const Result<void> &written) {
                       setBusy(false);
                       if (!written) {
                           qCWarning(lcSettings).noquote()
                               << "key for" << providerID << "not stored:" << written.errorMessage();
                           m_message->showError(
                               savedSentence + QLatin1Char(' ')
                               + KeychainMessages::keyNotSaved(name, written.errorMessage(), variable));
                           return;
                       }
                       m_key->clear();
                       if (providerID == m_savedID)
                           setStoredKey(key);
                       Q_EMIT keyStored(providerID, true);
                       m_message->showSuccess(savedSentence + QLatin1Char(' ')
                                              + keySavedSentence(m_secrets, name));
                   });
}

void CompatibleProviderForm::remove()
{
    if (m_busy || m_savedID.isEmpty())
        return;
    const QString id = m_savedID;
    UserConfigWriter writer(m_configDirectory);
    if (Result<void> removed = writer.removeProvider(id); !removed) {
        m_message->showError(removed.errorMessage());
        return;
    }
    m_savedID.clear();
    setStoredKey(std::nullopt);
    m_remove->setEnabled(false);
    Q_EMIT providerRemoved(id);
    const QString sentence = tr("Removed %1 from %2.").arg(id, QDir::toNativeSeparators(writer.filePath()));
    m_message->showSuccess(sentence);
    if (!m_secrets)
        return;
    QCoro::connect(m_secrets->deleteKey(id), this, [this, id, sentence](const Result<void> &deleted) {
        if (!deleted) {
            m_message->showError(sentence + QLatin1Char(' ')
                                 + KeychainMessages::keyNotRemoved(id, deleted.errorMessage()));
            return;
        }
        Q_EMIT keyStored(id, false);
    });
}

} // namespace qcode
