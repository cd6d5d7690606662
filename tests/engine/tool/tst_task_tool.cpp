#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QList<ToolPart> toolParts(const QList<MessageWithParts> &messages, const QString &tool)
{
    QList<ToolPart> tools;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (const ToolPart *found = part.as<ToolPart>(); found && found->tool == tool)
                tools.append(*found);
        }
    }
    return tools;
}

QJsonObject taskCall(const QString &agent, const QString &prompt, const QString &taskID = {})
{
    QJsonObject arguments{{u"description"_s, u"Find the bug"_s}, {u"prompt"_s, prompt}, {u"subagent_type"_s, agent}};
    if (!taskID.isEmpty())
        arguments.insert(u"task_id"_s, taskID);
    return arguments;
}

// The description the model was given for `tool` in a request.
QString toolDescription(const QJsonObject &body, const QString &tool)
{
    for (const QJsonValue &value : body.value(u"tools"_s).toArray()) {
        const QJsonObject function = value.toObject().value(u"function"_s).toObject();
        if (function.value(u"name"_s).toString() == tool)
            return function.value(u"description"_s).toString();
    }
    return {};
}

QString messagesText(const QJsonObject &body)
{
    return QString::fromUtf8(QJsonDocument(body.value(u"messages"_s).toArray()).toJson(QJsonDocument::Compact));
}

EngineHarness::Setup realTools()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    return setup;
}

} // namespace

class TaskToolTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aTaskRunsAChildSessionAndReturnsItsLastText()
    {
        // Only the calling agent's rules ask; the subagent's rules stay as built.
        EngineHarness::Setup setup = realTools();
        setup.config.insert(u"agent"_s,
                            QJsonObject{{u"build"_s, QJsonObject{{u"permission"_s, QJsonObject{{u"task"_s, u"ask"_s}}}}}});
        EngineHarness h(setup);
        QList<PermissionRequest> asked;
        h.onEvent<PermissionAsked>(this, [&h, &asked](const PermissionAsked &event) {
            asked.append(event.request);
            h.engine().replyPermission(event.request.id, PermissionReply::Once);
        });
        h.server().enqueue(FakeTurn().toolCall(u"task"_s, taskCall(u"general"_s, u"look for the bug"_s)));
        h.server().enqueue(FakeTurn().text({u"first thought"_s}).toolCall(u"glob"_s, {{u"pattern"_s, u"*.none"_s}}));
        h.server().enqueue(FakeTurn().text({u"the bug is in main.cpp"_s}));
        h.server().enqueue(FakeTurn().text({u"Fixed."_s}));
        const auto outcome = h.prompt(u"find the bug"_s);
        QVERIFY(outcome);
        QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");

        const Result<QList<Session>> children = h.store().children(h.session());
        QVERIFY(children);
        QCOMPARE(children->size(), 1);
        const Session child = children->first();
        QCOMPARE(child.title, u"Find the bug (@general subagent)"_s);
        // The child may not plan or start subagents of its own.
        QVERIFY(child.permission);
        const QByteArray rules = QJsonDocument(*child.permission).toJson(QJsonDocument::Compact);
        QVERIFY(rules.contains("{\"action\":\"deny\",\"pattern\":\"*\",\"permission\":\"todowrite\"}"));
        QVERIFY(rules.contains("{\"action\":\"deny\",\"pattern\":\"*\",\"permission\":\"task\"}"));

        const QList<ToolPart> tasks = toolParts(h.messages(), u"task"_s);
        QCOMPARE(tasks.size(), 1);
        const auto *completed = std::get_if<ToolCompleted>(&tasks.first().state);
        QVERIFY(completed);
        QCOMPARE(completed->output, u"task_id: %1 (for resuming to continue this task if needed)\n\n"
                                    "<task_result>\nthe bug is in main.cpp\n</task_result>"_s.arg(child.id));
        QCOMPARE(completed->title, u"Find the bug"_s);
        QCOMPARE(completed->metadata.value(u"sessionId"_s).toString(), child.id);
        QCOMPARE(completed->metadata.value(u"model"_s).toObject().value(u"modelID"_s).toString(), u"fake-model"_s);

        // The child's id reached the part while the child was still running.
        bool linkedWhileRunning = false;
        for (const PartUpdated &event : h.sink().all<PartUpdated>()) {
            const ToolPart *tool = event.part.as<ToolPart>();
            const auto *running = tool ? std::get_if<ToolRunning>(&tool->state) : nullptr;
            if (running && running->metadata && running->metadata->value(u"sessionId"_s).toString() == child.id)
                linkedWhileRunning = true;
        }
        QVERIFY(linkedWhileRunning);

        // Asked with the subagent's name; "always" covers every subagent.
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().permission, u"task"_s);
        QCOMPARE(asked.first().patterns, QStringList{u"general"_s});
        QCOMPARE(asked.first().always, QStringList{u"*"_s});
        // The parent's next step read the result.
        QCOMPARE(h.server().requests().size(), 4);
        QVERIFY(messagesText(h.requestBody(3)).contains(u"the bug is in main.cpp"_s));
    }

    void aTaskIdResumesTheSameChild()
    {
        EngineHarness::Setup setup = realTools();
        setup.config.insert(u"permission"_s, QJsonObject{{u"task"_s, u"allow"_s}});
        EngineHarness h(setup);
        h.server().enqueue(FakeTurn().toolCall(u"task"_s, taskCall(u"general"_s, u"count the files"_s)));
        h.server().enqueue(FakeTurn().text({u"there are 3 files"_s}));
        h.server().enqueue(FakeTurn().text({u"Three."_s}));
        QVERIFY(h.prompt(u"how many files?"_s));
        const Result<QList<Session>> first = h.store().children(h.session());
        QVERIFY(first && first->size() == 1);
        const QString childID = first->first().id;

        h.server().enqueue(FakeTurn().toolCall(u"task"_s, taskCall(u"general"_s, u"and the folders?"_s, childID)));
        h.server().enqueue(FakeTurn().text({u"2 folders"_s}));
        h.server().enqueue(FakeTurn().text({u"Two."_s}));
        const auto outcome = h.prompt(u"and folders?"_s);
        QVERIFY(outcome);
        QVERIFY(!outcome->error);

        const Result<QList<Session>> children = h.store().children(h.session());
        QVERIFY(children);
        QCOMPARE(children->size(), 1);
        // The resumed child saw its earlier exchange.
        QVERIFY(messagesText(h.requestBody(4)).contains(u"there are 3 files"_s));
        const Result<QList<MessageWithParts>> childMessages = h.store().messages(childID);
        QVERIFY(childMessages);
        QCOMPARE(childMessages->size(), 4);
        const QList<ToolPart> tasks = toolParts(h.messages(), u"task"_s);
        QCOMPARE(tasks.size(), 2);
        const auto *completed = std::get_if<ToolCompleted>(&tasks.last().state);
        QVERIFY(completed);
        QVERIFY(completed->output.startsWith(u"task_id: %1 "_s.arg(childID)));
        QVERIFY(completed->output.contains(u"<task_result>\n2 folders\n</task_result>"_s));
    }

    void anUnknownAgentIsAnErrorTheModelReads()
    {
        EngineHarness h(realTools());
        h.server().enqueue(FakeTurn().toolCall(u"task"_s, taskCall(u"wizard"_s, u"do magic"_s)));
        h.server().enqueue(FakeTurn().text({u"No wizard then."_s}));
        const auto outcome = h.prompt(u"go"_s);
        QVERIFY(outcome);
        QVERIFY(!outcome->error);
        const QList<ToolPart> tasks = toolParts(h.messages(), u"task"_s);
        QCOMPARE(tasks.size(), 1);
        const auto *failed = std::get_if<ToolError>(&tasks.first().state);
        QVERIFY(failed);
        QCOMPARE(failed->error, u"Unknown agent type: wizard is not a valid agent type"_s);
        QCOMPARE(h.sink().all<PermissionAsked>().size(), 0);
        const Result<QList<Session>> children = h.store().children(h.session());
        QVERIFY(children && children->isEmpty());
        QCOMPARE(h.server().requests().size(), 2);
    }

    void aDeniedSubagentIsNotListed()
    {
        EngineHarness::Setup setup = realTools();
        setup.config.insert(
            u"agent"_s,
            QJsonObject{{u"build"_s, QJsonObject{{u"permission"_s,
                                                  QJsonObject{{u"task"_s, QJsonObject{{u"*"_s, u"allow"_s},
                                                                                    {u"explore"_s, u"deny"_s}}}}}}}});
        EngineHarness h(setup);
        h.server().enqueue(FakeTurn().text({u"Hi"_s}));
        QVERIFY(h.prompt(u"hello"_s));
        const QString description = toolDescription(h.requestBody(0), u"task"_s);
        QVERIFY2(description.contains(u"\n- general: "_s), qPrintable(description));
        QVERIFY2(!description.contains(u"- explore:"_s), qPrintable(description));
        // Primary agents are never offered as subagents.
        QVERIFY(!description.contains(u"- build:"_s));
        QVERIFY(!description.contains(u"- plan:"_s));
    }

    void stoppingTheParentStopsTheChild()
    {
        EngineHarness::Setup setup = realTools();
        setup.config.insert(u"permission"_s, QJsonObject{{u"task"_s, u"allow"_s}});
        EngineHarness h(setup);
        h.server().enqueue(FakeTurn().toolCall(u"task"_s, taskCall(u"general"_s, u"work forever"_s)));
        h.server().enqueue(FakeTurn().text({u"work"_s, u"ing"_s}).stallAfter(1));
        const QString parent = h.session();
        connect(&h.server(), &FakeProviderServer::requestReceived, this, [&h, parent](int index) {
            if (index == 1)
                h.engine().abort(parent);
        });
        const auto outcome = h.prompt(u"go"_s);
        QVERIFY(outcome);
        QVERIFY(outcome->aborted);
        const Result<QList<Session>> children = h.store().children(parent);
        QVERIFY(children && children->size() == 1);
        QVERIFY(QTest::qWaitFor([&] { return !h.engine().isBusy(children->first().id); }, 5000));
        for (const ToolPart &task : toolParts(h.messages(), u"task"_s))
            QVERIFY(task.isFinished());
        QCOMPARE(h.server().requests().size(), 2);
    }
};

QTEST_GUILESS_MAIN(TaskToolTest)
#include "tst_task_tool.moc"
