#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <QCoro/QCoroTimer>

#include "EngineHarness.h"
#include "FakeProviderServer.h"
#include "TempTree.h"
#include "engine/config/FallbackSecretStore.h"
#include "engine/config/SecretStore.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/CompatibleProviderForm.h"
#include "ui/settings/ConnectionTester.h"
#include "ui/settings/DataPage.h"
#include "ui/settings/InlineMessage.h"
#include "ui/settings/SecretLineEdit.h"
#include "ui/settings/SettingsDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// A keychain that answers a moment later, as a real one does, records
// every write, and fails every call while `failure` is set.
class RecordingSecretStore : public SecretStore
{
public:
    QHash<QString, QString> keys;
    QList<std::pair<QString, QString>> writes;
    QStringList deletes;
    std::optional<QString> failure;

    QCoro::Task<Result<std::optional<QString>>> readKey(QString providerID) override
    {
        co_await QCoro::sleepFor(std::chrono::milliseconds(1));
        if (failure)
            co_return Error{*failure};
        co_return keys.contains(providerID) ? std::optional(keys.value(providerID)) : std::nullopt;
    }

    QCoro::Task<Result<void>> writeKey(QString providerID, QString key) override
    {
        co_await QCoro::sleepFor(std::chrono::milliseconds(1));
        writes.append({providerID, key});
        if (failure)
            co_return Error{*failure};
        keys.insert(providerID, key);
        co_return Result<void>();
    }

    QCoro::Task<Result<void>> deleteKey(QString providerID) override
    {
        co_await QCoro::sleepFor(std::chrono::milliseconds(1));
        deletes.append(providerID);
        if (failure)
            co_return Error{*failure};
        keys.remove(providerID);
        co_return Result<void>();
    }
};

const QString NoBackend = u"No keychain service available"_s;

QByteArray modelList(const QStringList &ids)
{
    QJsonArray data;
    for (const QString &id : ids)
        data.append(QJsonObject{{u"id"_s, id}, {u"object"_s, u"model"_s}});
    return QJsonDocument(QJsonObject{{u"object"_s, u"list"_s}, {u"data"_s, data}}).toJson();
}

template <typename T>
T *child(QObject *parent, const QString &name)
{
    T *found = parent->findChild<T *>(name);
    if (!found)
        qFatal("the dialog has no %s named %s", T::staticMetaObject.className(), qPrintable(name));
    return found;
}

// Picks an entry of a combo box the way a person does: activated follows.
void choose(QComboBox *combo, const QVariant &data)
{
    const int index = combo->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    combo->setCurrentIndex(index);
    Q_EMIT combo->activated(index);
}

QStringList rowTexts(QTreeWidget *tree)
{
    QStringList rows;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        rows.append(tree->topLevelItem(i)->text(0) + u" | "_s + tree->topLevelItem(i)->text(1));
    return rows;
}

} // namespace

class SettingsDialogTest : public QObject
{
    Q_OBJECT

    TempTree m_tree;
    RecordingSecretStore m_secrets;
    std::unique_ptr<AppSettings> m_app;

    QString configFile() const { return m_tree.path(u"config/qcode/qcode.json"_s); }

    QJsonObject configJson() const
    {
        QFile f(configFile());
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
    }

    QByteArray configText() const
    {
        QFile f(configFile());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    SettingsContext context()
    {
        SettingsContext c;
        c.app = m_app.get();
        c.secrets = &m_secrets;
        c.configDirectory = m_tree.path(u"config/qcode"_s);
        c.dataDirectory = m_tree.path(u"data"_s);
        c.catalogue = ModelCatalogue::bundled();
        c.environment = QProcessEnvironment();
        c.localServerProbes = {};
        c.translationsDirectory = m_tree.path(u"i18n"_s);
        return c;
    }

    static void fillForm(SettingsDialog &dialog, const QString &id, const QString &url, const QString &key,
                         const QString &models)
    {
        child<QLineEdit>(&dialog, u"providerId"_s)->setText(id);
        child<QLineEdit>(&dialog, u"providerName"_s)->setText(id.isEmpty() ? QString() : u"Lab Server"_s);
        child<QLineEdit>(&dialog, u"providerBaseUrl"_s)->setText(url);
        child<SecretLineEdit>(&dialog, u"providerKey"_s)->setText(key);
        child<QLineEdit>(&dialog, u"providerModels"_s)->setText(models);
    }

    static InlineMessage *message(SettingsDialog &dialog, const QString &name)
    {
        return child<InlineMessage>(&dialog, name);
    }

private Q_SLOTS:
    void initTestCase();
    void init();

    void pagesAreListedAndShownByName();
    void theContextIsReadAsTheEngineReadsTheConfig();

    void testConnectionShowsHowManyModelsTheServerHas();
    void testConnectionToAClosedPortSaysWhy();
    void testConnectionShowsTheServersOwnError();
    void testConnectionGivesUpAfterItsTimeout();
    void anInvalidBaseUrlIsRefusedBeforeAnyRequest();
    void testingASavedProviderSendsTheKeyFromTheKeychain();

    void savingACustomProviderWritesQcodeJsonAndTheKeyToTheKeychain();
    void aKeychainFailureIsShownAndNotPassedOffAsSaved();
    void savingRefusesAnEmptyOrBuiltInId();
    void anInvalidQcodeJsonIsNamedAndLeftUntouched();
    void removingACustomProviderTakesItOutOfQcodeJson();

    void providersShowWhereTheirKeyComesFrom();
    void aKeyForACatalogueProviderGoesToTheKeychain();
    void withoutAKeychainAKeyIsSavedInAPrivateFileAndTheDialogSaysWhere();
    void aKeyIsMaskedUntilShown();
    void localServersAreFoundInTheBackground();

    void defaultModelAndAgentAreWrittenToQcodeJson();
    void aModelThatIsNotProviderSlashModelIsRefused();
    void permissionDefaultsAreWrittenToQcodeJson();
    void handWrittenPatternRulesAreShownAndKept();

    void theConfiguredRulesAreListedBesideTheSavedAnswers();
    void deletingASavedApprovalKeepsTheRest();
    void withoutAProjectTheApprovalsSaySo();

    void themeFontLanguageAndNotificationsPersist();
    void appSettingsSignalOnlyRealChanges();
    void theDataFolderChangesForTheNextStart();
};

void SettingsDialogTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-settings-tests"_s);
}

