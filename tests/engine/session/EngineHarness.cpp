#include "EngineHarness.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode::test {

EngineHarness::EngineHarness()
{
    start(Setup{});
}

EngineHarness::EngineHarness(const Setup &setup)
{
    start(setup);
}

EngineHarness::~EngineHarness()
{
    if (m_thread) {
        // The engine is deleted on its own thread, then the thread ends.
        Engine *engine = m_engine.release();
        QMetaObject::invokeMethod(engine, [engine] { delete engine; }, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
    }
    m_engine.reset();
    m_store.reset();
}

QString EngineHarness::projectDirectory() const
{
    return m_tree.path(u"project"_s);
}

void EngineHarness::start(const Setup &setup)
{
    QJsonObject model{{u"name"_s, u"Fake model"_s},
                      {u"tool_call"_s, true},
                      {u"limit"_s, QJsonObject{{u"context"_s, double(setup.contextLimit)}, {u"output"_s, double(setup.outputLimit)}}}};
    QJsonObject providerOptions{{u"baseURL"_s, QString(m_server.baseUrl().toString() + u"/v1"_s)}};
    if (setup.configKey)
        providerOptions.insert(u"apiKey"_s, u"test-key"_s);
    QJsonObject config{
        {u"$schema"_s, u"https://opencode.ai/config.json"_s},
        {u"model"_s, u"fake/fake-model"_s},
        {u"provider"_s,
         QJsonObject{{u"fake"_s,
                      QJsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                  {u"name"_s, u"Fake"_s},
                                  {u"options"_s, providerOptions},
                                  {u"models"_s, QJsonObject{{u"fake-model"_s, model}}}}}}}};
    for (auto it = setup.config.begin(); it != setup.config.end(); ++it)
        config.insert(it.key(), it.value());
    QVERIFY(m_tree.write(u"project/opencode.json"_s, QJsonDocument(config).toJson()));
    QVERIFY(m_tree.write(u"home/.keep"_s, {}));
    if (setup.gitRepository) {
        const QString project = projectDirectory();
        QVERIFY(git(project, {u"init"_s, u"-q"_s}));
        QVERIFY(git(project, {u"add"_s, u"opencode.json"_s}));
        QVERIFY(git(project, {u"-c"_s, u"user.name=qcode"_s, u"-c"_s, u"user.email=qcode@example.invalid"_s,
                              u"commit"_s, u"-q"_s, u"-m"_s, u"initial"_s}));
    }

    m_tools = std::make_shared<ScriptedToolRunner>();
    EngineOptions options;
    m_databasePath = setup.databasePath.isEmpty() ? m_database.path() : setup.databasePath;
    options.databasePath = m_databasePath;
    options.dataDirectory = m_tree.path(u"data"_s);
    const QString home = m_tree.path(u"home"_s);
    options.locations = [home](const QString &directory, const QString &worktree) {
        ConfigLocations locations;
        locations.homeDirectory = home;
        locations.globalDirectories = {home + u"/.config/opencode"_s};
        locations.projectDirectory = directory;
        locations.worktreeRoot = worktree;
        return locations;
    };
    options.environment = QProcessEnvironment();
    options.askPolicy = setup.askPolicy;
    options.maxConsecutiveCompactions = setup.maxConsecutiveCompactions;
    options.retry = setup.retry;
    options.generateTitles = setup.generateTitles;
    options.housekeepingInterval = setup.housekeepingInterval;
    options.secrets = setup.secrets;
    options.localServerProbes = setup.localServerProbes;
    options.mcpFirstPromptWait = setup.mcpFirstPromptWait;
    std::shared_ptr<ScriptedToolRunner> tools = m_tools;
    if (!setup.builtinTools)
        options.tools = [tools](const ProjectInstance &) -> std::shared_ptr<ToolRunner> { return tools; };
    m_engine = std::make_unique<Engine>(options);
    if (setup.ownThread) {
        m_thread = std::make_unique<QThread>();
        m_engine->moveToThread(m_thread.get());
        // Held calls resume where their coroutine awaits the runner's
        // signals: on the engine's thread, beside its database connection.
        m_tools->moveToThread(m_thread.get());
        m_thread->start();
    }
    connect(m_engine.get(), &Engine::event, this, [this](const SessionEvent &event) { m_sink.publish(event); });
    // Errors in the test log make a failing test say why.
    connect(m_engine.get(), &Engine::sessionError, this,
            [](const std::optional<QString> &sessionID, const NamedError &error) {
                qWarning() << "session error" << sessionID.value_or(QString()) << error.name << error.message();
            });
    connect(m_engine.get(), &Engine::promptFinished, this,
            [this](const PromptOutcome &outcome) { m_finished.append(outcome); });
    // Signals are taken on this thread (queued when the engine has its
    // own), so a signal sent before a wait started is not missed.
    std::optional<bool> opened;
    connect(m_engine.get(), &Engine::opened, this, [&opened](bool ok) { opened = ok; });
    m_engine->open();
    QVERIFY(QTest::qWaitFor([&opened] { return opened.has_value(); }, 5000));
    QCOMPARE(*opened, true);
    if (setup.databasePath.isEmpty()) {
        m_store = m_database.open();
    } else {
        Result<std::unique_ptr<Store>> store = Store::open(setup.databasePath);
        QVERIFY2(store, qPrintable(store.errorMessage()));
        m_store = std::move(*store);
    }
}

