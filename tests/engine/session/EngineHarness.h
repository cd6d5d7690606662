#pragma once

#include <QJsonObject>
#include <QObject>
#include <QThread>

#include <memory>
#include <optional>

#include "FakeProviderServer.h"
#include "RecordingEventSink.h"
#include "ScriptedToolRunner.h"
#include "TempDatabase.h"
#include "TempTree.h"
#include "engine/Engine.h"

namespace qcode::test {

// An Engine wired to test doubles: a temporary database and project folder,
// an opencode.json whose custom provider "fake" (OpenAI-compatible) points
// at a FakeProviderServer, scripted tools, a pinned config home. Every bus
// event is recorded in sink(), in order.
//
//     EngineHarness h;
//     h.server().enqueue(FakeTurn().text({"Hi"}));
//     const PromptOutcome outcome = h.prompt(u"hello"_s);
class EngineHarness : public QObject
{
    Q_OBJECT

public:
    struct Setup {
        // Merged over the generated opencode.json (a deep merge is not
        // needed: top-level keys replace, except `provider` is kept).
        QJsonObject config;
        qint64 contextLimit = 100000;
        qint64 outputLimit = 4000;
        AskPolicy askPolicy = AskPolicy::Ask;
        int maxConsecutiveCompactions = 3;
        RetryPolicy retry;
        bool generateTitles = false;
        // Run the engine on a QThread of its own, as the app does; its
        // signals then reach the test thread queued.
        bool ownThread = false;
        // The real tools (bash, read, edit …) instead of tools(), for the
        // flows that need a tool's own permission asks.
        bool builtinTools = false;
        std::chrono::milliseconds housekeepingInterval = std::chrono::hours(1);
        // Make the project folder a git repository with one commit (of
        // opencode.json), so the engine takes snapshots of it.
        bool gitRepository = false;
        // The keychain the engine reads saved keys from (EngineOptions::
        // secrets); not owned. Null: none.
        SecretStore *secrets = nullptr;
        // false: the "fake" provider's config names no apiKey, so only the
        // keychain can give it one.
        bool configKey = true;
        // Local model servers to probe (EngineOptions::localServerProbes):
        // servers the test starts, never the machine's own ports.
        QList<LocalServer> localServerProbes;
        // Another harness's database (databasePath()), for two engines on
        // one file as a `qcode run` beside the window; empty: its own.
        QString databasePath;
        // EngineOptions::mcpFirstPromptWait: tests with MCP servers wait
        // for them whatever the machine's load.
        std::chrono::milliseconds mcpFirstPromptWait = std::chrono::seconds(5);
    };

    EngineHarness();
    explicit EngineHarness(const Setup &setup);
    ~EngineHarness() override;

    Engine &engine() { return *m_engine; }
    FakeProviderServer &server() { return m_server; }
    ScriptedToolRunner &tools() { return *m_tools; }
    RecordingEventSink &sink() { return m_sink; }
    // Calls `handler` with each event of type T the engine publishes
    // (through Engine::event), while `context` lives.
    template <typename T, typename Handler>
    void onEvent(QObject *context, Handler handler)
    {
        connect(m_engine.get(), &Engine::event, context, [handler = std::move(handler)](const SessionEvent &event) {
            if (const auto *value = std::get_if<T>(&event))
                handler(*value);
        });
    }
    Store &store() { return *m_store; }
    const TempTree &tree() const { return m_tree; }
    QString projectDirectory() const;
    // The engine's database file (its own, or Setup::databasePath), for a
    // test that opens its own connection or a second engine on it.
    QString databasePath() const { return m_databasePath; }

    // Creates a session (once) and returns its id.
    QString session();
    // What the engine says of the project folder (describeProject);
    // empty when it does not answer.
    ProjectSummary describe(int timeoutMs = 10000);
    // Sends a prompt and waits for its promptFinished (fails the test and
    // returns nothing after `timeoutMs`).
    std::optional<PromptOutcome> prompt(const QString &text, const QString &agent = {}, int timeoutMs = 15000);
    // Sends without waiting; waitFinished() collects the outcomes.
    void send(const QString &text, const QString &agent = {});
    std::optional<PromptOutcome> waitFinished(int timeoutMs = 15000);
    // Sends `text` and returns once the session is busy in a "slow" tool
    // call that waits for tools().release(); the model then answers
    // `answer`. False (the test failed) when the call never started.
    bool sendAndHold(const QString &text, const QString &answer);

    // The session's messages as stored, oldest first.
    QList<MessageWithParts> messages();
    // The request bodies the server received, as JSON.
    QJsonObject requestBody(int index) const;
    // The messages of request `index` as one compact JSON text, to look
    // for what the model was sent.
    QString sentText(int index) const;
    // What the person typed in the session's stored user messages
    // (synthetic parts left out), oldest first.
    QStringList userTexts();

    // Runs git in the project folder; fails the test when git does.
    static bool git(const QString &directory, const QStringList &arguments);

private:
    void start(const Setup &setup);

    TempTree m_tree;
    TempDatabase m_database;
    FakeProviderServer m_server;
    RecordingEventSink m_sink;
    std::shared_ptr<ScriptedToolRunner> m_tools;
    std::unique_ptr<QThread> m_thread;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<Store> m_store;
    QString m_databasePath;
    QString m_sessionID;
    QList<PromptOutcome> m_finished;
};

} // namespace qcode::test
