#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include "ProviderConfig.h"

namespace qcode {

// The merged opencode.json, with typed access to the keys the provider
// layer needs. Every other key (agent, permission, instructions,
// compaction, command …) stays available as raw JSON through value().
class Config
{
    Q_DECLARE_TR_FUNCTIONS(Config)

public:
    Config() = default;
    // Keys of the wrong type are reported in problems() and ignored.
    static Config fromJson(const QJsonObject &json);

    const QJsonObject &json() const { return m_json; }
    QJsonValue value(const QString &key) const { return m_json.value(key); }

    std::optional<QString> model() const { return m_model; }      // "provider/model"
    std::optional<QString> smallModel() const { return m_smallModel; }
    const QList<ProviderConfig> &providers() const { return m_providers; }
    const ProviderConfig *provider(const QString &id) const;
    const QStringList &disabledProviders() const { return m_disabledProviders; }
    // Absent: every provider may be used; present: only these.
    const std::optional<QStringList> &enabledProviders() const { return m_enabledProviders; }

    const QStringList &problems() const { return m_problems; }

private:
    QJsonObject m_json;
    std::optional<QString> m_model;
    std::optional<QString> m_smallModel;
    QList<ProviderConfig> m_providers;
    QStringList m_disabledProviders;
    std::optional<QStringList> m_enabledProviders;
    QStringList m_problems;
};

} // namespace qcode
