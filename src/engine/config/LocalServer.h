#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace qcode {

// A model server on this machine, and where to look for it.
struct LocalServer {
    enum class Kind {
        Ollama,       // GET <server>/api/tags
        OpenAIModels, // GET <server>/v1/models (LM Studio, llama.cpp, vLLM …)
    };

    QString providerID; // "ollama", "lmstudio", "llama.cpp"
    QString name;
    Kind kind = Kind::OpenAIModels;
    QUrl serverUrl;     // http://127.0.0.1:11434
    QStringList models; // filled by detection

    // Where the OpenAI-compatible API of the server lives.
    QUrl apiBaseUrl() const;
    // The usual local servers on their default ports.
    static QList<LocalServer> defaultProbes();

    bool operator==(const LocalServer &) const = default;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::LocalServer)
