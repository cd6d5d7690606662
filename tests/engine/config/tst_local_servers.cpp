#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include "TinyHttpServer.h"
#include "engine/config/LocalServerDetector.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;


class TestLocalServers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ollamaTagsAreOfferedAsModels()
    {
        TinyHttpServer server(R"({"models":[{"name":"llama3.1:8b","model":"llama3.1:8b"},{"name":"gpt-oss:20b"}]})");
        QVERIFY(server.listen());
        LocalServerDetector detector;
        LocalServer probe{u"ollama"_s, u"Ollama"_s, LocalServer::Kind::Ollama, server.url(), {}};
        detector.setProbes({probe});
        QSignalSpy finished(&detector, &LocalServerDetector::finished);
        detector.start();
        QVERIFY(finished.wait());
        const auto servers = finished.constFirst().constFirst().value<QList<LocalServer>>();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.constFirst().models, QStringList({u"llama3.1:8b"_s, u"gpt-oss:20b"_s}));
        QCOMPARE(servers.constFirst().apiBaseUrl(), QUrl(server.url().toString() + u"/v1"_s));
        QVERIFY(server.request().startsWith("GET /api/tags "));
    }

    void openAiModelListIsOffered()
    {
        TinyHttpServer server(R"({"object":"list","data":[{"id":"qwen2.5-coder-7b-instruct"},{"id":"local-model"}]})");
        QVERIFY(server.listen());
        LocalServerDetector detector;
        detector.setProbes({{u"lmstudio"_s, u"LM Studio"_s, LocalServer::Kind::OpenAIModels, server.url(), {}}});
        QSignalSpy finished(&detector, &LocalServerDetector::finished);
        detector.start();
        QVERIFY(finished.wait());
        const auto servers = finished.constFirst().constFirst().value<QList<LocalServer>>();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.constFirst().providerID, u"lmstudio"_s);
        QCOMPARE(servers.constFirst().models.size(), 2);
        QVERIFY(server.request().startsWith("GET /v1/models "));
    }

    void noServerMeansNothingOfferedQuickly()
    {
        LocalServerDetector detector;
        detector.setProbes({{u"ollama"_s, u"Ollama"_s, LocalServer::Kind::Ollama, TinyHttpServer::closedPortUrl(), {}},
                            {u"lmstudio"_s, u"LM Studio"_s, LocalServer::Kind::OpenAIModels, TinyHttpServer::closedPortUrl(), {}}});
        QSignalSpy finished(&detector, &LocalServerDetector::finished);
        QElapsedTimer clock;
        clock.start();
        detector.start();
        QVERIFY(finished.wait(5000));
        QVERIFY(finished.constFirst().constFirst().value<QList<LocalServer>>().isEmpty());
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
    }

    void silentServerTimesOutAndIsNotOffered()
    {
        TinyHttpServer silent(QByteArray(), true);
        QVERIFY(silent.listen());
        TinyHttpServer answering(R"({"data":[{"id":"m"}]})");
        QVERIFY(answering.listen());
        LocalServerDetector detector;
        detector.setTimeout(std::chrono::milliseconds(300));
        detector.setProbes({{u"llama.cpp"_s, u"llama.cpp"_s, LocalServer::Kind::OpenAIModels, silent.url(), {}},
                            {u"lmstudio"_s, u"LM Studio"_s, LocalServer::Kind::OpenAIModels, answering.url(), {}}});
        QSignalSpy finished(&detector, &LocalServerDetector::finished);
        detector.start();
        QVERIFY(finished.wait(5000));
        const auto servers = finished.constFirst().constFirst().value<QList<LocalServer>>();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.constFirst().providerID, u"lmstudio"_s);
    }

    void somethingElseOnThePortIsNotMistakenForAServer()
    {
        TinyHttpServer other("<html>hello</html>");
        QVERIFY(other.listen());
        LocalServerDetector detector;
        detector.setProbes({{u"ollama"_s, u"Ollama"_s, LocalServer::Kind::Ollama, other.url(), {}}});
        QSignalSpy finished(&detector, &LocalServerDetector::finished);
        detector.start();
        QVERIFY(finished.wait());
        QVERIFY(finished.constFirst().constFirst().value<QList<LocalServer>>().isEmpty());
    }

    void defaultProbesAreTheUsualPortsOnLoopback()
    {
        const QList<LocalServer> probes = LocalServer::defaultProbes();
        QCOMPARE(probes.size(), 3);
        QCOMPARE(probes.at(0).serverUrl.port(), 11434);
        QCOMPARE(probes.at(1).serverUrl.port(), 1234);
        QCOMPARE(probes.at(2).serverUrl.port(), 8080);
        for (const LocalServer &probe : probes)
            QCOMPARE(probe.serverUrl.host(), u"127.0.0.1"_s);
    }
};

QTEST_GUILESS_MAIN(TestLocalServers)
#include "tst_local_servers.moc"
