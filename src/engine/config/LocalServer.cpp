#include "LocalServer.h"

using namespace Qt::StringLiterals;

namespace qcode {

QUrl LocalServer::apiBaseUrl() const
{
    QUrl url = serverUrl;
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + u"/v1"_s);
    return url;
}

QList<LocalServer> LocalServer::defaultProbes()
{
    return {
        {u"ollama"_s, u"Ollama"_s, Kind::Ollama, QUrl(u"http://127.0.0.1:11434"_s), {}},
        {u"lmstudio"_s, u"LM Studio"_s, Kind::OpenAIModels, QUrl(u"http://127.0.0.1:1234"_s), {}},
        {u"llama.cpp"_s, u"llama.cpp"_s, Kind::OpenAIModels, QUrl(u"http://127.0.0.1:8080"_s), {}},
    };
}

} // namespace qcode
