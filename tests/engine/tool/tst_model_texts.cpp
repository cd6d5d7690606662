// What the model reads is never translated (issue #17, point 13): with a
// translator installed that marks every qcode text it translates, each
// built-in tool runs through its happy path and its main error paths, and
// no output or error the model receives carries the mark.

#include <QCoreApplication>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSet>
#include <QTcpServer>
#include <QTest>
#include <QTranslator>

#include "TempDatabase.h"
#include "TempTree.h"
#include "TinyHttpServer.h"
#include "ToolTestSupport.h"
#include "engine/agent/AgentRegistry.h"
#include "engine/tool/BuiltinTools.h"
#include "engine/tool/FileTimes.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString Mark = u"\u27E6translated\u27E7"_s;

// Translates every text to a marked one, so a tr() anywhere on the model's
// path shows. Qt's own texts are marked too: the window loads Qt's
// translations, so a QNetworkReply or QProcess errorString() passed on to the
// model would be German for a German user.
class MarkingTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *sourceText, const char *disambiguation = nullptr,
                      int n = -1) const override
    {
        Q_UNUSED(disambiguation);
        Q_UNUSED(n);
        Q_UNUSED(context);
        return Mark + QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

class NoEvents : public SessionEventSink
{
public:
    void publish(const SessionEvent &) override {}
};

QJsonObject oneQuestion()
{
    const QJsonArray options{QJsonObject{{u"label"_s, u"SQLite"_s}, {u"description"_s, u"A file"_s}}};
    return QJsonObject{{u"questions"_s, QJsonArray{QJsonObject{{u"question"_s, u"Which database?"_s},
                                                                {u"header"_s, u"Storage"_s},
                                                                {u"options"_s, options}}}}};
}

QJsonObject todos(const QString &status)
{
    return QJsonObject{{u"todos"_s, QJsonArray{QJsonObject{{u"content"_s, u"Write the tests"_s},
                                                           {u"status"_s, status},
                                                           {u"priority"_s, u"high"_s}}}}};
}

} // namespace

class ModelTextsTest : public QObject
{
    Q_OBJECT

    MarkingTranslator m_translator;
    TempTree m_tree;
    std::unique_ptr<TempDatabase> m_database;
    std::unique_ptr<Store> m_store;
    NoEvents m_events;
    FileTimes m_times;
    QNetworkAccessManager m_network;
    AgentRegistry m_agents;
    std::unique_ptr<AbortSignal> m_abort;
    RecordingAsker m_asker;
    std::unique_ptr<ToolRegistry> m_tools;
    // A registry with none of the engine's services: the tools that need
    // one say they cannot run.
    std::unique_ptr<ToolRegistry> m_bare;
    QSet<QString> m_covered;

    QString m_sessionID = u"ses_test"_s;

    ToolContext context()
    {
        ToolContext context = toolContext(m_tree.path(u"project"_s), &m_asker, m_abort.get());
        context.sessionID = m_sessionID;
        return context;
    }

    ToolResult call(ToolRegistry &tools, const QString &tool, const QJsonObject &arguments)
    {
        m_covered.insert(tool);
        return runCall(tools, ToolCall{tool, u"call_1"_s, arguments}, context());
    }

    // The model reads `result`: its text must be English and say `expected`.
    void expectOutput(const QString &tool, const QJsonObject &arguments, const QString &expected)
    {
        const ToolResult result = call(*m_tools, tool, arguments);
        const ToolOutput *output = outputOf(result);
        QVERIFY2(output, qPrintable(tool + u": "_s + describe(result)));
        QVERIFY2(!output->output.contains(Mark), qPrintable(tool + u" told the model: "_s + output->output));
        QVERIFY2(output->output.contains(expected), qPrintable(tool + u" said: "_s + output->output));
    }

    void expectFailure(const QString &tool, const QJsonObject &arguments, const QString &expected,
                       ToolRegistry *tools = nullptr)
    {
        const ToolResult result = call(tools ? *tools : *m_tools, tool, arguments);
        const ToolFailure *failure = failureOf(result);
        QVERIFY2(failure, qPrintable(tool + u": "_s + describe(result)));
        QVERIFY2(!failure->message.contains(Mark), qPrintable(tool + u" told the model: "_s + failure->message));
        QVERIFY2(failure->message.contains(expected), qPrintable(tool + u" said: "_s + failure->message));
    }