void SettingsDialogTest::init()
{
    QVERIFY(m_tree.reset());
    QSettings().clear();
    m_app = std::make_unique<AppSettings>();
    m_secrets.keys.clear();
    m_secrets.writes.clear();
    m_secrets.deletes.clear();
    m_secrets.failure.reset();
}

void SettingsDialogTest::pagesAreListedAndShownByName()
{
    SettingsDialog dialog(context());
    auto *list = child<QListWidget>(&dialog, u"pageList"_s);
    QCOMPARE(list->count(), 4);
    QCOMPARE(dialog.currentPage(), u"providers"_s);
    dialog.showPage(u"permissions"_s);
    QCOMPARE(child<QStackedWidget>(&dialog, u"pages"_s)->currentWidget()->objectName(), u"permissions"_s);
    dialog.showPage(u"no-such-page"_s);
    QCOMPARE(dialog.currentPage(), u"permissions"_s);
}

void SettingsDialogTest::theContextIsReadAsTheEngineReadsTheConfig()
{
    QVERIFY(m_tree.write(u"home/.config/opencode/opencode.json"_s,
                         R"({"model": "openai/gpt-5", "agent": {"review": {"mode": "primary", "name": "Reviewer", )"
                         R"("prompt": "Review."}, "helper": {"mode": "subagent", "prompt": "Help."}}})"));
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s, R"({"default_agent": "plan"})"));
    ConfigLocations locations;
    locations.homeDirectory = m_tree.path(u"home"_s);
    locations.globalDirectories = {m_tree.path(u"home/.config/opencode"_s), m_tree.path(u"config/qcode"_s)};
    locations.projectDirectory = m_tree.path(u"project"_s);
    QVERIFY(QDir().mkpath(locations.projectDirectory));

    SettingsContext c;
    c.loadConfiguration(locations, m_tree.path(u"data"_s));
    QCOMPARE(c.configDirectory, m_tree.path(u"config/qcode"_s));
    QCOMPARE(c.dataDirectory, m_tree.path(u"data"_s));
    QCOMPARE(c.config.model().value_or(QString()), u"openai/gpt-5"_s);
    // By the key default_agent takes, build first (what an unset key means),
    // without subagents or hidden ones.
    QCOMPARE(c.agents, (QStringList{u"build"_s, u"plan"_s, u"review"_s}));
}

void SettingsDialogTest::testConnectionShowsHowManyModelsTheServerHas()
{
    FakeProviderServer server;
    server.enqueue(FakeTurn::raw(200, "application/json", modelList({u"qwen3"_s, u"llama3"_s, u"phi4"_s})));
    SettingsDialog dialog(context());
    fillForm(dialog, u"lab"_s, server.baseUrl().toString() + u"/v1/"_s, u"sk-lab"_s, {});
    child<QPushButton>(&dialog, u"testConnectionButton"_s)->click();

    // "model(s)" until an English translation picks the plural.
    QTRY_VERIFY(message(dialog, u"providerMessage"_s)->text().startsWith(u"Connected: 3 model"_s));
    QCOMPARE(message(dialog, u"providerMessage"_s)->kind(), InlineMessage::Kind::Success);
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().at(0).method, QByteArray("GET"));
    QCOMPARE(server.requests().at(0).path, QByteArray("/v1/models"));
    QCOMPARE(server.requests().at(0).header("Authorization"), QByteArray("Bearer sk-lab"));
    // An empty model list is filled from the answer.
    QCOMPARE(child<QLineEdit>(&dialog, u"providerModels"_s)->text(), u"qwen3, llama3, phi4"_s);
    QVERIFY(!QFile::exists(configFile())); // testing saves nothing
}

void SettingsDialogTest::testConnectionToAClosedPortSaysWhy()
{
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 port = closed.serverPort();
    closed.close();
    SettingsDialog dialog(context());
    fillForm(dialog, u"lab"_s, u"http://127.0.0.1:%1/v1"_s.arg(port), {}, {});
    child<QPushButton>(&dialog, u"testConnectionButton"_s)->click();

    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().contains(u"Could not reach http://127.0.0.1:%1/v1/models"_s.arg(port)),
             qPrintable(shown->text()));
    QVERIFY2(shown->text().contains(u"refused"_s, Qt::CaseInsensitive), qPrintable(shown->text()));
    QVERIFY(child<QPushButton>(&dialog, u"testConnectionButton"_s)->isEnabled());
}

