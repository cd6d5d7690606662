#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QCoro/QCoroTask>

#include "FakeSecretStore.h"
#include "engine/config/FallbackSecretStore.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// A desktop with no Secret Service: every keychain call fails.
class AbsentKeychain : public SecretStore
{
public:
    QCoro::Task<Result<std::optional<QString>>> readKey(QString) override { co_return Error{u"No keychain"_s}; }
    QCoro::Task<Result<void>> writeKey(QString, QString) override { co_return Error{u"No keychain"_s}; }
    QCoro::Task<Result<void>> deleteKey(QString) override { co_return Error{u"No keychain"_s}; }
};

template<typename T>
T await(QCoro::Task<T> task)
{
    std::optional<T> result;
    QObject context;
    QCoro::connect(std::move(task), &context, [&](T value) { result.emplace(std::move(value)); });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 5000))
        qFatal("the secret store did not answer");
    return std::move(*result);
}

} // namespace

// Keys typed in Settings where no keychain runs are kept in a private file
// instead of being refused; where a keychain works, the file stays out of it.
class FallbackSecretStoreTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutAKeychainAKeyIsSavedInAFileOnlyItsOwnerCanRead()
    {
        QTemporaryDir dir;
        AbsentKeychain keychain;
        FallbackSecretStore store(&keychain, FallbackSecretStore::filePathIn(dir.path()));
        QVERIFY(!store.usesKeyFile());
        QVERIFY(await(store.writeKey(u"anthropic"_s, u"sk-ant-1"_s)).ok());
        QVERIFY(store.usesKeyFile());
        const QString path = store.keyFilePath();
        QVERIFY(QFile::exists(path));
        const QFileDevice::Permissions permissions = QFile::permissions(path);
        QVERIFY(permissions.testFlags(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
                                                | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
        QVERIFY(!(permissions & others));

        FallbackSecretStore restarted(&keychain, path);
        const Result<std::optional<QString>> read = await(restarted.readKey(u"anthropic"_s));
        QVERIFY(read.ok());
        QCOMPARE(read->value_or(QString()), u"sk-ant-1"_s);
        QVERIFY(restarted.usesKeyFile());
        const Result<std::optional<QString>> other = await(restarted.readKey(u"openai"_s));
        QVERIFY(other.ok() && !other->has_value());
    }

    void deletingAKeyWithoutAKeychainTakesItOutOfTheFile()
    {
        QTemporaryDir dir;
        AbsentKeychain keychain;
        FallbackSecretStore store(&keychain, FallbackSecretStore::filePathIn(dir.path()));
        QVERIFY(await(store.writeKey(u"anthropic"_s, u"sk-ant-1"_s)).ok());
        QVERIFY(await(store.writeKey(u"openai"_s, u"sk-oa-1"_s)).ok());
        QVERIFY(await(store.deleteKey(u"anthropic"_s)).ok());
        QVERIFY(!await(store.readKey(u"anthropic"_s))->has_value());
        QCOMPARE(await(store.readKey(u"openai"_s))->value_or(QString()), u"sk-oa-1"_s);
    }

    void aWorkingKeychainKeepsKeysOutOfTheFile()
    {
        QTemporaryDir dir;
        FakeSecretStore keychain;
        FallbackSecretStore store(&keychain, FallbackSecretStore::filePathIn(dir.path()));
        QVERIFY(await(store.writeKey(u"anthropic"_s, u"sk-ant-1"_s)).ok());
        QCOMPARE(keychain.keys.value(u"anthropic"_s), u"sk-ant-1"_s);
        QVERIFY(!QFile::exists(store.keyFilePath()));
        QVERIFY(!store.usesKeyFile());
        QCOMPARE(await(store.readKey(u"anthropic"_s))->value_or(QString()), u"sk-ant-1"_s);
    }

    void aKeyFileThatIsNotJsonIsReportedAndLeftAsItWas()
    {
        QTemporaryDir dir;
        AbsentKeychain keychain;
        FallbackSecretStore store(&keychain, FallbackSecretStore::filePathIn(dir.path()));
        QFile file(store.keyFilePath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not json {");
        file.close();
        const Result<void> written = await(store.writeKey(u"anthropic"_s, u"sk-ant-1"_s));
        QVERIFY(!written.ok());
        QVERIFY(written.errorMessage().contains(u"not a JSON object"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("not json {"));
        QVERIFY(!await(store.readKey(u"anthropic"_s)).ok());
    }
};

QTEST_GUILESS_MAIN(FallbackSecretStoreTest)
#include "tst_fallback_secret_store.moc"