    QString file(const QString &name) const { return m_tree.path(u"project/"_s + name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QCoreApplication::installTranslator(&m_translator));
    }

    void cleanupTestCase() { QCoreApplication::removeTranslator(&m_translator); }

    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(m_tree.write(u"project/notes.txt"_s, "alpha\nbeta\nbeta\n"));
        QVERIFY(m_tree.write(u"project/blob.bin"_s, QByteArray("\x00\x01\x02\x03\xff\x00", 6)));
        QVERIFY(m_tree.write(u"project/src/main.cpp"_s, "int main() { return 0; }\n"));
        m_database = std::make_unique<TempDatabase>();
        m_store = m_database->open();
        QVERIFY(m_store);
        m_times = FileTimes();
        m_abort = std::make_unique<AbortSignal>();
        m_asker.requests.clear();
        m_asker.answers.clear();
        m_agents = AgentRegistry::build({}, {}, AgentPaths{m_tree.path(u"data"_s), m_tree.path(u"project"_s),
                                                           m_tree.root(), {}});

        ToolServices services{m_store.get(), &m_events, m_tree.path(u"data"_s), &m_times, &m_network, &m_agents,
                              {}, {}};
        services.runChild = [](ChildRequest request) -> QCoro::Task<Result<ChildResult>> {
            co_return ChildResult{u"ses_child"_s, u"Found it in "_s + request.prompt};
        };
        services.askQuestion = [](QuestionRequest request,
                                  QPointer<AbortSignal>) -> QCoro::Task<std::optional<QList<QStringList>>> {
            if (request.questions.first().question.contains(u"dismiss"_s))
                co_return std::nullopt;
            co_return QList<QStringList>{{u"SQLite"_s}};
        };
        const auto canUseTask = [](const QString &) { return true; };
        m_tools = makeBuiltinToolRegistry(services, canUseTask);
        m_bare = makeBuiltinToolRegistry(ToolServices{nullptr, nullptr, m_tree.path(u"data"_s), &m_times, nullptr,
                                                      nullptr, {}, {}},
                                         canUseTask);
    }

    void theTranslatorMarksQcodeTexts()
    {
        // Without this the suite would prove nothing.
        QVERIFY(QCoreApplication::translate("qcode::EditTool", "Edit applied successfully.").startsWith(Mark));
        QVERIFY(QCoreApplication::translate("FileReader", "File not found: %1").startsWith(Mark));
    }

    void theQuestionToolAnswersInEnglish()
    {
        expectOutput(u"question"_s, oneQuestion(), u"User has answered your questions"_s);
        QJsonObject dismissed = oneQuestion();
        QJsonArray questions = dismissed.value(u"questions"_s).toArray();
        QJsonObject first = questions.first().toObject();
        first.insert(u"question"_s, u"Shall I dismiss this?"_s);
        questions.replace(0, first);
        dismissed.insert(u"questions"_s, questions);
        expectFailure(u"question"_s, dismissed, u"dismissed"_s);
        expectFailure(u"question"_s, oneQuestion(), u"Questions cannot be asked here"_s, m_bare.get());
    }

    void theBashToolAnswersInEnglish()
    {
        expectOutput(u"bash"_s, QJsonObject{{u"command"_s, u"echo hello"_s}, {u"description"_s, u"Say hello"_s}},
                     u"hello"_s);
        expectFailure(u"bash"_s,
                      QJsonObject{{u"command"_s, u"ls"_s}, {u"description"_s, u"List"_s},
                                  {u"workdir"_s, file(u"missing"_s)}},
                      u"is not a directory"_s);
        expectOutput(u"bash"_s,
                     QJsonObject{{u"command"_s, u"sleep 30"_s}, {u"description"_s, u"Wait"_s}, {u"timeout"_s, 200}},
                     u"bash tool terminated command after exceeding timeout 200 ms"_s);
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}, true});
        expectFailure(u"bash"_s, QJsonObject{{u"command"_s, u"rm -rf build"_s}, {u"description"_s, u"Clean"_s}},
                      u"The user has specified a rule"_s);
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}, false});
        expectFailure(u"bash"_s, QJsonObject{{u"command"_s, u"rm -rf build"_s}, {u"description"_s, u"Clean"_s}},
                      u"The user rejected permission"_s);
    }

    void theReadToolAnswersInEnglish()
    {
        expectOutput(u"read"_s, QJsonObject{{u"filePath"_s, file(u"notes.txt"_s)}}, u"alpha"_s);
        expectOutput(u"read"_s, QJsonObject{{u"filePath"_s, file(u"src"_s)}}, u"main.cpp"_s);
        expectFailure(u"read"_s, QJsonObject{{u"filePath"_s, file(u"note.txt"_s)}}, u"File not found"_s);
        expectFailure(u"read"_s, QJsonObject{{u"filePath"_s, file(u"blob.bin"_s)}}, u"Cannot read binary file"_s);
        expectFailure(u"read"_s, QJsonObject{{u"filePath"_s, file(u"notes.txt"_s)}, {u"offset"_s, 40}},
                      u"out of range"_s);
    }

    void theSearchToolsAnswerInEnglish()
    {
        expectOutput(u"glob"_s, QJsonObject{{u"pattern"_s, u"**/*.cpp"_s}}, u"main.cpp"_s);
        expectOutput(u"glob"_s, QJsonObject{{u"pattern"_s, u"**/*.rs"_s}}, u"No files found"_s);
        expectOutput(u"grep"_s, QJsonObject{{u"pattern"_s, u"beta"_s}}, u"notes.txt"_s);
        expectOutput(u"grep"_s, QJsonObject{{u"pattern"_s, u"gamma"_s}}, u"No files found"_s);
        const ToolResult broken = call(*m_tools, u"grep"_s, QJsonObject{{u"pattern"_s, u"(unclosed"_s}});
        const QString said = outputOf(broken) ? outputOf(broken)->output : failureOf(broken)->message;
        QVERIFY2(!said.contains(Mark), qPrintable(said));
    }

    void theEditToolAnswersInEnglish()
    {
        const QString notes = file(u"notes.txt"_s);
        expectOutput(u"read"_s, QJsonObject{{u"filePath"_s, notes}}, u"alpha"_s);
        expectOutput(u"edit"_s,
                     QJsonObject{{u"filePath"_s, notes}, {u"oldString"_s, u"alpha"_s}, {u"newString"_s, u"gamma"_s}},
                     u"Edit applied successfully."_s);
        expectFailure(u"edit"_s,
                      QJsonObject{{u"filePath"_s, notes}, {u"oldString"_s, u"same"_s}, {u"newString"_s, u"same"_s}},
                      u"No changes to apply"_s);
        expectFailure(u"edit"_s,
                      QJsonObject{{u"filePath"_s, notes}, {u"oldString"_s, u"delta"_s}, {u"newString"_s, u"x"_s}},
                      u"Could not find oldString"_s);
        expectFailure(u"edit"_s,
                      QJsonObject{{u"filePath"_s, notes}, {u"oldString"_s, u"beta"_s}, {u"newString"_s, u"x"_s}},
                      u"Found multiple matches"_s);
        expectFailure(u"edit"_s,
                      QJsonObject{{u"filePath"_s, file(u"gone.txt"_s)}, {u"oldString"_s, u"a"_s},
                                  {u"newString"_s, u"b"_s}},
                      u"not found"_s);
        expectFailure(u"edit"_s,
                      QJsonObject{{u"filePath"_s, file(u"src"_s)}, {u"oldString"_s, u"a"_s}, {u"newString"_s, u"b"_s}},
                      u"Path is a directory"_s);
        expectFailure(u"edit"_s,
                      QJsonObject{{u"filePath"_s, file(u"blob.bin"_s)}, {u"oldString"_s, u"a"_s},
                                  {u"newString"_s, u"b"_s}},
                      u"You must read file"_s);
    }

    void theWriteToolAnswersInEnglish()
    {
        expectOutput(u"write"_s, QJsonObject{{u"filePath"_s, file(u"new.txt"_s)}, {u"content"_s, u"fresh"_s}},
                     u"Wrote file successfully."_s);
        expectFailure(u"write"_s, QJsonObject{{u"filePath"_s, file(u"notes.txt"_s)}, {u"content"_s, u"over"_s}},
                      u"You must read file"_s);
        expectFailure(u"write"_s, QJsonObject{{u"filePath"_s, file(u"src"_s)}, {u"content"_s, u"x"_s}},
                      u"Path is a directory"_s);
    }

    void theApplyPatchToolAnswersInEnglish()
    {
        const auto patch = [](const QString &body) {
            return QJsonObject{{u"patchText"_s, QString(u"*** Begin Patch\n"_s + body + u"*** End Patch"_s)}};
        };
        expectOutput(u"apply_patch"_s, patch(u"*** Add File: added.txt\n+hello\n"_s), u"Success."_s);
        expectFailure(u"apply_patch"_s, QJsonObject{{u"patchText"_s, u"no markers at all"_s}},
                      u"Invalid patch format"_s);
        expectFailure(u"apply_patch"_s, patch(u"*** Update File: absent.txt\n@@\n-old\n+new\n"_s),
                      u"apply_patch verification failed"_s);
        expectFailure(u"apply_patch"_s, patch(u"*** Update File: notes.txt\n@@ nowhere\n-alpha\n+omega\n"_s),
                      u"Failed to find"_s);
        expectFailure(u"apply_patch"_s, patch(QString()), u"patch rejected"_s);
    }

    void theTaskToolAnswersInEnglish()
    {
        const QJsonObject task{{u"description"_s, u"Find the bug"_s},
                               {u"prompt"_s, u"the parser"_s},
                               {u"subagent_type"_s, u"general"_s}};
        expectOutput(u"task"_s, task, u"<task_result>"_s);
        QJsonObject unknown = task;
        unknown.insert(u"subagent_type"_s, u"nobody"_s);
        expectFailure(u"task"_s, unknown, u"Unknown agent type"_s);
        expectFailure(u"task"_s, task, u"Unknown agent type"_s, m_bare.get());
        m_abort->abort();
        expectFailure(u"task"_s, task, u"The task was stopped"_s);
    }

    void theWebfetchToolAnswersInEnglish()
    {
        TinyHttpServer server(R"({"greeting":"hello from the server"})");
        QVERIFY(server.listen());
        expectOutput(u"webfetch"_s, QJsonObject{{u"url"_s, server.url().toString()}, {u"format"_s, u"text"_s}},
                     u"hello from the server"_s);
        expectFailure(u"webfetch"_s, QJsonObject{{u"url"_s, u"ftp://example.org/file"_s}, {u"format"_s, u"text"_s}},
                      u"URL"_s);
        expectFailure(u"webfetch"_s, QJsonObject{{u"url"_s, server.url().toString()}, {u"format"_s, u"text"_s}},
                      u"cannot be fetched here"_s, m_bare.get());
        quint16 closedPort = 0;
        {
            QTcpServer closed;
            QVERIFY(closed.listen(QHostAddress::LocalHost));
            closedPort = closed.serverPort();
        }
        expectFailure(u"webfetch"_s,
                      QJsonObject{{u"url"_s, u"http://127.0.0.1:%1/"_s.arg(closedPort)}, {u"format"_s, u"text"_s}},
                      u"Connection refused"_s);
    }

    void theTodoToolAnswersInEnglish()
    {
        // A session the database does not hold: it refuses the list, and
        // its (translated) words stay out of what the model reads.
        expectFailure(u"todowrite"_s, todos(u"pending"_s), u"could not be saved"_s);
        QVERIFY(m_store->upsertProject(makeProject()));
        const Session session = makeSession();
        QVERIFY(m_store->upsertSession(session));
        m_sessionID = session.id;
        expectOutput(u"todowrite"_s, todos(u"pending"_s), u"Write the tests"_s);
        expectFailure(u"todowrite"_s, todos(u"pending"_s), u"cannot be saved"_s, m_bare.get());
    }

    void theRegistryAnswersInEnglish()
    {
        expectOutput(u"telepathy"_s, QJsonObject{}, u"unavailable tool"_s);
        expectFailure(u"read"_s, QJsonObject{{u"filePath"_s, QJsonValue(42)}}, u"invalid arguments"_s);
    }

    void everyRegisteredToolIsCovered()
    {
        // A new tool joins the registry: this suite runs it too.
        const QStringList names = m_tools->names();
        for (const QString &name : names)
            QVERIFY2(m_covered.contains(name), qPrintable(name + u" is not run by this suite"_s));
    }
};

QTEST_GUILESS_MAIN(ModelTextsTest)
#include "tst_model_texts.moc"
