// A project whose configuration is broken runs nothing: prompts, commands,
// shell commands and compaction are refused with the config error's line,
// no provider is called, no session is made; a reload after the fix lets
// prompts run again.

#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// A deny rule that must not silently stop applying, in a file that does
// not parse (a missing comma on line 3).
const QByteArray BrokenConfig = "{\n  \"permission\": {\n    \"bash\": \"deny\"\n    \"edit\": \"ask\"\n  }\n}\n";

} // namespace

class EngineConfigErrorsTest : public QObject
{
    Q_OBJECT

private:
    static QString configFile(EngineHarness &h) { return QDir(h.projectDirectory()).filePath(u"opencode.json"_s); }

    // Replaces the project's opencode.json and reloads the project; the summary that answers.
    static ProjectSummary rewriteAndReload(EngineHarness &h, const QByteArray &text)
    {
        QFile file(configFile(h));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size())
            return {};
        file.close();
        QSignalSpy described(&h.engine(), &Engine::projectDescribed);
        h.engine().reloadProject(h.projectDirectory());
        if (!described.wait(10000))
            return {};
        return described.first().first().value<ProjectSummary>();
    }

    static QString expectedLine(EngineHarness &h)
    {
        return QDir::toNativeSeparators(configFile(h)) + u":4:5: "_s;
    }

private Q_SLOTS:
    void theSummaryCarriesTheErrorApartFromTheNotes();
    void aPromptIsRefusedWithTheErrorAndNothingIsSent();
    void commandsShellAndCompactionAreRefusedToo();
    void noSessionIsCreatedInABrokenProject();
    void fixingTheFileAndReloadingLetsPromptsRunAgain();
};

void EngineConfigErrorsTest::theSummaryCarriesTheErrorApartFromTheNotes()
{
    EngineHarness h;
    const ProjectSummary summary = rewriteAndReload(h, BrokenConfig);
    QCOMPARE(summary.configErrors.size(), 1);
    QVERIFY2(summary.configErrors.constFirst().toString().startsWith(expectedLine(h)),
             qPrintable(summary.configErrors.constFirst().toString()));
    // Not also a note, and no "no model" note caused by the broken file.
    for (const QString &note : summary.problems)
        QVERIFY2(!note.contains(u"opencode.json"_s) && !note.contains(u"model"_s, Qt::CaseInsensitive), qPrintable(note));
}

void EngineConfigErrorsTest::aPromptIsRefusedWithTheErrorAndNothingIsSent()
{
    EngineHarness h;
    const QString session = h.session();
    QCOMPARE(rewriteAndReload(h, BrokenConfig).configErrors.size(), 1);
    h.server().enqueue(FakeTurn().text({u"must not be asked"_s}));
    const std::optional<PromptOutcome> outcome = h.prompt(u"run rm -rf"_s);
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QCOMPARE(outcome->error->name, u"ConfigInvalidError"_s);
    QVERIFY2(outcome->error->message().startsWith(expectedLine(h)), qPrintable(outcome->error->message()));
    QCOMPARE(h.server().requests().size(), 0);
    QVERIFY(h.messages().isEmpty());
    const QList<SessionError> errors = h.sink().all<SessionError>();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.constFirst().sessionID, std::optional(session));
}

void EngineConfigErrorsTest::commandsShellAndCompactionAreRefusedToo()
{
    EngineHarness h;
    const QString session = h.session();
    QCOMPARE(rewriteAndReload(h, BrokenConfig).configErrors.size(), 1);

    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    h.engine().command(CommandInput{session, u"init"_s, {}, std::nullopt, std::nullopt, {}});
    QVERIFY(finished.wait(10000));
    QVERIFY(finished.last().first().value<PromptOutcome>().error->message().startsWith(expectedLine(h)));

    h.engine().compact(session);
    QVERIFY(finished.wait(10000));
    QVERIFY(finished.last().first().value<PromptOutcome>().error->message().startsWith(expectedLine(h)));

    h.engine().shell(ShellInput{session, u"touch ran"_s, std::nullopt, std::nullopt});
    QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<SessionError>().size(), 3, 10000);
    QVERIFY(h.sink().all<SessionError>().last().error.message().startsWith(expectedLine(h)));
    QVERIFY(!QFileInfo::exists(QDir(h.projectDirectory()).filePath(u"ran"_s)));
    QVERIFY(h.messages().isEmpty());
    QCOMPARE(h.server().requests().size(), 0);
}

void EngineConfigErrorsTest::noSessionIsCreatedInABrokenProject()
{
    EngineHarness h;
    QCOMPARE(rewriteAndReload(h, BrokenConfig).configErrors.size(), 1);
    const QString id = Identifier::descending(Identifier::Prefix::Session);
    h.engine().createSession(NewSession{id, h.projectDirectory(), std::nullopt, {}});
    QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<SessionError>().size(), 1, 10000);
    QCOMPARE(h.sink().all<SessionError>().constFirst().sessionID, std::optional(id));
    QVERIFY(h.sink().all<SessionCreated>().isEmpty());
    QVERIFY(!h.store().session(id).value().has_value());
}

void EngineConfigErrorsTest::fixingTheFileAndReloadingLetsPromptsRunAgain()
{
    EngineHarness h;
    h.session();
    QFile file(configFile(h));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray good = file.readAll();
    file.close();
    QCOMPARE(rewriteAndReload(h, BrokenConfig).configErrors.size(), 1);
    QVERIFY(h.prompt(u"refused"_s)->error);

    QVERIFY(rewriteAndReload(h, good).configErrors.isEmpty());
    h.server().enqueue(FakeTurn().text({u"Hello."_s}).usage(5, 1));
    const std::optional<PromptOutcome> outcome = h.prompt(u"hello"_s);
    QVERIFY(outcome);
    QVERIFY2(!outcome->error, qPrintable(outcome->error ? outcome->error->message() : QString()));
    QCOMPARE(h.server().requests().size(), 1);
}

QTEST_GUILESS_MAIN(EngineConfigErrorsTest)
#include "tst_engine_config_errors.moc"
