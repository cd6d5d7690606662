#include "PermissionRule.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString permissionActionName(PermissionAction action)
{
    switch (action) {
    case PermissionAction::Allow:
        return u"allow"_s;
    case PermissionAction::Deny:
        return u"deny"_s;
    case PermissionAction::Ask:
        break;
    }
    return u"ask"_s;
}

std::optional<PermissionAction> permissionActionFromName(const QString &name)
{
    if (name == "allow"_L1)
        return PermissionAction::Allow;
    if (name == "deny"_L1)
        return PermissionAction::Deny;
    if (name == "ask"_L1)
        return PermissionAction::Ask;
    return std::nullopt;
}

QJsonObject PermissionRule::toJson() const
{
    return {{u"permission"_s, permission}, {u"pattern"_s, pattern}, {u"action"_s, permissionActionName(action)}};
}

std::optional<PermissionRule> PermissionRule::fromJson(const QJsonObject &json)
{
    const std::optional<PermissionAction> action = permissionActionFromName(json.value("action"_L1).toString());
    if (!action || !json.value("permission"_L1).isString() || !json.value("pattern"_L1).isString())
        return std::nullopt;
    return PermissionRule{json.value("permission"_L1).toString(), json.value("pattern"_L1).toString(), *action};
}

QJsonArray rulesetToJson(const PermissionRuleset &rules)
{
    QJsonArray out;
    for (const PermissionRule &rule : rules)
        out.append(rule.toJson());
    return out;
}

PermissionRuleset rulesetFromJson(const QJsonArray &json)
{
    PermissionRuleset rules;
    for (const QJsonValue &value : json) {
        if (const std::optional<PermissionRule> rule = PermissionRule::fromJson(value.toObject()))
            rules.append(*rule);
    }
    return rules;
}

} // namespace qcode
