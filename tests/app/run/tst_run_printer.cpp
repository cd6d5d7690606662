// What `qcode run` prints, from scripted events (no engine): the default
// format streams the assistant's answer to stdout delta by delta and puts
// one line per finished tool, permission refusals and errors on stderr;
// json prints every event as one compact line.

#include <QBuffer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "RunPrinter.h"
#include "TempDatabase.h"
#include "engine/Engine.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

struct Output {
    QBuffer out;
    QBuffer err;
    Output()
    {
        out.open(QIODevice::WriteOnly);
        err.open(QIODevice::WriteOnly);
    }
    QString stdoutText() const { return QString::fromUtf8(out.data()); }
    QString stderrText() const { return QString::fromUtf8(err.data()); }
};

Part makePart(const QString &sessionID, const QString &messageID, PartBody body)
{
    return Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, messageID, std::move(body), {}};
}

Part textPart(const QString &sessionID, const QString &messageID, const QString &text, bool ended)
{
    TextPart body{text, std::nullopt, std::nullopt, PartTime{1, ended ? std::optional<qint64>(2) : std::nullopt},
                  std::nullopt};
    return makePart(sessionID, messageID, body);
}

Part toolPart(const QString &sessionID, const QString &messageID, const QString &tool, ToolState state)
{
    return makePart(sessionID, messageID, ToolPart{u"call_1"_s, tool, std::move(state), std::nullopt, {}});
}

PartDelta delta(const Part &part, const QString &text)
{
    return PartDelta{part.sessionID, part.messageID, part.id, u"text"_s, text};
}

} // namespace

class RunPrinterTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();

    void answerStreamsToStdoutDeltaByDelta();
    void answerEndsWithANewline();
    void reasoningIsHidden();
    void theUsersOwnTextIsNotEchoed();
    void otherSessionsAreNotShown();
    void aTextPartSavedWithoutDeltasIsPrintedWhole();
    void aTrimmedFinalTextPrintsNothingMore();
    void headerNamesAgentAndModelOnStderr();
    void finishedToolsGetOneLineOnStderr();
    void failedToolsSayWhy();
    void toolsWithoutTitleShowTheirMainArgument();
    void runningTaskIsAnnouncedOnce();
    void refusedPermissionNamesPermissionAndPatterns();
    void sessionErrorGoesToStderrOnce();
    void retriesAreReportedOncePerAttempt();
    void abortedOutcomeIsSaid();
    void bufferedOutputKeepsEventOrderAcrossStreams();

    void jsonPrintsEveryEventAsOneCompactLine();
    void jsonPutsOnlyTheFinalErrorOnStderr();

private:
    void feed(RunPrinter &printer, const QList<SessionEvent> &events);
    QString m_session;
    Message m_user;
    Message m_assistant;
};

void RunPrinterTest::init()
{
    m_session = makeSession().id;
    m_user = makeUserMessage(m_session);
    m_assistant = makeAssistantMessage(m_session, m_user.id());
}

void RunPrinterTest::feed(RunPrinter &printer, const QList<SessionEvent> &events)
{
    printer.setSessionID(m_session);
    for (const SessionEvent &event : events)
        printer.print(event);
}

void RunPrinterTest::answerStreamsToStdoutDeltaByDelta()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const Part text = textPart(m_session, m_assistant.id(), {}, false);
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{text}, PartDelta{delta(text, u"Hel"_s)}});
    // Each delta is written when it arrives, not at the end of the part.
    QCOMPARE(o.stdoutText(), u"Hel"_s);
    printer.print(delta(text, u"lo, wörld"_s));
    QCOMPARE(o.stdoutText(), u"Hello, wörld"_s);
}

void RunPrinterTest::answerEndsWithANewline()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const Part text = textPart(m_session, m_assistant.id(), {}, false);
    const Part done = Part{text.id, text.sessionID, text.messageID,
                           TextPart{u"Done."_s, std::nullopt, std::nullopt, PartTime{1, 2}, std::nullopt}, {}};
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{text}, delta(text, u"Done."_s), PartUpdated{done}});
    QCOMPARE(o.stdoutText(), u"Done.\n"_s);
    // Two parts: each on its own line; finish adds nothing more.
    const Part second = textPart(m_session, m_assistant.id(), {}, false);
    feed(printer, {PartUpdated{second}, delta(second, u"More"_s)});
    printer.finish(PromptOutcome{m_session, m_assistant.id(), std::nullopt, false});
    QCOMPARE(o.stdoutText(), u"Done.\nMore\n"_s);
    printer.finish(PromptOutcome{m_session, m_assistant.id(), std::nullopt, false});
    QCOMPARE(o.stdoutText(), u"Done.\nMore\n"_s);
    QCOMPARE(o.stderrText().count(u"Error"_s), 0);
}

