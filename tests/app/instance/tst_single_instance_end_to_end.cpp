// Single instance end to end: the built qcode binary, launched twice in a
// sandbox of temporary XDG folders on the offscreen platform. The second
// launch hands its folder to the first and exits 0; the first opens it (its
// recent-projects setting says so). A launch after the first was killed
// clears the dead socket and becomes the running instance itself.

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QTest>

#include "RunSandbox.h"

using namespace Qt::StringLiterals;
using namespace qcode::test;

namespace {

// Starting the window of a debug build on a loaded machine takes seconds.
constexpr int StartTimeoutMs = 60000;
// The hand-off itself is a local socket round trip; the bound leaves room
// for the second process's own start.
constexpr int HandOffTimeoutMs = 20000;

// A qcode GUI process whose stderr (the instance log) is kept as it comes.
class Launch
{
public:
    explicit Launch(const QProcessEnvironment &environment, const QString &workingDirectory)
    {
        m_process.setProgram(QStringLiteral(QCODE_BINARY));
        m_process.setProcessEnvironment(environment);
        m_process.setWorkingDirectory(workingDirectory);
        m_process.setStandardOutputFile(QProcess::nullDevice());
    }
    ~Launch()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    QProcess &process() { return m_process; }
    void start(const QStringList &arguments)
    {
        m_process.setArguments(arguments);
        m_process.start();
    }
    // Everything written to stderr so far.
    QString log()
    {
        m_log += QString::fromUtf8(m_process.readAllStandardError());
        return m_log;
    }

private:
    QProcess m_process;
    QString m_log;
};

} // namespace

class SingleInstanceEndToEndTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();

    void secondLaunchHandsItsFolderToTheFirstAndExits();
    void launchAfterACrashBecomesTheRunningInstance();

private:
    QProcessEnvironment environment() const;
    // The first folder in the recent-projects setting qcode keeps under
    // XDG_CONFIG_HOME, wherever in there its settings file is.
    QString mostRecentProject() const;

    std::unique_ptr<RunSandbox> m_sandbox;
};

void SingleInstanceEndToEndTest::init()
{
    m_sandbox = std::make_unique<RunSandbox>();
    QVERIFY(m_sandbox->isValid());
    QVERIFY(QDir().mkpath(m_sandbox->root() + u"/runtime"_s));
    QVERIFY(QFile::setPermissions(m_sandbox->root() + u"/runtime"_s,
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
}

QProcessEnvironment SingleInstanceEndToEndTest::environment() const
{
    QProcessEnvironment env = m_sandbox->environment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"QCODE_DATA_DIR"_s, m_sandbox->root() + u"/data/instance-test"_s);
    // The socket lives in the sandbox, so a killed instance leaves nothing
    // behind in the machine's /tmp.
    env.insert(u"XDG_RUNTIME_DIR"_s, m_sandbox->root() + u"/runtime"_s);
    env.insert(u"QT_LOGGING_RULES"_s, u"qcode.app.instance.debug=true"_s);
    return env;
}

QString SingleInstanceEndToEndTest::mostRecentProject() const
{
    QDirIterator files(m_sandbox->root() + u"/config"_s, {u"*.conf"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QStringList recent = QSettings(files.next(), QSettings::IniFormat).value(u"projects/recent"_s).toStringList();
        if (!recent.isEmpty())
            return recent.first();
    }
    return {};
}

void SingleInstanceEndToEndTest::secondLaunchHandsItsFolderToTheFirstAndExits()
{
    // The first launch opens a folder of its own, so its window is known
    // to be up before the second one comes.
    const QString home = m_sandbox->root() + u"/home"_s;
    Launch first(environment(), m_sandbox->root());
    first.start({home});
    QTRY_COMPARE_WITH_TIMEOUT(mostRecentProject(), home, StartTimeoutMs);
    QVERIFY2(first.log().contains(u"listening at"_s), qPrintable(first.log()));

    // A relative folder, as a terminal would pass it: the second launch
    // resolves it against its own working directory.
    Launch second(environment(), m_sandbox->root());
    QElapsedTimer clock;
    clock.start();
    second.start({u"project"_s});
    QVERIFY(second.process().waitForFinished(HandOffTimeoutMs));
    const qint64 handOffMs = clock.elapsed();
    QCOMPARE(second.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(second.process().exitCode(), 0);
    qInfo("the second launch handed its folder over and exited in %lld ms", handOffMs);

    const QString project = m_sandbox->projectDirectory();
    QTRY_COMPARE_WITH_TIMEOUT(mostRecentProject(), project, HandOffTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(first.log().contains(u"asked to open \"%1\""_s.arg(project)), HandOffTimeoutMs);
    QCOMPARE(first.process().state(), QProcess::Running);
}

void SingleInstanceEndToEndTest::launchAfterACrashBecomesTheRunningInstance()
{
#ifdef Q_OS_UNIX
    {
        Launch crashed(environment(), m_sandbox->root());
        crashed.start({});
        QTRY_VERIFY_WITH_TIMEOUT(crashed.log().contains(u"listening at"_s), StartTimeoutMs);
        crashed.process().kill();
        QVERIFY(crashed.process().waitForFinished(StartTimeoutMs));
    }
    QDir runtime(m_sandbox->root() + u"/runtime"_s);
    QVERIFY2(!runtime.entryList({u"qcode-*"_s}, QDir::System).isEmpty(), "the killed instance left no socket behind");

    Launch next(environment(), m_sandbox->root());
    next.start({m_sandbox->projectDirectory()});
    QTRY_COMPARE_WITH_TIMEOUT(mostRecentProject(), m_sandbox->projectDirectory(), StartTimeoutMs);
    QVERIFY2(next.log().contains(u"listening at"_s), qPrintable(next.log()));

    // Its socket is live: the launch after it hands over.
    const QString home = m_sandbox->root() + u"/home"_s;
    Launch later(environment(), m_sandbox->root());
    later.start({home});
    QVERIFY(later.process().waitForFinished(HandOffTimeoutMs));
    QCOMPARE(later.process().exitCode(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(mostRecentProject(), home, HandOffTimeoutMs);
#else
    QSKIP("A killed process leaves a socket file only on Unix.");
#endif
}

QTEST_GUILESS_MAIN(SingleInstanceEndToEndTest)
#include "tst_single_instance_end_to_end.moc"
