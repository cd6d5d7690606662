#include <QTest>

#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/SessionMarkdown.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class SessionMarkdownTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aConversationReadsAsHeadingsAndText()
    {
        Session session = makeSession();
        session.title = u"Fix the parser"_s;
        const Message user = makeUserMessage(session.id, 1000);
        const Message answer = makeAssistantMessage(session.id, user.id(), 1001);
        Part synthetic = makeTextPart(session.id, user.id(), u"Called the Read tool"_s);
        synthetic.as<TextPart>()->synthetic = true;
        const QList<MessageWithParts> messages{
            {user, {makeTextPart(session.id, user.id(), u"Why does it fail?"_s), synthetic}},
            {answer, {makeTextPart(session.id, answer.id(), u"Because of `x`."_s)}},
        };
        const QString markdown = SessionMarkdown::render(session, messages);
        QVERIFY(markdown.startsWith(u"# Fix the parser\n"_s));
        QVERIFY(markdown.contains(u"## You\n\nWhy does it fail?"_s));
        QVERIFY(markdown.contains(u"## Assistant ("_s));
        QVERIFY(markdown.contains(u"Because of `x`."_s));
        QVERIFY2(!markdown.contains(u"Called the Read tool"_s), "synthetic text is the engine's, not the person's");
    }

    void aToolCallShowsItsInputAndAShortenedOutputInFences()
    {
        Session session = makeSession();
        const Message user = makeUserMessage(session.id, 1000);
        const Message answer = makeAssistantMessage(session.id, user.id(), 1001);
        ToolPart tool;
        tool.callID = u"call_1"_s;
        tool.tool = u"bash"_s;
        QStringList lines;
        for (int i = 0; i < 100; ++i)
            lines.append(u"line %1 ```"_s.arg(i));
        tool.state = ToolCompleted{QJsonObject{{u"command"_s, u"make"_s}}, lines.join(u'\n'), u"make"_s, {}, 1, 2,
                                   std::nullopt, std::nullopt};
        Part part{Identifier::ascending(Identifier::Prefix::Part), session.id, answer.id(), tool, {}};
        const QString markdown = SessionMarkdown::renderMessage({answer, {part}});
        QVERIFY(markdown.contains(u"**Tool: bash** — make"_s));
        QVERIFY(markdown.contains(u"```sh\nmake\n```"_s));
        QVERIFY(!markdown.contains(u"\"command\""_s));
        QVERIFY(markdown.contains(u"line 39"_s));
        QVERIFY(!markdown.contains(u"line 40 "_s));
        QVERIFY(markdown.contains(u"60 more line"_s));
        // The output holds ``` itself: the fence around it is longer.
        QVERIFY(markdown.contains(u"````\nline 0"_s));
    }

    void aReadReadsAsTheFileNotAsTheToolsXml()
    {
        Session session = makeSession();
        const Message user = makeUserMessage(session.id, 1000);
        const Message answer = makeAssistantMessage(session.id, user.id(), 1001);
        ToolPart read;
        read.callID = u"call_1"_s;
        read.tool = u"read"_s;
        read.state = ToolCompleted{QJsonObject{{u"filePath"_s, u"/work/p/src/main.cpp"_s}},
                                   u"<path>/work/p/src/main.cpp</path>\n<type>file</type>\n<content>\n1: int main()\n2: {\n"
                                   "3: }\n\n(End of file - total 3 lines)\n</content>"_s,
                                   u"src/main.cpp"_s, {}, 1, 2, std::nullopt, std::nullopt};
        ToolPart bash;
        bash.callID = u"call_2"_s;
        bash.tool = u"bash"_s;
        bash.state = ToolCompleted{QJsonObject{{u"command"_s, u"sleep 99"_s}},
                                   u"partial\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 1000 ms\n"
                                   "</bash_metadata>"_s,
                                   u"sleep"_s, {}, 1, 2, std::nullopt, std::nullopt};
        const QString markdown = SessionMarkdown::renderMessage(
            {answer,
             {Part{Identifier::ascending(Identifier::Prefix::Part), session.id, answer.id(), read, {}},
              Part{Identifier::ascending(Identifier::Prefix::Part), session.id, answer.id(), bash, {}}}});
        QVERIFY(markdown.contains(u"**Tool: read** — src/main.cpp"_s));
        QVERIFY2(markdown.contains(u"int main()\n{\n}"_s), qPrintable(markdown));
        for (const QString &xml : {u"<path>"_s, u"<content>"_s, u"</content>"_s, u"<type>"_s, u"1: int"_s,
                                   u"<bash_metadata>"_s, u"filePath"_s})
            QVERIFY2(!markdown.contains(xml), qPrintable(xml));
        QVERIFY(markdown.contains(u"partial"_s));
    }

    void aFailedStepSaysWhyAndAStoppedOneSaysNothing()
    {
        Session session = makeSession();
        const Message user = makeUserMessage(session.id, 1000);
        Message failed = makeAssistantMessage(session.id, user.id(), 1001);
        failed.assistant()->error = NamedError{u"APIError"_s, QJsonObject{{u"message"_s, u"overloaded"_s}}};
        QVERIFY(SessionMarkdown::renderMessage({failed, {}}).contains(u"**Error:** overloaded"_s));
        Message stopped = makeAssistantMessage(session.id, user.id(), 1002);
        stopped.assistant()->error = NamedError{u"MessageAbortedError"_s, {}};
        QVERIFY(SessionMarkdown::renderMessage({stopped, {}}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(SessionMarkdownTest)
#include "tst_session_markdown.moc"