bool EngineHarness::git(const QString &directory, const QStringList &arguments)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.start(u"git"_s, arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning() << "git" << arguments << "failed:" << process.readAllStandardError();
        return false;
    }
    return true;
}

ProjectSummary EngineHarness::describe(int timeoutMs)
{
    QSignalSpy described(m_engine.get(), &Engine::projectDescribed);
    m_engine->describeProject(projectDirectory());
    if (!described.wait(timeoutMs))
        return {};
    return described.first().first().value<ProjectSummary>();
}

QString EngineHarness::session()
{
    if (!m_sessionID.isEmpty())
        return m_sessionID;
    m_sessionID = Identifier::descending(Identifier::Prefix::Session);
    m_engine->createSession(NewSession{m_sessionID, projectDirectory(), std::nullopt, {}});
    const QString id = m_sessionID;
    const auto created = [this, id] {
        for (const SessionCreated &event : m_sink.all<SessionCreated>()) {
            if (event.info.id == id)
                return true;
        }
        return false;
    };
    if (!QTest::qWaitFor(created, 5000))
        QTest::qFail("the session was not created", __FILE__, __LINE__);
    return m_sessionID;
}

void EngineHarness::send(const QString &text, const QString &agent)
{
    PromptInput input;
    input.sessionID = session();
    if (!agent.isEmpty())
        input.agent = agent;
    input.parts = {PromptPart::text(text)};
    m_engine->prompt(input);
}

std::optional<PromptOutcome> EngineHarness::waitFinished(int timeoutMs)
{
    if (!QTest::qWaitFor([this] { return !m_finished.isEmpty(); }, timeoutMs)) {
        QTest::qFail("the prompt did not finish", __FILE__, __LINE__);
        return std::nullopt;
    }
    return m_finished.takeFirst();
}

std::optional<PromptOutcome> EngineHarness::prompt(const QString &text, const QString &agent, int timeoutMs)
{
    send(text, agent);
    return waitFinished(timeoutMs);
}

QList<MessageWithParts> EngineHarness::messages()
{
    const Result<QList<MessageWithParts>> all = m_store->messages(session());
    return all ? *all : QList<MessageWithParts>{};
}

QJsonObject EngineHarness::requestBody(int index) const
{
    return m_server.requests().value(index).json();
}

bool EngineHarness::sendAndHold(const QString &text, const QString &answer)
{
    tools().holdUntilReleased(u"slow"_s);
    m_server.enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}, u"call_1"_s));
    m_server.enqueue(FakeTurn().text({answer}));
    QSignalSpy started(m_tools.get(), &ScriptedToolRunner::started);
    send(text);
    return started.wait(10000);
}

QString EngineHarness::sentText(int index) const
{
    const QJsonArray messages = requestBody(index).value(u"messages"_s).toArray();
    return QString::fromUtf8(QJsonDocument(messages).toJson(QJsonDocument::Compact));
}

QStringList EngineHarness::userTexts()
{
    QStringList texts;
    for (const MessageWithParts &message : messages()) {
        for (const Part &part : message.parts) {
            const TextPart *text = part.as<TextPart>();
            if (message.info.isUser() && text && !text->synthetic.value_or(false))
                texts.append(text->text);
        }
    }
    return texts;
}

} // namespace qcode::test