void SettingsDialogTest::testConnectionShowsTheServersOwnError()
{
    FakeProviderServer server;
    server.enqueue(FakeTurn::httpError(401, R"({"error":{"message":"Incorrect API key provided","type":"auth"}})"));
    SettingsDialog dialog(context());
    fillForm(dialog, u"lab"_s, server.baseUrl().toString() + u"/v1"_s, u"wrong"_s, {});
    child<QPushButton>(&dialog, u"testConnectionButton"_s)->click();

    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().contains(u"HTTP status 401: Incorrect API key provided"_s), qPrintable(shown->text()));
    QVERIFY(shown->text().contains(u"Check the API key."_s));
}

void SettingsDialogTest::testConnectionGivesUpAfterItsTimeout()
{
    FakeProviderServer server;
    server.enqueue(FakeTurn().stallBeforeHeaders());
    SettingsDialog dialog(context());
    dialog.findChild<CompatibleProviderForm *>()->tester()->setTimeout(std::chrono::milliseconds(300));
    fillForm(dialog, u"lab"_s, server.baseUrl().toString() + u"/v1"_s, {}, {});
    child<QPushButton>(&dialog, u"testConnectionButton"_s)->click();

    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().contains(u"did not answer within 1 second"_s), qPrintable(shown->text()));
}

void SettingsDialogTest::anInvalidBaseUrlIsRefusedBeforeAnyRequest()
{
    SettingsDialog dialog(context());
    fillForm(dialog, u"lab"_s, u"localhost:8000/v1"_s, {}, {});
    child<QPushButton>(&dialog, u"testConnectionButton"_s)->click();
    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY(shown->text().contains(u"“localhost:8000/v1” is not a usable base URL"_s));
    QVERIFY(!dialog.findChild<CompatibleProviderForm *>()->tester()->isRunning());
}

void SettingsDialogTest::testingASavedProviderSendsTheKeyFromTheKeychain()
{
    FakeProviderServer server;
    server.enqueue(FakeTurn::raw(200, "application/json", modelList({u"qwen3"_s})));
    const QString baseUrl = server.baseUrl().toString() + u"/v1"_s;
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s,
                         QJsonDocument(QJsonObject{{u"provider"_s, QJsonObject{{u"lab"_s, QJsonObject{
                             {u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                             {u"name"_s, u"Lab"_s},
                             {u"options"_s, QJsonObject{{u"baseURL"_s, baseUrl}}},
                             {u"models"_s, QJsonObject{{u"qwen3"_s, QJsonObject{}}}},
                         }}}}})
                             .toJson()));
    m_secrets.keys.insert(u"lab"_s, u"sk-saved"_s);
    SettingsContext c = context();
    c.config = Config::fromJson(configJson());
    SettingsDialog dialog(c);
    auto *tree = child<QTreeWidget>(&dialog, u"providerTree"_s);
    tree->setCurrentItem(tree->findItems(u"Lab (custom)"_s, Qt::MatchExactly).value(0));
    auto *key = child<SecretLineEdit>(&dialog, u"providerKey"_s);
    QTRY_VERIFY(key->lineEdit()->placeholderText().startsWith(u"A key is saved"_s));
    QVERIFY(key->text().isEmpty()); // the saved key is never put on screen

    child<QPushButton>(&dialog, u"testConnectionButton"_s)->click();
    QTRY_VERIFY(message(dialog, u"providerMessage"_s)->text().startsWith(u"Connected: 1 model"_s));
    QCOMPARE(server.requests().at(0).header("Authorization"), QByteArray("Bearer sk-saved"));
}

void SettingsDialogTest::savingACustomProviderWritesQcodeJsonAndTheKeyToTheKeychain()
{
    SettingsDialog dialog(context());
    fillForm(dialog, u"lab"_s, u"http://10.0.0.5:8000/v1"_s, u"sk-lab-secret"_s, u"qwen3, llama3"_s);
    child<QPushButton>(&dialog, u"saveProviderButton"_s)->click();

    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Success);
    QVERIFY2(shown->text().contains(u"Its key is in the system keychain."_s), qPrintable(shown->text()));
    QCOMPARE(m_secrets.writes, (QList<std::pair<QString, QString>>{{u"lab"_s, u"sk-lab-secret"_s}}));

    const QJsonObject entry = configJson().value("provider"_L1).toObject().value("lab"_L1).toObject();
    QCOMPARE(entry.value("npm"_L1).toString(), u"@ai-sdk/openai-compatible"_s);
    QCOMPARE(entry.value("name"_L1).toString(), u"Lab Server"_s);
    QCOMPARE(entry.value("options"_L1).toObject(), (QJsonObject{{u"baseURL"_s, u"http://10.0.0.5:8000/v1"_s}}));
    QCOMPARE(entry.value("models"_L1).toObject().keys(), (QStringList{u"llama3"_s, u"qwen3"_s}));
    QVERIFY(!configText().contains("sk-lab-secret"));
    QVERIFY(!configText().contains("apiKey"));

    // The key field is emptied, and the list knows the new provider and its key.
    QVERIFY(child<SecretLineEdit>(&dialog, u"providerKey"_s)->text().isEmpty());
    QVERIFY(rowTexts(child<QTreeWidget>(&dialog, u"providerTree"_s))
                .contains(u"Lab Server (custom) | Key in the system keychain"_s));
    // And its models can be picked as the default.
    QVERIFY(child<QComboBox>(&dialog, u"modelCombo"_s)->findData(u"lab/qwen3"_s) >= 0);
}

