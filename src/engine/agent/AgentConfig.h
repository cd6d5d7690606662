#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "Agent.h"
#include "ConfigSourceMap.h"
#include "PermissionRule.h"
#include "engine/config/ConfigError.h"

namespace qcode {

// One `agent.<name>` entry of opencode.json, or one Markdown agent's front
// matter and body, checked against OpenCode's AgentConfig schema and
// normalised as its transform does: `maxSteps` → steps, legacy
// `tools: {name: bool}` → permission rules (write/edit/patch/multiedit →
// edit), unknown keys → options. Absent and null fields stay unset.
struct AgentConfig {
    Q_DECLARE_TR_FUNCTIONS(AgentConfig)

public:
    bool disable = false;
    std::optional<QString> name;
    std::optional<ModelRef> model;
    std::optional<QString> variant;
    std::optional<QString> prompt;
    std::optional<QString> description;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<AgentMode> mode;
    std::optional<QString> color;
    std::optional<bool> hidden;
    std::optional<int> steps;
    QJsonObject options;          // `options`, then every unknown key
    PermissionRuleset permission; // appended to the agent's rules

    // Where and what: any of these makes the entry unusable.
    ConfigErrors errors;
    // Permission entries that were not an action and became "ask"; the
    // entry is still used.
    QStringList warnings;

    bool isValid() const { return errors.isEmpty(); }

    // `key` is the agent's name in the config; `sourceMap` is rooted at the
    // entry (its front matter, for a Markdown agent).
    static AgentConfig fromJson(const QString &key, const QJsonObject &json, const ConfigSourceMap &sourceMap,
                                const QString &homeDirectory);

    // "provider/model" → {provider, model}; the model id may contain "/".
    static std::optional<ModelRef> parseModel(const QString &text);
};

} // namespace qcode
