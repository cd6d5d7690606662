// The engine reads the API keys saved in the OS keychain
// (EngineOptions::secrets) when it loads a project: after the config's
// keys, before the environment's.

#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "FakeSecretStore.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

EngineHarness::Setup keychainOnly(FakeSecretStore &keychain)
{
    EngineHarness::Setup setup;
    setup.secrets = &keychain;
    setup.configKey = false;
    return setup;
}

QStringList providerIDs(const ProjectSummary &summary)
{
    QStringList ids;
    for (const ModelSummary &model : summary.models) {
        if (!ids.contains(model.providerID))
            ids.append(model.providerID);
    }
    return ids;
}

} // namespace

class EngineKeychainTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theKeychainsKeyIsSentToTheProvider();
    void aCatalogueProviderIsOfferedOnceTheKeychainHoldsItsKey();
    void theConfigsKeyWinsOverTheKeychains();
    void anUnreadableEntryIsAProblemAndTheRestStillWorks();
    void aReloadReadsTheKeychainAgain();
};

void EngineKeychainTest::theKeychainsKeyIsSentToTheProvider()
{
    FakeSecretStore keychain;
    keychain.keys.insert(u"fake"_s, u"from-the-keychain"_s);
    EngineHarness h(keychainOnly(keychain));
    h.server().enqueue(FakeTurn().text({u"Hi."_s}));
    const auto outcome = h.prompt(u"hello"_s);
    QVERIFY(outcome && !outcome->error);
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(h.server().requests().first().header("authorization"), QByteArray("Bearer from-the-keychain"));
}

void EngineKeychainTest::aCatalogueProviderIsOfferedOnceTheKeychainHoldsItsKey()
{
    FakeSecretStore empty;
    EngineHarness without(keychainOnly(empty));
    const ProjectSummary before = without.describe();
    QVERIFY(!before.models.isEmpty());
    QVERIFY(!providerIDs(before).contains(u"anthropic"_s));

    FakeSecretStore keychain;
    keychain.keys.insert(u"anthropic"_s, u"sk-ant-test"_s);
    EngineHarness with(keychainOnly(keychain));
    const ProjectSummary after = with.describe();
    QVERIFY2(providerIDs(after).contains(u"anthropic"_s), qPrintable(providerIDs(after).join(u", "_s)));
    QVERIFY(providerIDs(after).contains(u"fake"_s));
    QVERIFY(keychain.reads > 0);
}

void EngineKeychainTest::theConfigsKeyWinsOverTheKeychains()
{
    FakeSecretStore keychain;
    keychain.keys.insert(u"fake"_s, u"from-the-keychain"_s);
    EngineHarness::Setup setup;
    setup.secrets = &keychain;
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"Hi."_s}));
    QVERIFY(h.prompt(u"hello"_s));
    QCOMPARE(h.server().requests().first().header("authorization"), QByteArray("Bearer test-key"));
}

void EngineKeychainTest::anUnreadableEntryIsAProblemAndTheRestStillWorks()
{
    FakeSecretStore keychain;
    keychain.keys.insert(u"fake"_s, u"from-the-keychain"_s);
    keychain.locked.append(u"anthropic"_s);
    EngineHarness h(keychainOnly(keychain));
    const ProjectSummary summary = h.describe();
    QVERIFY2(summary.problems.contains(u"The keychain is locked."_s), qPrintable(summary.problems.join(u'\n')));
    QVERIFY(!providerIDs(summary).contains(u"anthropic"_s));

    h.server().enqueue(FakeTurn().text({u"Hi."_s}));
    const auto outcome = h.prompt(u"hello"_s);
    QVERIFY(outcome && !outcome->error);
    QCOMPARE(h.server().requests().first().header("authorization"), QByteArray("Bearer from-the-keychain"));
}

void EngineKeychainTest::aReloadReadsTheKeychainAgain()
{
    FakeSecretStore keychain;
    EngineHarness h(keychainOnly(keychain));
    QVERIFY(!providerIDs(h.describe()).contains(u"anthropic"_s));

    // Saved in the settings window meanwhile.
    keychain.keys.insert(u"anthropic"_s, u"sk-ant-test"_s);
    QVERIFY(!providerIDs(h.describe()).contains(u"anthropic"_s));
    QSignalSpy described(&h.engine(), &Engine::projectDescribed);
    h.engine().reloadProject(h.projectDirectory());
    QVERIFY(described.wait(10000));
    QVERIFY(providerIDs(described.first().first().value<ProjectSummary>()).contains(u"anthropic"_s));
}

QTEST_GUILESS_MAIN(EngineKeychainTest)
#include "tst_engine_keychain.moc"
