// The app's engine offers the models of local model servers that answer
// (EngineOptions::localServerProbes), without a key, next to the config's
// and the catalogue's: the model picker lists them, and a prompt may
// name one. The servers here are the test's own, on 127.0.0.1.

#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "TinyHttpServer.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QByteArray OllamaTags = R"({"models":[{"name":"llama3.1:8b","model":"llama3.1:8b"},{"name":"qwen3:4b"}]})";

LocalServer ollamaAt(const QUrl &url)
{
    return LocalServer{u"ollama"_s, u"Ollama"_s, LocalServer::Kind::Ollama, url, {}};
}

QStringList localModels(const ProjectSummary &summary)
{
    QStringList models;
    for (const ModelSummary &model : summary.models) {
        if (model.source == ModelSource::Local)
            models.append(model.providerID + u'/' + model.modelID);
    }
    return models;
}

} // namespace

class EngineLocalServersTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aRunningServersModelsAreOfferedWithoutAKey();
    void withoutProbesNoLocalServerIsOffered();
    void aServerThatIsNotRunningLeavesTheRestAsItWas();
    void aReloadFindsAServerStartedMeanwhile();
};

void EngineLocalServersTest::aRunningServersModelsAreOfferedWithoutAKey()
{
    TinyHttpServer ollama(OllamaTags);
    QVERIFY(ollama.listen());
    EngineHarness::Setup setup;
    setup.localServerProbes = {ollamaAt(ollama.url())};
    EngineHarness h(setup);
    const ProjectSummary summary = h.describe();
    QCOMPARE(localModels(summary), QStringList({u"ollama/llama3.1:8b"_s, u"ollama/qwen3:4b"_s}));
    QVERIFY(ollama.request().startsWith("GET /api/tags "));
    // The config's provider is still there.
    QVERIFY(std::any_of(summary.models.begin(), summary.models.end(),
                        [](const ModelSummary &model) { return model.providerID == "fake"_L1; }));
}

void EngineLocalServersTest::withoutProbesNoLocalServerIsOffered()
{
    EngineHarness h(EngineHarness::Setup{});
    const ProjectSummary summary = h.describe();
    QVERIFY(!summary.models.isEmpty());
    QVERIFY(localModels(summary).isEmpty());
}

void EngineLocalServersTest::aServerThatIsNotRunningLeavesTheRestAsItWas()
{
    EngineHarness::Setup setup;
    setup.localServerProbes = {ollamaAt(TinyHttpServer::closedPortUrl())};
    EngineHarness h(setup);
    const ProjectSummary summary = h.describe();
    QVERIFY(localModels(summary).isEmpty());
    QVERIFY(!summary.models.isEmpty());

    // Prompts still run on the config's model.
    h.server().enqueue(FakeTurn().text({u"Hi."_s}));
    const auto outcome = h.prompt(u"hello"_s);
    QVERIFY(outcome && !outcome->error);
}

void EngineLocalServersTest::aReloadFindsAServerStartedMeanwhile()
{
    // The server's port, with nothing listening on it yet.
    TinyHttpServer ollama(OllamaTags);
    QVERIFY(ollama.listen());
    const QUrl url = ollama.url();
    ollama.close();
    EngineHarness::Setup setup;
    setup.localServerProbes = {ollamaAt(url)};
    EngineHarness h(setup);
    QVERIFY(localModels(h.describe()).isEmpty());

    // Started meanwhile; closing Settings reloads the project.
    QVERIFY(ollama.listen(quint16(url.port())));
    QSignalSpy described(&h.engine(), &Engine::projectDescribed);
    h.engine().reloadProject(h.projectDirectory());
    QVERIFY(described.wait(10000));
    QCOMPARE(localModels(described.first().first().value<ProjectSummary>()).size(), 2);
}

QTEST_GUILESS_MAIN(EngineLocalServersTest)
#include "tst_engine_local_servers.moc"
