#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace qcode {

enum class PermissionAction { Allow, Deny, Ask };

// "allow" | "deny" | "ask", as OpenCode's config and rulesets spell them.
QString permissionActionName(PermissionAction action);
std::optional<PermissionAction> permissionActionFromName(const QString &name);

// One rule of a ruleset (reference §9): which permission (a wildcard over
// permission names such as "edit", "bash", "*"), which pattern of that
// permission (a wildcard over paths, commands, URLs …) and what to do.
// A ruleset is an ordered list; the last matching rule wins.
struct PermissionRule {
    QString permission;
    QString pattern;
    PermissionAction action = PermissionAction::Ask;

    QJsonObject toJson() const;
    static std::optional<PermissionRule> fromJson(const QJsonObject &json);
    bool operator==(const PermissionRule &) const = default;
};

using PermissionRuleset = QList<PermissionRule>;

QJsonArray rulesetToJson(const PermissionRuleset &rules);
// The rules of `json` that are well-formed; the others are skipped.
PermissionRuleset rulesetFromJson(const QJsonArray &json);

} // namespace qcode

Q_DECLARE_METATYPE(qcode::PermissionRule)
