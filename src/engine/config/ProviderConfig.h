#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace qcode {

// One `provider.<id>` entry of opencode.json, as OpenCode's schema reads
// it. `models` stays JSON: the catalogue merges it over its own entries.
struct ProviderConfig {
    QString id;
    QString name;
    QString npm;
    QString api;                 // a base URL models.dev style; options.baseURL wins over it
    QStringList env;
    QJsonObject options;         // everything under `options`, apiKey included
    QJsonObject models;
    std::optional<QStringList> whitelist; // model ids to keep
    QStringList blacklist;                // model ids to drop

    QString baseURL() const;
    std::optional<QString> apiKey() const; // options.apiKey when it is a non-empty string
    QJsonObject headers() const;           // options.headers

    // The raw entry, for the catalogue merge.
    QJsonObject raw;

    static ProviderConfig fromJson(const QString &id, const QJsonObject &json, QStringList *problems);
};

} // namespace qcode