void SettingsDialogTest::aKeychainFailureIsShownAndNotPassedOffAsSaved()
{
    m_secrets.failure = NoBackend;
    SettingsDialog dialog(context());
    fillForm(dialog, u"lab"_s, u"http://10.0.0.5:8000/v1"_s, u"sk-lab-secret"_s, u"qwen3"_s);
    child<QPushButton>(&dialog, u"saveProviderButton"_s)->click();

    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().contains(u"The key for Lab Server was not saved."_s), qPrintable(shown->text()));
    QVERIFY(shown->text().contains(NoBackend));
    QVERIFY(shown->text().contains(u"set the environment variable LAB_API_KEY"_s));
    QCOMPARE(m_secrets.writes.size(), 1);
    QVERIFY(m_secrets.keys.isEmpty());
    // The provider itself is saved, with the variable that can hold its key;
    // the key stays in the field, not lost.
    QCOMPARE(configJson().value("provider"_L1).toObject().value("lab"_L1).toObject().value("env"_L1).toArray(),
             QJsonArray{u"LAB_API_KEY"_s});
    QCOMPARE(child<SecretLineEdit>(&dialog, u"providerKey"_s)->text(), u"sk-lab-secret"_s);
    QVERIFY(!rowTexts(child<QTreeWidget>(&dialog, u"providerTree"_s))
                 .contains(u"Lab Server (custom) | Key in the system keychain"_s));
    // Reading the keychain failed as well, and the page says so once, in
    // whole sentences around the keychain's own words.
    QTRY_COMPARE(message(dialog, u"keychainMessage"_s)->kind(), InlineMessage::Kind::Error);
    QCOMPARE(message(dialog, u"keychainMessage"_s)->text(),
             u"The system keychain cannot be read. No keychain service available. Keys can still come from "
             "environment variables."_s);
}

void SettingsDialogTest::savingRefusesAnEmptyOrBuiltInId()
{
    SettingsDialog dialog(context());
    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    fillForm(dialog, {}, u"http://10.0.0.5:8000/v1"_s, u"sk"_s, u"qwen3"_s);
    child<QPushButton>(&dialog, u"saveProviderButton"_s)->click();
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().startsWith(u"Give the provider an id"_s), qPrintable(shown->text()));

    fillForm(dialog, u"openai"_s, u"http://10.0.0.5:8000/v1"_s, u"sk"_s, u"qwen3"_s);
    child<QPushButton>(&dialog, u"saveProviderButton"_s)->click();
    QVERIFY2(shown->text().contains(u"built-in"_s), qPrintable(shown->text()));

    fillForm(dialog, u"lab"_s, u"http://10.0.0.5:8000/v1"_s, u"sk"_s, {});
    child<QPushButton>(&dialog, u"saveProviderButton"_s)->click();
    QVERIFY2(shown->text().contains(u"at least one model"_s), qPrintable(shown->text()));

    QVERIFY(!QFile::exists(configFile()));
    QVERIFY(m_secrets.writes.isEmpty());
}

void SettingsDialogTest::anInvalidQcodeJsonIsNamedAndLeftUntouched()
{
    const QByteArray broken = "{\n  \"model\": \"openai/gpt-5\"\n  \"small_model\": \"x/y\"\n}\n";
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s, broken));
    SettingsDialog dialog(context());
    // The General page says so as soon as it opens.
    QCOMPARE(message(dialog, u"generalMessage"_s)->kind(), InlineMessage::Kind::Error);

    fillForm(dialog, u"lab"_s, u"http://10.0.0.5:8000/v1"_s, u"sk-lab"_s, u"qwen3"_s);
    child<QPushButton>(&dialog, u"saveProviderButton"_s)->click();
    InlineMessage *shown = message(dialog, u"providerMessage"_s);
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().contains(QDir::toNativeSeparators(configFile())), qPrintable(shown->text()));
    QVERIFY2(shown->text().contains(u"line 3"_s), qPrintable(shown->text()));
    QCOMPARE(configText(), broken);
    QVERIFY(m_secrets.writes.isEmpty()); // nothing half-saved
    QCOMPARE(child<QLineEdit>(&dialog, u"providerId"_s)->text(), u"lab"_s);
    QCOMPARE(child<SecretLineEdit>(&dialog, u"providerKey"_s)->text(), u"sk-lab"_s);
}

