// SingleInstance: a later launch hands its folder to the running instance;
// a crashed instance's socket does not block the next launch; different
// data folders get different instances; a stranger writing rubbish on the
// socket is turned away and changes nothing. The later launch runs on a
// worker thread, as it would in its own process, because its hand-off
// blocks while this thread's event loop serves the running instance.

#include <QDir>
#include <QFileInfo>
#include <QFuture>
#include <QLocalSocket>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

#include <memory>

#include "InstanceMessage.h"
#include "SingleInstance.h"

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#endif

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

constexpr int LaunchTimeoutMs = 15000;

// A later launch, as main() makes it, on its own thread.
QFuture<SingleInstance::Role> launchLater(const QString &dataDirectory, const QString &folder)
{
    return QtConcurrent::run([dataDirectory, folder] {
        SingleInstance later(dataDirectory);
        return later.start(folder);
    });
}

} // namespace

class SingleInstanceTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void laterLaunchHandsItsFolderToTheRunningInstance();
    void laterLaunchWithoutFolderOnlyBringsTheWindowForward();
    void staleSocketFromACrashIsRecovered();
    void differentDataFoldersDoNotCollide();
    void sameDataFolderSpelledDifferentlySharesOneName();
    void garbledRequestIsIgnoredAndServingGoesOn();
    void oversizedRequestIsIgnored();
    void silentConnectionIsDropped();
    void requestCarriesAnyAbsoluteFolder_data();
    void requestCarriesAnyAbsoluteFolder();
    void malformedRequestsAreRefused_data();
    void malformedRequestsAreRefused();

private:
    QString root() const { return m_root->path(); }
    QString dataDirectory(const QString &name) const { return QDir(root()).filePath(name); }

    QTemporaryDir m_runtime;
    std::unique_ptr<QTemporaryDir> m_root;
};

void SingleInstanceTest::initTestCase()
{
    // Sockets and locks go where a desktop session puts them, here inside
    // this test's own folder, so nothing is left behind in /tmp.
    QVERIFY(m_runtime.isValid());
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
}

void SingleInstanceTest::init()
{
    // Each test its own data folder, so a socket from one never meets the next.
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
}

void SingleInstanceTest::laterLaunchHandsItsFolderToTheRunningInstance()
{
    SingleInstance running(dataDirectory(u"data"_s));
    QCOMPARE(running.start({}), SingleInstance::Role::Primary);
    QSignalSpy requests(&running, &SingleInstance::activationRequested);

    const QString folder = QDir(root()).filePath(u"项目 with spaces"_s);
    QFuture<SingleInstance::Role> later = launchLater(dataDirectory(u"data"_s), folder);
    QTRY_VERIFY_WITH_TIMEOUT(later.isFinished(), LaunchTimeoutMs);

    QCOMPARE(later.result(), SingleInstance::Role::HandedOff);
    QCOMPARE(requests.count(), 1);
    QCOMPARE(requests.first().first().toString(), folder);
}

void SingleInstanceTest::laterLaunchWithoutFolderOnlyBringsTheWindowForward()
{
    SingleInstance running(dataDirectory(u"data"_s));
    QCOMPARE(running.start({}), SingleInstance::Role::Primary);
    QSignalSpy requests(&running, &SingleInstance::activationRequested);

    QFuture<SingleInstance::Role> later = launchLater(dataDirectory(u"data"_s), {});
    QTRY_VERIFY_WITH_TIMEOUT(later.isFinished(), LaunchTimeoutMs);

    QCOMPARE(later.result(), SingleInstance::Role::HandedOff);
    QCOMPARE(requests.count(), 1);
    QCOMPARE(requests.first().first().toString(), QString());
}

void SingleInstanceTest::staleSocketFromACrashIsRecovered()
{
#ifdef Q_OS_UNIX
    // What a killed instance leaves: a bound socket file nobody listens on.
    const QString name = SingleInstance::serverName(dataDirectory(u"data"_s));
    QVERIFY2(QDir::isAbsolutePath(name), qPrintable(name));
    const QByteArray path = QFile::encodeName(name);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    QVERIFY(std::size_t(path.size()) < sizeof(address.sun_path));
    std::memcpy(address.sun_path, path.constData(), std::size_t(path.size()));
    QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)), 0);
    ::close(fd);
    QVERIFY(QFileInfo::exists(name));

    SingleInstance next(dataDirectory(u"data"_s));
    QCOMPARE(next.start({}), SingleInstance::Role::Primary);

    // And it serves the launch after it.
    QSignalSpy requests(&next, &SingleInstance::activationRequested);
    QFuture<SingleInstance::Role> later = launchLater(dataDirectory(u"data"_s), root());
    QTRY_VERIFY_WITH_TIMEOUT(later.isFinished(), LaunchTimeoutMs);
    QCOMPARE(later.result(), SingleInstance::Role::HandedOff);
    QCOMPARE(requests.count(), 1);
#else
    QSKIP("A crash leaves a socket file only on Unix; Windows named pipes end with their process.");
#endif
}

void SingleInstanceTest::differentDataFoldersDoNotCollide()
{
    SingleInstance work(dataDirectory(u"work"_s));
    SingleInstance sandbox(dataDirectory(u"sandbox"_s));
    QVERIFY(work.serverName() != sandbox.serverName());

    QCOMPARE(work.start({}), SingleInstance::Role::Primary);
    QCOMPARE(sandbox.start({}), SingleInstance::Role::Primary);

    QSignalSpy workRequests(&work, &SingleInstance::activationRequested);
    QSignalSpy sandboxRequests(&sandbox, &SingleInstance::activationRequested);
    QFuture<SingleInstance::Role> later = launchLater(dataDirectory(u"sandbox"_s), root());
    QTRY_VERIFY_WITH_TIMEOUT(later.isFinished(), LaunchTimeoutMs);
    QCOMPARE(later.result(), SingleInstance::Role::HandedOff);
    QCOMPARE(sandboxRequests.count(), 1);
    QCOMPARE(workRequests.count(), 0);
}