void RunPrinterTest::reasoningIsHidden()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const Part thinking = makePart(m_session, m_assistant.id(), ReasoningPart{{}, std::nullopt, PartTime{1, {}}});
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{thinking}, delta(thinking, u"secret plan"_s)});
    QCOMPARE(o.stdoutText(), QString());
    QVERIFY(!o.stderrText().contains(u"secret"_s));
}

void RunPrinterTest::theUsersOwnTextIsNotEchoed()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    feed(printer, {MessageUpdated{m_user}, PartUpdated{textPart(m_session, m_user.id(), u"my question"_s, true)}});
    QCOMPARE(o.stdoutText(), QString());
}

void RunPrinterTest::otherSessionsAreNotShown()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const QString child = makeSession(u"global"_s, m_session).id;
    const Message childAnswer = makeAssistantMessage(child, makeUserMessage(child).id());
    const Part text = textPart(child, childAnswer.id(), {}, false);
    feed(printer, {MessageUpdated{childAnswer}, PartUpdated{text}, delta(text, u"subagent words"_s),
                   PartUpdated{toolPart(child, childAnswer.id(), u"read"_s,
                                        ToolCompleted{{}, u"out"_s, u"child.txt"_s, {}, 1, 2, {}, {}})},
                   SessionError{child, NamedError{u"UnknownError"_s, {{u"message"_s, u"child broke"_s}}}}});
    QCOMPARE(o.stdoutText(), QString());
    QCOMPARE(o.stderrText(), QString());
}

void RunPrinterTest::aTextPartSavedWithoutDeltasIsPrintedWhole()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const Part text = textPart(m_session, m_assistant.id(), u"Whole answer"_s, true);
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{text}});
    QCOMPARE(o.stdoutText(), u"Whole answer\n"_s);
    // A later update of the ended part (pruning, a re-save) prints nothing.
    printer.print(PartUpdated{text});
    QCOMPARE(o.stdoutText(), u"Whole answer\n"_s);
}

void RunPrinterTest::aTrimmedFinalTextPrintsNothingMore()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const Part text = textPart(m_session, m_assistant.id(), {}, false);
    Part final = text;
    final.body = TextPart{u"Answer"_s, std::nullopt, std::nullopt, PartTime{1, 2}, std::nullopt};
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{text}, delta(text, u"Answer\n\n"_s), PartUpdated{final}});
    QCOMPARE(o.stdoutText(), u"Answer\n\n"_s);
}

void RunPrinterTest::headerNamesAgentAndModelOnStderr()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    feed(printer, {MessageUpdated{m_assistant}, MessageUpdated{m_assistant}});
    QCOMPARE(o.stderrText(), u"> build · claude-sonnet-4-5\n"_s);
}

void RunPrinterTest::finishedToolsGetOneLineOnStderr()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    Part tool = toolPart(m_session, m_assistant.id(), u"read"_s, ToolPending{{}, {}});
    feed(printer, {PartUpdated{tool}});
    tool.body = ToolPart{u"call_1"_s, u"read"_s, ToolRunning{{}, std::nullopt, std::nullopt, 1}, std::nullopt, {}};
    printer.print(PartUpdated{tool});
    QCOMPARE(o.stderrText(), QString()); // pending and running say nothing
    tool.body = ToolPart{u"call_1"_s, u"read"_s, ToolCompleted{{}, u"…"_s, u"src/main.cpp"_s, {}, 1, 2, {}, {}},
                         std::nullopt, {}};
    printer.print(PartUpdated{tool});
    printer.print(PartUpdated{tool}); // saved again (pruned): still one line
    QCOMPARE(o.stderrText(), u"| Read    src/main.cpp\n"_s);
    QCOMPARE(o.stdoutText(), QString());
}

void RunPrinterTest::failedToolsSayWhy()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const QJsonObject input{{u"command"_s, u"make test"_s}};
    feed(printer, {PartUpdated{toolPart(m_session, m_assistant.id(), u"bash"_s,
                                        ToolError{input, u"exit status 2\nmore detail"_s, std::nullopt, 1, 2})}});
    QCOMPARE(o.stderrText(), u"✗ Bash    make test (failed: exit status 2 …)\n"_s);
}