void SettingsDialogTest::removingACustomProviderTakesItOutOfQcodeJson()
{
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s,
                         R"({"model": "lab/qwen3", "provider": {"lab": {"npm": "@ai-sdk/openai-compatible", )"
                         R"("name": "Lab", "options": {"baseURL": "http://10.0.0.5:8000/v1"}, )"
                         R"("models": {"qwen3": {}}}}})"));
    SettingsContext c = context();
    c.config = Config::fromJson(configJson());
    m_secrets.keys.insert(u"lab"_s, u"sk"_s);
    SettingsDialog dialog(c);
    auto *tree = child<QTreeWidget>(&dialog, u"providerTree"_s);
    const QList<QTreeWidgetItem *> rows = tree->findItems(u"Lab (custom)"_s, Qt::MatchExactly);
    QCOMPARE(rows.size(), 1);
    tree->setCurrentItem(rows.first()); // fills the form
    QCOMPARE(child<QLineEdit>(&dialog, u"providerBaseUrl"_s)->text(), u"http://10.0.0.5:8000/v1"_s);

    child<QPushButton>(&dialog, u"removeProviderButton"_s)->click();
    QVERIFY(!configJson().contains("provider"_L1));
    QCOMPARE(configJson().value("model"_L1).toString(), u"lab/qwen3"_s);
    QTRY_COMPARE(m_secrets.deletes, QStringList{u"lab"_s});
    QVERIFY(tree->findItems(u"Lab (custom)"_s, Qt::MatchExactly).isEmpty());
}

void SettingsDialogTest::providersShowWhereTheirKeyComesFrom()
{
    SettingsContext c = context();
    c.environment.insert(u"ANTHROPIC_API_KEY"_s, u"sk-ant"_s);
    m_secrets.keys.insert(u"openai"_s, u"sk-openai"_s);
    SettingsDialog dialog(c);
    auto *tree = child<QTreeWidget>(&dialog, u"providerTree"_s);
    QVERIFY(rowTexts(tree).contains(u"Anthropic | Key from ANTHROPIC_API_KEY"_s));
    QTRY_VERIFY(rowTexts(tree).contains(u"OpenAI | Key in the system keychain"_s));
    QVERIFY(rowTexts(tree).contains(u"DeepSeek | No key"_s));
    // Local servers have a list of their own.
    QVERIFY(tree->findItems(u"Ollama"_s, Qt::MatchStartsWith).isEmpty());
    QVERIFY(!rowTexts(tree).join(u'\n').contains(u"sk-"_s));
}

