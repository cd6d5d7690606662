#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

#include "PermissionRule.h"
#include "model/Message.h"

namespace qcode {

// primary: picked by the person (build, plan); subagent: run by the task
// tool (general, explore); all: either.
enum class AgentMode { Primary, Subagent, All };

QString agentModeName(AgentMode mode);
std::optional<AgentMode> agentModeFromName(const QString &name);

// OpenCode's Agent.Info (reference §7): who answers, with which prompt,
// model settings and permissions.
struct Agent {
    QString name;
    std::optional<QString> description;
    AgentMode mode = AgentMode::All;
    bool native = false; // one of the built-in agents (possibly reconfigured)
    std::optional<bool> hidden;
    std::optional<double> topP;
    std::optional<double> temperature;
    std::optional<QString> color; // "#RRGGBB" or a theme colour name
    PermissionRuleset permission;
    std::optional<ModelRef> model;
    std::optional<QString> variant;
    std::optional<QString> prompt;
    QJsonObject options;
    std::optional<int> steps; // the most model calls one prompt may make

    bool isHidden() const { return hidden.value_or(false); }
    bool isSubagent() const { return mode == AgentMode::Subagent; }

    // OpenCode's JSON shape (topP, not top_p; model {providerID, modelID}).
    QJsonObject toJson() const;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::Agent)
