#include "Agent.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString agentModeName(AgentMode mode)
{
    switch (mode) {
    case AgentMode::Primary:
        return u"primary"_s;
    case AgentMode::Subagent:
        return u"subagent"_s;
    case AgentMode::All:
        break;
    }
    return u"all"_s;
}

std::optional<AgentMode> agentModeFromName(const QString &name)
{
    if (name == "primary"_L1)
        return AgentMode::Primary;
    if (name == "subagent"_L1)
        return AgentMode::Subagent;
    if (name == "all"_L1)
        return AgentMode::All;
    return std::nullopt;
}

QJsonObject Agent::toJson() const
{
    QJsonObject json{{u"name"_s, name},
                     {u"mode"_s, agentModeName(mode)},
                     {u"native"_s, native},
                     {u"permission"_s, rulesetToJson(permission)},
                     {u"options"_s, options}};
    if (description)
        json.insert(u"description"_s, *description);
    if (hidden)
        json.insert(u"hidden"_s, *hidden);
    if (topP)
        json.insert(u"topP"_s, *topP);
    if (temperature)
        json.insert(u"temperature"_s, *temperature);
    if (color)
        json.insert(u"color"_s, *color);
    if (model)
        json.insert(u"model"_s, QJsonObject{{u"providerID"_s, model->providerID}, {u"modelID"_s, model->modelID}});
    if (variant)
        json.insert(u"variant"_s, *variant);
    if (prompt)
        json.insert(u"prompt"_s, *prompt);
    if (steps)
        json.insert(u"steps"_s, *steps);
    return json;
}

} // namespace qcode