void SettingsDialogTest::aKeyForACatalogueProviderGoesToTheKeychain()
{
    SettingsDialog dialog(context());
    auto *tree = child<QTreeWidget>(&dialog, u"providerTree"_s);
    tree->setCurrentItem(tree->findItems(u"DeepSeek"_s, Qt::MatchExactly).value(0));
    child<SecretLineEdit>(&dialog, u"keyEdit"_s)->setText(u"sk-deep"_s);
    child<QPushButton>(&dialog, u"saveKeyButton"_s)->click();
    QTRY_COMPARE(message(dialog, u"keyMessage"_s)->kind(), InlineMessage::Kind::Success);
    QCOMPARE(m_secrets.writes, (QList<std::pair<QString, QString>>{{u"deepseek"_s, u"sk-deep"_s}}));
    QVERIFY(rowTexts(tree).contains(u"DeepSeek | Key in the system keychain"_s));
    QVERIFY(!QFile::exists(configFile()));

    // Without a keychain, the variable to set instead.
    m_secrets.failure = NoBackend;
    tree->setCurrentItem(tree->findItems(u"Anthropic"_s, Qt::MatchExactly).value(0));
    child<SecretLineEdit>(&dialog, u"keyEdit"_s)->setText(u"sk-ant"_s);
    child<QPushButton>(&dialog, u"saveKeyButton"_s)->click();
    InlineMessage *shown = message(dialog, u"keyMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY(shown->text().contains(NoBackend));
    QVERIFY2(shown->text().contains(u"ANTHROPIC_API_KEY"_s), qPrintable(shown->text()));
    QVERIFY(rowTexts(tree).contains(u"Anthropic | No key"_s));

    // An empty field is no key.
    child<SecretLineEdit>(&dialog, u"keyEdit"_s)->clear();
    child<QPushButton>(&dialog, u"saveKeyButton"_s)->click();
    QVERIFY(shown->text().startsWith(u"Paste the key for Anthropic"_s));
}

void SettingsDialogTest::withoutAKeychainAKeyIsSavedInAPrivateFileAndTheDialogSaysWhere()
{
    m_secrets.failure = NoBackend;
    FallbackSecretStore secrets(&m_secrets, FallbackSecretStore::filePathIn(m_tree.path(u"config/qcode"_s)));
    SettingsContext c = context();
    c.secrets = &secrets;
    SettingsDialog dialog(std::move(c));
    // Reading finds no keychain: the page says where keys go instead, not an error.
    QTRY_COMPARE(message(dialog, u"keychainMessage"_s)->kind(), InlineMessage::Kind::Info);
    QVERIFY(message(dialog, u"keychainMessage"_s)->text().contains(u"private file"_s));

    auto *tree = child<QTreeWidget>(&dialog, u"providerTree"_s);
    tree->setCurrentItem(tree->findItems(u"DeepSeek"_s, Qt::MatchExactly).value(0));
    child<SecretLineEdit>(&dialog, u"keyEdit"_s)->setText(u"sk-deep"_s);
    child<QPushButton>(&dialog, u"saveKeyButton"_s)->click();
    InlineMessage *shown = message(dialog, u"keyMessage"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Success);
    QVERIFY2(shown->text().contains(u"private file"_s), qPrintable(shown->text()));
    QVERIFY(shown->text().contains(QDir::toNativeSeparators(secrets.keyFilePath())));
    QFile file(secrets.keyFilePath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value("deepseek"_L1).toString(), u"sk-deep"_s);
    QVERIFY(!QFile::permissions(secrets.keyFilePath()).testFlag(QFileDevice::ReadOther));
}

void SettingsDialogTest::aKeyIsMaskedUntilShown()
{
    SettingsDialog dialog(context());
    auto *key = child<SecretLineEdit>(&dialog, u"providerKey"_s);
    key->setText(u"sk-secret"_s);
    QCOMPARE(key->lineEdit()->echoMode(), QLineEdit::Password);
    key->findChild<QToolButton *>(u"revealToggle"_s)->click();
    QCOMPARE(key->lineEdit()->echoMode(), QLineEdit::Normal);
    key->clear(); // a cleared field masks again for the next key
    QCOMPARE(key->lineEdit()->echoMode(), QLineEdit::Password);
}

void SettingsDialogTest::localServersAreFoundInTheBackground()
{
    FakeProviderServer server;
    server.enqueue(FakeTurn::raw(200, "application/json", modelList({u"qwen2.5-coder"_s, u"gemma3"_s})));
    SettingsContext c = context();
    c.localServerProbes = {{u"lmstudio"_s, u"LM Studio"_s, LocalServer::Kind::OpenAIModels, server.baseUrl(), {}}};
    SettingsDialog dialog(c);
    // The dialog is up before any server has answered.
    QVERIFY(!child<QProgressBar>(&dialog, u"localServersSpinner"_s)->isHidden());
    QVERIFY(message(dialog, u"localServersMessage"_s)->text().contains(u"LM Studio"_s));

    auto *list = child<QListWidget>(&dialog, u"localServersList"_s);
    QTRY_COMPARE(list->count(), 1);
    QVERIFY2(list->item(0)->text().contains(u"— 2 model"_s), qPrintable(list->item(0)->text()));
    QVERIFY(child<QProgressBar>(&dialog, u"localServersSpinner"_s)->isHidden());
    QCOMPARE(server.requests().at(0).path, QByteArray("/v1/models"));
    QVERIFY(child<QComboBox>(&dialog, u"modelCombo"_s)->findData(u"lmstudio/gemma3"_s) >= 0);

    // Double-clicking it starts a custom provider from it.
    Q_EMIT list->itemActivated(list->item(0));
    QCOMPARE(child<QLineEdit>(&dialog, u"providerBaseUrl"_s)->text(), server.baseUrl().toString() + u"/v1"_s);
    QCOMPARE(child<QLineEdit>(&dialog, u"providerModels"_s)->text(), u"qwen2.5-coder, gemma3"_s);
}

void SettingsDialogTest::defaultModelAndAgentAreWrittenToQcodeJson()
{
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s, R"({"theme": "mine", "model": "openai/gpt-5"})"));
    SettingsContext c = context();
    c.agents = {u"build"_s, u"plan"_s, u"review"_s};
    SettingsDialog dialog(c);
    dialog.showPage(u"general"_s);
    auto *model = child<QComboBox>(&dialog, u"modelCombo"_s);
    QCOMPARE(model->currentData().toString(), u"openai/gpt-5"_s);

    choose(model, u"anthropic/claude-sonnet-4-5"_s);
    QCOMPARE(configJson().value("model"_L1).toString(), u"anthropic/claude-sonnet-4-5"_s);
    QCOMPARE(message(dialog, u"generalMessage"_s)->kind(), InlineMessage::Kind::Success);

    // A model the catalogue does not know can be typed.
    model->lineEdit()->setText(u"my-proxy/some-model"_s);
    QTest::keyClick(model->lineEdit(), Qt::Key_Return);
    QCOMPARE(configJson().value("model"_L1).toString(), u"my-proxy/some-model"_s);

    choose(child<QComboBox>(&dialog, u"agentCombo"_s), u"review"_s);
    QCOMPARE(configJson().value("default_agent"_L1).toString(), u"review"_s);

    choose(model, QString()); // Automatic
    choose(child<QComboBox>(&dialog, u"agentCombo"_s), QString());
    QCOMPARE(configJson(), (QJsonObject{{u"theme"_s, u"mine"_s}}));
}

void SettingsDialogTest::aModelThatIsNotProviderSlashModelIsRefused()
{
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s, R"({"model": "openai/gpt-5"})"));
    const QByteArray before = configText();
    SettingsDialog dialog(context());
    auto *model = child<QComboBox>(&dialog, u"modelCombo"_s);
    model->lineEdit()->setText(u"gpt-5"_s);
    QTest::keyClick(model->lineEdit(), Qt::Key_Return);
    InlineMessage *shown = message(dialog, u"generalMessage"_s);
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY(shown->text().contains(u"provider/model"_s));
    QCOMPARE(configText(), before);
    QCOMPARE(model->currentText(), u"gpt-5"_s); // what was typed stays, to be corrected
}