void RunPrinterTest::toolsWithoutTitleShowTheirMainArgument()
{
    ToolPart glob{u"c"_s, u"glob"_s, ToolCompleted{{{u"pattern"_s, u"**/*.cpp"_s}}, {}, {}, {}, 1, 2, {}, {}}, {}, {}};
    QCOMPARE(RunToolLine::summary(glob), u"**/*.cpp"_s);
    ToolPart custom{u"c"_s, u"mcp_x"_s, ToolCompleted{{{u"n"_s, 3}}, {}, {}, {}, 1, 2, {}, {}}, {}, {}};
    QCOMPARE(RunToolLine::summary(custom), u"{\"n\":3}"_s);
    ToolPart bare{u"c"_s, u"mcp_y"_s, ToolCompleted{{}, {}, {}, {}, 1, 2, {}, {}}, {}, {}};
    QCOMPARE(RunToolLine::summary(bare), u"Unknown"_s);
    ToolPart longTitle{u"c"_s, u"bash"_s, ToolCompleted{{}, {}, QString(300, u'x'), {}, 1, 2, {}, {}}, {}, {}};
    QCOMPARE(RunToolLine::summary(longTitle).size(), 120);
    QCOMPARE(RunToolLine::displayName(u"todowrite"_s), u"Todo"_s);
    QCOMPARE(RunToolLine::displayName(u"my_tool"_s), u"my_tool"_s);
}

void RunPrinterTest::runningTaskIsAnnouncedOnce()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const QJsonObject input{{u"description"_s, u"Find the parser"_s}};
    Part task = toolPart(m_session, m_assistant.id(), u"task"_s, ToolRunning{input, std::nullopt, std::nullopt, 1});
    feed(printer, {PartUpdated{task}, PartUpdated{task}});
    task.body = ToolPart{u"call_1"_s, u"task"_s, ToolCompleted{input, u"r"_s, u"Find the parser"_s, {}, 1, 2, {}, {}},
                         std::nullopt, {}};
    printer.print(PartUpdated{task});
    QCOMPARE(o.stderrText(), u"| Task    Find the parser\n"_s);
}

void RunPrinterTest::refusedPermissionNamesPermissionAndPatterns()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    PermissionRequest request;
    request.id = u"per_1"_s;
    request.sessionID = makeSession(u"global"_s, m_session).id; // a subagent's question counts too
    request.permission = u"bash"_s;
    request.patterns = QStringList{u"rm -rf build"_s, u"make"_s};
    // The engine also reports the refusal as an error, and the prompt ends
    // with it: the one line says it all.
    const NamedError refused{u"PermissionRefused"_s, {{u"message"_s, u"Permission \"bash\" was refused"_s}}};
    feed(printer, {PermissionAsked{request}, PermissionAsked{request},
                   PermissionReplied{request.sessionID, request.id, PermissionReply::Reject},
                   SessionError{request.sessionID, refused}, SessionError{m_session, refused}});
    printer.finish(PromptOutcome{m_session, {}, refused, false});
    QCOMPARE(o.stderrText(),
             u"! Permission refused: bash (rm -rf build, make). Run with --auto-approve to allow it.\n"_s);

    Output approved;
    RunPrinter autoPrinter(RunFormat::Default, &approved.out, &approved.err);
    autoPrinter.setAutoApprove(true);
    autoPrinter.print(PermissionAsked{request});
    QCOMPARE(approved.stderrText(), u"! Permission granted: bash (rm -rf build, make)\n"_s);
}

void RunPrinterTest::sessionErrorGoesToStderrOnce()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const NamedError error{u"APIError"_s, {{u"message"_s, u"Invalid API key"_s}}};
    const Part text = textPart(m_session, m_assistant.id(), {}, false);
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{text}, delta(text, u"partial"_s), SessionError{m_session, error}});
    printer.finish(PromptOutcome{m_session, m_assistant.id(), error, false});
    QCOMPARE(o.stdoutText(), u"partial\n"_s);
    QCOMPARE(o.stderrText().count(u"Error: Invalid API key\n"_s), 1);
    // An error without a message is named.
    Output bare;
    RunPrinter barePrinter(RunFormat::Default, &bare.out, &bare.err);
    barePrinter.setSessionID(m_session);
    barePrinter.finish(PromptOutcome{m_session, {}, NamedError{u"MessageOutputLengthError"_s, {}}, false});
    QCOMPARE(bare.stderrText(), u"Error: MessageOutputLengthError\n"_s);
}

