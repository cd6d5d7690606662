// The real keychain store, used from two threads at once as the app and
// `qcode run` use it (the engine thread reads keys while the main thread
// reads or writes them). QtKeychain itself may only be used from one
// thread; the store must carry every job there and every answer back.
// Whatever this machine has — a keychain, or none — each call is answered.

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QUuid>

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

QTEST_GUILESS_MAIN(KeychainSecretStoreTest)
#include "tst_keychain_secret_store.moc"