void SettingsDialogTest::permissionDefaultsAreWrittenToQcodeJson()
{
    SettingsDialog dialog(context());
    dialog.showPage(u"permissions"_s);
    for (const QString &key : {u"read"_s, u"edit"_s, u"glob"_s, u"grep"_s, u"list"_s, u"bash"_s, u"task"_s,
                               u"webfetch"_s, u"todowrite"_s, u"todoread"_s, u"question"_s,
                               u"external_directory"_s, u"doom_loop"_s})
        QVERIFY2(dialog.findChild<QComboBox *>(u"permissionCombo_"_s + key), qPrintable(key));

    choose(child<QComboBox>(&dialog, u"permissionCombo_bash"_s), u"ask"_s);
    choose(child<QComboBox>(&dialog, u"permissionCombo_webfetch"_s), u"deny"_s);
    QCOMPARE(configJson().value("permission"_L1).toObject(),
             (QJsonObject{{u"bash"_s, u"ask"_s}, {u"webfetch"_s, u"deny"_s}}));

    choose(child<QComboBox>(&dialog, u"permissionCombo_bash"_s), QString());
    QCOMPARE(configJson().value("permission"_L1).toObject(), (QJsonObject{{u"webfetch"_s, u"deny"_s}}));
    QCOMPARE(message(dialog, u"permissionsMessage"_s)->kind(), InlineMessage::Kind::Success);
}

void SettingsDialogTest::handWrittenPatternRulesAreShownAndKept()
{
    QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s,
                         R"({"permission": {"bash": {"*": "ask", "git status": "allow"}, "edit": "deny"}})"));
    SettingsDialog dialog(context());
    auto *bash = child<QComboBox>(&dialog, u"permissionCombo_bash"_s);
    QVERIFY2(bash->currentText().startsWith(u"Custom rules (2 pattern"_s), qPrintable(bash->currentText()));
    QVERIFY(bash->itemData(bash->currentIndex(), Qt::ToolTipRole).toString().contains(u"git status → allow"_s));
    QCOMPARE(child<QComboBox>(&dialog, u"permissionCombo_edit"_s)->currentData().toString(), u"deny"_s);

    choose(child<QComboBox>(&dialog, u"permissionCombo_read"_s), u"allow"_s);
    QCOMPARE(configJson().value("permission"_L1).toObject().value("bash"_L1).toObject(),
             (QJsonObject{{u"*"_s, u"ask"_s}, {u"git status"_s, u"allow"_s}}));
}

void SettingsDialogTest::theConfiguredRulesAreListedBesideTheSavedAnswers()
{
    SettingsContext c = context();
    c.config = Config::fromJson(QJsonDocument::fromJson(
                                    R"({"permission": {"bash": {"*": "ask", "git status": "allow"}, "edit": "deny"}})")
                                    .object());
    SettingsDialog dialog(c);
    dialog.showPage(u"permissions"_s);
    auto *rules = child<QTreeWidget>(&dialog, u"configRulesTree"_s);
    QStringList rows;
    for (int i = 0; i < rules->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = rules->topLevelItem(i);
        rows.append(item->text(0) + u" | "_s + item->text(1) + u" | "_s + item->text(2));
    }
    QCOMPARE(rows.size(), 3);
    QVERIFY2(rows.contains(u"bash | git status | Allow"_s), qPrintable(rows.join(u'\n')));
    QVERIFY(rows.contains(u"bash | * | Ask"_s));
    QVERIFY(rows.contains(u"edit | * | Deny"_s));
    QVERIFY(child<QLabel>(&dialog, u"configRulesNote"_s)->text().contains(u"Later rules win"_s));
    // Beside the saved answers, on the same page.
    QCOMPARE(rules->window(), child<QTreeWidget>(&dialog, u"approvalsTree"_s)->window());
}

void SettingsDialogTest::deletingASavedApprovalKeepsTheRest()
{
    EngineHarness harness;
    const QString sessionID = harness.session();
    const auto session = harness.store().session(sessionID);
    QVERIFY(session.ok() && session->has_value());
    const QString projectID = (*session)->projectID;
    const PermissionRuleset saved{
        {u"bash"_s, u"git status"_s, PermissionAction::Allow},
        {u"edit"_s, u"src/*"_s, PermissionAction::Allow},
        {u"webfetch"_s, u"https://doc.qt.io/*"_s, PermissionAction::Allow},
    };
    QVERIFY(harness.store().setPermission(projectID, rulesetToJson(saved)).ok());

    SettingsContext c = context();
    c.engine = &harness.engine();
    c.store = &harness.store();
    c.projectID = projectID;
    SettingsDialog dialog(c);
    dialog.showPage(u"permissions"_s);
    auto *tree = child<QTreeWidget>(&dialog, u"approvalsTree"_s);
    QCOMPARE(rowTexts(tree), (QStringList{u"bash | git status"_s, u"edit | src/*"_s,
                                          u"webfetch | https://doc.qt.io/*"_s}));

    QSignalSpy changed(&harness.engine(), &Engine::projectApprovalsChanged);
    tree->topLevelItem(1)->setSelected(true);
    child<QPushButton>(&dialog, u"deleteApprovalButton"_s)->click();
    QVERIFY(changed.wait());
    QCOMPARE(changed.at(0).at(0).toString(), projectID);
    const PermissionRuleset expected{saved.at(0), saved.at(2)};
    QCOMPARE(changed.at(0).at(1).value<PermissionRuleset>(), expected);
    const auto stored = harness.store().permission(projectID);
    QVERIFY(stored.ok() && stored->has_value());
    QCOMPARE(rulesetFromJson(**stored), expected);
    QTRY_COMPARE(rowTexts(tree), (QStringList{u"bash | git status"_s, u"webfetch | https://doc.qt.io/*"_s}));
    QVERIFY(message(dialog, u"approvalsMessage"_s)->text().startsWith(u"Removed."_s));
}