void RunPrinterTest::retriesAreReportedOncePerAttempt()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    const SessionStatusChanged retry{m_session, SessionStatus::retry(1, u"Provider is overloaded"_s, 1000)};
    feed(printer, {SessionStatusChanged{m_session, SessionStatus::busy()}, retry, retry,
                   SessionStatusChanged{m_session, SessionStatus::retry(2, u"Provider is overloaded"_s, 2000)}});
    QCOMPARE(o.stderrText(), u"! Retrying (attempt 1): Provider is overloaded\n"
                             u"! Retrying (attempt 2): Provider is overloaded\n"_s);
}

void RunPrinterTest::abortedOutcomeIsSaid()
{
    Output o;
    RunPrinter printer(RunFormat::Default, &o.out, &o.err);
    printer.setSessionID(m_session);
    printer.finish(PromptOutcome{m_session, {}, std::nullopt, true});
    QCOMPARE(o.stderrText(), u"Aborted.\n"_s);
}

void RunPrinterTest::bufferedOutputKeepsEventOrderAcrossStreams()
{
    // stdout and stderr on one terminal: one buffer sees both.
    QBuffer terminal;
    terminal.open(QIODevice::WriteOnly);
    RunPrinter printer(RunFormat::Default, &terminal, &terminal);
    printer.setBuffered(true);
    const Part text = textPart(m_session, m_assistant.id(), {}, false);
    feed(printer, {MessageUpdated{m_assistant}, PartUpdated{text}, delta(text, u"a"_s), delta(text, u"b"_s)});
    // The header went out when the answer started; the deltas wait.
    QCOMPARE(terminal.data(), QByteArray("> build · claude-sonnet-4-5\n"));
    printer.print(PartUpdated{toolPart(m_session, m_assistant.id(), u"read"_s,
                                       ToolCompleted{{}, {}, u"x.txt"_s, {}, 1, 2, {}, {}})});
    printer.print(delta(text, u"c"_s));
    QCOMPARE(terminal.data(), QByteArray("> build · claude-sonnet-4-5\nab| Read    x.txt\n"));
    printer.flush();
    QCOMPARE(terminal.data(), QByteArray("> build · claude-sonnet-4-5\nab| Read    x.txt\nc"));
    printer.finish(PromptOutcome{m_session, m_assistant.id(), std::nullopt, false});
    QCOMPARE(terminal.data(), QByteArray("> build · claude-sonnet-4-5\nab| Read    x.txt\nc\n"));
}

void RunPrinterTest::jsonPrintsEveryEventAsOneCompactLine()
{
    Output o;
    RunPrinter printer(RunFormat::Json, &o.out, &o.err);
    const QString child = makeSession(u"global"_s, m_session).id;
    const Part text = textPart(m_session, m_assistant.id(), {}, false);
    const QList<SessionEvent> events{
        SessionStatusChanged{m_session, SessionStatus::busy()},
        MessageUpdated{m_assistant},
        PartUpdated{text},
        delta(text, u"line one\nline \"two\""_s),
        SessionError{child, NamedError{u"UnknownError"_s, {{u"message"_s, u"x"_s}}}},
        SessionStatusChanged{m_session, SessionStatus::idle()},
    };
    feed(printer, events);
    printer.finish(PromptOutcome{m_session, m_assistant.id(), std::nullopt, false});
    const QList<QByteArray> lines = o.out.data().split('\n');
    QCOMPARE(lines.size(), events.size() + 1);
    QCOMPARE(lines.constLast(), QByteArray());
    for (qsizetype i = 0; i < events.size(); ++i) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(lines.at(i), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(document.object(), sessionEventToJson(events.at(i)));
    }
    QCOMPARE(o.stderrText(), QString()); // the child's error is in the JSON only
}

void RunPrinterTest::jsonPutsOnlyTheFinalErrorOnStderr()
{
    Output o;
    RunPrinter printer(RunFormat::Json, &o.out, &o.err);
    const NamedError error{u"APIError"_s, {{u"message"_s, u"Invalid API key"_s}}};
    feed(printer, {SessionError{m_session, error}});
    QCOMPARE(o.stderrText(), QString());
    printer.finish(PromptOutcome{m_session, {}, error, false});
    QCOMPARE(o.stderrText(), u"Error: Invalid API key\n"_s);
}

QTEST_GUILESS_MAIN(RunPrinterTest)
#include "tst_run_printer.moc"
