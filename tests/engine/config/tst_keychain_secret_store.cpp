// The real keychain store, used from two threads at once as the app and
// `qcode run` use it (the engine thread reads keys while the main thread
// reads or writes them). QtKeychain itself may only be used from one
// thread; the store must carry every job there and every answer back.
// Whatever this machine has — a keychain, or none — each call is answered.

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QUuid>

#include <optional>

#include "engine/config/KeychainSecretStore.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

constexpr int ReadsPerThread = 25;

// Reads keys one after another on its own thread and counts the answers.
class Reader : public QObject
{
    Q_OBJECT

public:
    explicit Reader(KeychainSecretStore *store) : m_store(store) {}

    void start() { QCoro::connect(readAll(), this, [this](int answered) { Q_EMIT finished(answered, m_onItsThread); }); }

Q_SIGNALS:
    void finished(int answered, bool onItsThread);

private:
    QCoro::Task<int> readAll()
    {
        int answered = 0;
        for (int i = 0; i < ReadsPerThread; ++i) {
            co_await m_store->readKey(u"provider-%1"_s.arg(i));
            ++answered; // a key, none, or an error: each is an answer
            m_onItsThread = m_onItsThread && QThread::currentThread() == thread();
        }
        co_return answered;
    }

    KeychainSecretStore *m_store;
    bool m_onItsThread = true;
};

} // namespace

class KeychainSecretStoreTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsFromTwoThreadsAtOnceAreAllAnswered();
    void aWrittenKeyIsReadBackAndDeleted();

private:
    template<typename T>
    static T await(QCoro::Task<T> task)
    {
        std::optional<T> result;
        QCoro::connect(std::move(task), qApp, [&result](T value) { result = std::move(value); });
        if (!QTest::qWaitFor([&result] { return result.has_value(); }, 120000))
            return Error{u"the keychain store did not answer"_s};
        return std::move(*result);
    }
};

void KeychainSecretStoreTest::readsFromTwoThreadsAtOnceAreAllAnswered()
{
    // A service of its own: nothing of a person's keychain is read.
    KeychainSecretStore store(u"qcode-test-"_s + QUuid::createUuid().toString(QUuid::WithoutBraces));
    QThread worker;
    Reader elsewhere(&store);
    elsewhere.moveToThread(&worker);
    QSignalSpy elsewhereDone(&elsewhere, &Reader::finished);
    worker.start();
    QMetaObject::invokeMethod(&elsewhere, [&elsewhere] { elsewhere.start(); });

    Reader here(&store);
    QSignalSpy hereDone(&here, &Reader::finished);
    here.start();

    QTRY_COMPARE_WITH_TIMEOUT(hereDone.size(), 1, 120000);
    QTRY_COMPARE_WITH_TIMEOUT(elsewhereDone.size(), 1, 120000);
    worker.quit();
    worker.wait();
    QCOMPARE(hereDone.first().at(0).toInt(), ReadsPerThread);
    QCOMPARE(elsewhereDone.first().at(0).toInt(), ReadsPerThread);
    // Each answer came back to the thread that asked.
    QVERIFY(hereDone.first().at(1).toBool());
    QVERIFY(elsewhereDone.first().at(1).toBool());
}

void KeychainSecretStoreTest::aWrittenKeyIsReadBackAndDeleted()
{
    KeychainSecretStore store(u"qcode-test-"_s + QUuid::createUuid().toString(QUuid::WithoutBraces));
    const Result<void> written = await(store.writeKey(u"fake"_s, u"sk-test-123"_s));
    if (!written) {
        // No keychain here (a server, a container): the failure says what
        // could not be done, for which provider.
        const QString message = written.errorMessage();
        QVERIFY2(message.startsWith(u"Could not store the key for fake in the system keychain: "_s)
                     || message == u"The system keychain did not answer in time."_s,
                 qPrintable(message));
        const Result<void> deleted = await(store.deleteKey(u"fake"_s));
        QVERIFY2(deleted
                     || deleted.errorMessage().startsWith(u"Could not remove the key for fake from the system keychain: "_s)
                     || deleted.errorMessage() == u"The system keychain did not answer in time."_s,
                 qPrintable(deleted.errorMessage()));
        return;
    }
    const Result<std::optional<QString>> read = await(store.readKey(u"fake"_s));
    QVERIFY2(read, qPrintable(read.errorMessage()));
    QCOMPARE(*read, std::optional<QString>(u"sk-test-123"_s));
    const Result<void> deleted = await(store.deleteKey(u"fake"_s));
    QVERIFY2(deleted, qPrintable(deleted.errorMessage()));
    const Result<std::optional<QString>> gone = await(store.readKey(u"fake"_s));
    QVERIFY2(gone, qPrintable(gone.errorMessage()));
    QCOMPARE(*gone, std::optional<QString>());
}

QTEST_GUILESS_MAIN(KeychainSecretStoreTest)
#include "tst_keychain_secret_store.moc"