void SettingsDialogTest::withoutAProjectTheApprovalsSaySo()
{
    SettingsDialog dialog(context());
    QVERIFY(!child<QTreeWidget>(&dialog, u"approvalsTree"_s)->isEnabled());
    QCOMPARE(message(dialog, u"approvalsMessage"_s)->text(), u"Open a project to see the answers saved for it."_s);
}

void SettingsDialogTest::themeFontLanguageAndNotificationsPersist()
{
    QVERIFY(m_tree.write(u"i18n/qcode_zh_CN.qm"_s, "compiled translation"));
    SettingsDialog dialog(context());
    QSignalSpy themeChanged(m_app.get(), &AppSettings::themeChanged);
    choose(child<QComboBox>(&dialog, u"themeCombo"_s), int(AppSettings::Theme::Dark));
    QCOMPARE(themeChanged.size(), 1);

    auto *font = child<QSpinBox>(&dialog, u"fontSizeSpin"_s);
    QCOMPARE(font->text(), u"System default"_s);
    font->setValue(14);

    auto *language = child<QComboBox>(&dialog, u"languageCombo"_s);
    QStringList offered;
    for (int i = 0; i < language->count(); ++i)
        offered.append(language->itemData(i).toString());
    QCOMPARE(offered, (QStringList{QString(), u"en"_s, u"zh_CN"_s, u"de"_s}));
    choose(language, u"de"_s); // no German translation here: said so, and kept
    QVERIFY2(message(dialog, u"appearanceMessage"_s)->text().contains(u"no Deutsch translation yet"_s),
             qPrintable(message(dialog, u"appearanceMessage"_s)->text()));
    QCOMPARE(AppSettings().language(), u"de"_s);
    choose(language, u"zh_CN"_s); // compiled: it applies at once, with nothing more to say
    QVERIFY(message(dialog, u"appearanceMessage"_s)->isHidden());
    child<QCheckBox>(&dialog, u"notificationsCheck"_s)->setChecked(false);

    // A fresh reader sees what was stored.
    const AppSettings stored;
    QCOMPARE(stored.theme(), AppSettings::Theme::Dark);
    QCOMPARE(stored.fontPointSize(), 14);
    QCOMPARE(stored.language(), u"zh_CN"_s);
    QVERIFY(!stored.notificationsEnabled());

    font->setValue(font->minimum());
    QCOMPARE(AppSettings().fontPointSize(), 0);
    SettingsDialog reopened(context());
    QCOMPARE(child<QComboBox>(&reopened, u"themeCombo"_s)->currentData().toInt(), int(AppSettings::Theme::Dark));
    QCOMPARE(child<QComboBox>(&reopened, u"languageCombo"_s)->currentData().toString(), u"zh_CN"_s);
}

void SettingsDialogTest::appSettingsSignalOnlyRealChanges()
{
    AppSettings settings;
    QSignalSpy font(&settings, &AppSettings::fontChanged);
    QSignalSpy language(&settings, &AppSettings::languageChanged);
    QSignalSpy notifications(&settings, &AppSettings::notificationsChanged);
    settings.setFontPointSize(0);
    settings.setLanguage(QString());
    settings.setNotificationsEnabled(true);
    QCOMPARE(font.size() + language.size() + notifications.size(), 0);

    settings.setFontPointSize(200); // clamped to what can be read
    QCOMPARE(settings.fontPointSize(), AppSettings::MaximumFontPointSize);
    QCOMPARE(font.size(), 1);
    settings.setLanguage(u"de"_s);
    settings.setLanguage(u"de"_s);
    QCOMPARE(language.size(), 1);
}

void SettingsDialogTest::theDataFolderChangesForTheNextStart()
{
    QVERIFY(m_tree.write(u"data/snapshot/prj/objects/a"_s, QByteArray(1500, 'x')));
    QVERIFY(m_tree.write(u"data/snapshot/prj/objects/b"_s, QByteArray(500, 'y')));
    SettingsDialog dialog(context());
    auto *page = dialog.findChild<DataPage *>();
    QCOMPARE(page->currentDirectory(), m_tree.path(u"data"_s));
    QCOMPARE(child<QLabel>(&dialog, u"dataDirectoryLabel"_s)->text(), QDir::toNativeSeparators(m_tree.path(u"data"_s)));
    QTRY_VERIFY(child<QLabel>(&dialog, u"snapshotSizeLabel"_s)->text().startsWith(QLocale().formattedDataSize(2000)));

    const QString other = m_tree.path(u"elsewhere"_s);
    page->chooseDirectory(other);
    QCOMPARE(AppSettings().dataDirectory(), other);
    InlineMessage *shown = message(dialog, u"dataMessage"_s);
    QVERIFY2(shown->text().contains(u"next start"_s), qPrintable(shown->text()));
    QVERIFY(shown->text().contains(QDir::toNativeSeparators(other)));

    page->chooseDirectory(u"relative/folder"_s);
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QCOMPARE(AppSettings().dataDirectory(), other);

    child<QPushButton>(&dialog, u"defaultDataFolderButton"_s)->click();
    QVERIFY(AppSettings().dataDirectory().isEmpty());
}

QTEST_MAIN(SettingsDialogTest)
#include "tst_settings_dialog.moc"
