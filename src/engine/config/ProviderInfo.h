#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include <optional>

#include "ApiKey.h"
#include "engine/catalogue/ModelInfo.h"
#include "engine/provider/WireProtocol.h"

namespace qcode {

// Where a usable provider's key came from, for the settings page ("from
// ANTHROPIC_API_KEY") — the key itself is never shown.
enum class KeySource {
    None,        // a local server, or a config provider that needs none
    Config,      // options.apiKey in opencode.json ({env:…}/{file:…} included)
    Keychain,    // entered in qcode, kept in the OS keychain
    Environment, // one of the provider's environment variables
};

// A provider resolved for use: endpoint, protocol, key and models.
struct ProviderInfo {
    QString id;
    QString name;
    QString npm;
    WireProtocol protocol = WireProtocol::OpenAIChat;
    QUrl baseUrl; // the AI SDK's baseURL, version path included (…/v1)
    QList<QPair<QByteArray, QByteArray>> headers;
    QJsonObject options; // config options without apiKey, baseURL and headers
    ApiKey key;
    KeySource keySource = KeySource::None;
    QString keyVariable; // the environment variable, when keySource is Environment
    bool local = false;
    QList<ModelInfo> models;

    const ModelInfo *model(const QString &modelID) const;
    // A model's own package (config `models.<id>.provider.npm`) may pick
    // another protocol than its provider's.
    std::optional<WireProtocol> protocolFor(const ModelInfo &model) const;
};

} // namespace qcode