void SingleInstanceTest::sameDataFolderSpelledDifferentlySharesOneName()
{
    const QString folder = dataDirectory(u"data"_s);
    const QString name = SingleInstance::serverName(folder);
    QCOMPARE(SingleInstance::serverName(folder + u"/"_s), name);
    QCOMPARE(SingleInstance::serverName(folder + u"/sub/.."_s), name);
    QCOMPARE(SingleInstance::serverName(QDir(root()).filePath(u"./data"_s)), name);
}

void SingleInstanceTest::garbledRequestIsIgnoredAndServingGoesOn()
{
    SingleInstance running(dataDirectory(u"data"_s));
    QCOMPARE(running.start({}), SingleInstance::Role::Primary);
    QSignalSpy requests(&running, &SingleInstance::activationRequested);

    QLocalSocket stranger;
    QSignalSpy closed(&stranger, &QLocalSocket::disconnected);
    stranger.connectToServer(running.serverName());
    QVERIFY(stranger.waitForConnected(LaunchTimeoutMs));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^ignored a garbled request"_s));
    stranger.write("\x00\xff{\"open\": not json\n"_ba);
    QVERIFY(closed.wait(LaunchTimeoutMs));
    QCOMPARE(requests.count(), 0);

    QFuture<SingleInstance::Role> later = launchLater(dataDirectory(u"data"_s), root());
    QTRY_VERIFY_WITH_TIMEOUT(later.isFinished(), LaunchTimeoutMs);
    QCOMPARE(later.result(), SingleInstance::Role::HandedOff);
    QCOMPARE(requests.count(), 1);
}

void SingleInstanceTest::oversizedRequestIsIgnored()
{
    SingleInstance running(dataDirectory(u"data"_s));
    QCOMPARE(running.start({}), SingleInstance::Role::Primary);
    QSignalSpy requests(&running, &SingleInstance::activationRequested);

    QLocalSocket stranger;
    QSignalSpy closed(&stranger, &QLocalSocket::disconnected);
    stranger.connectToServer(running.serverName());
    QVERIFY(stranger.waitForConnected(LaunchTimeoutMs));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^ignored a request longer than"_s));
    // A valid start that never ends: only its length gives it away.
    stranger.write("{\"qcode\":1,\"open\":\"/" + QByteArray(4 * InstanceMessage::MaxRequestSize, 'a'));
    QVERIFY(closed.wait(LaunchTimeoutMs));
    QCOMPARE(requests.count(), 0);
}

void SingleInstanceTest::silentConnectionIsDropped()
{
    SingleInstance running(dataDirectory(u"data"_s));
    QCOMPARE(running.start({}), SingleInstance::Role::Primary);

    QLocalSocket stranger;
    QSignalSpy closed(&stranger, &QLocalSocket::disconnected);
    stranger.connectToServer(running.serverName());
    QVERIFY(stranger.waitForConnected(LaunchTimeoutMs));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^dropped a connection that sent no request"_s));
    QVERIFY(closed.wait(LaunchTimeoutMs));
}

void SingleInstanceTest::requestCarriesAnyAbsoluteFolder_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("plain") << u"/home/ana/src/app"_s;
    QTest::newRow("spaces and quotes") << u"/home/ana/my \"quoted\" project"_s;
    QTest::newRow("Chinese") << u"/home/李/项目"_s;
    QTest::newRow("newline in the name") << u"/tmp/two\nlines"_s;
    QTest::newRow("none: come forward") << QString();
}

void SingleInstanceTest::requestCarriesAnyAbsoluteFolder()
{
    QFETCH(QString, folder);
    const QByteArray request = InstanceMessage::encodeRequest(folder);
    QVERIFY(request.endsWith('\n'));
    QCOMPARE(request.count('\n'), 1); // one line, whatever the folder holds
    const std::optional<QString> decoded = InstanceMessage::decodeRequest(request.chopped(1));
    QVERIFY(decoded.has_value());
    QCOMPARE(*decoded, folder);
}

void SingleInstanceTest::malformedRequestsAreRefused_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("not JSON") << "open /home/ana"_ba;
    QTest::newRow("an array") << "[1, \"/home/ana\"]"_ba;
    QTest::newRow("another version") << "{\"qcode\":2,\"open\":\"/home/ana\"}"_ba;
    QTest::newRow("no version") << "{\"open\":\"/home/ana\"}"_ba;
    QTest::newRow("no folder") << "{\"qcode\":1}"_ba;
    QTest::newRow("folder not a string") << "{\"qcode\":1,\"open\":42}"_ba;
    QTest::newRow("relative folder") << "{\"qcode\":1,\"open\":\"src/app\"}"_ba;
    QTest::newRow("too long") << "{\"qcode\":1,\"open\":\"/" + QByteArray(InstanceMessage::MaxRequestSize, 'a') + "\"}";
}

void SingleInstanceTest::malformedRequestsAreRefused()
{
    QFETCH(QByteArray, line);
    QVERIFY(!InstanceMessage::decodeRequest(line).has_value());
}

QTEST_GUILESS_MAIN(SingleInstanceTest)
#include "tst_single_instance.moc"
