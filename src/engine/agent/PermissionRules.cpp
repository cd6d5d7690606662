#include "PermissionRules.h"

#include <QJsonObject>

#include "engine/glob/Wildcard.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString describeValue(const QJsonValue &value)
{
    if (value.isString())
        return u"\"%1\""_s.arg(value.toString());
    if (value.isBool())
        return value.toBool() ? u"true"_s : u"false"_s;
    if (value.isDouble())
        return QString::number(value.toDouble());
    if (value.isNull())
        return u"nothing"_s;
    return value.isArray() ? u"a list"_s : u"a map"_s;
}

} // namespace

QString PermissionRules::expandHome(const QString &pattern, const QString &homeDirectory)
{
    if (homeDirectory.isEmpty())
        return pattern;
    if (pattern.startsWith("~/"_L1))
        return homeDirectory + pattern.mid(1);
    if (pattern == "~"_L1)
        return homeDirectory;
    if (pattern.startsWith("$HOME"_L1))
        return homeDirectory + pattern.mid(5);
    return pattern;
}

PermissionRuleset PermissionRules::fromConfig(const QJsonValue &value, const QString &homeDirectory,
                                              const ConfigSourceMap &sourceMap, const QStringList &path,
                                              QStringList *problems, const QString &owner)
{
    const QString where = owner.isEmpty() ? QString() : owner + u": "_s;
    const auto action = [&](const QJsonValue &v, const QStringList &at) {
        const std::optional<PermissionAction> parsed = permissionActionFromName(v.toString());
        if (parsed && v.isString())
            return *parsed;
        if (problems) {
            problems->append(tr("%1: %2\"%3\" is %4, which is not \"allow\", \"ask\" or \"deny\"; it is "
                                "treated as \"ask\".")
                                 .arg(sourceMap.describe(at), where, at.join(QLatin1Char('.')), describeValue(v)));
        }
        return PermissionAction::Ask;
    };

    PermissionRuleset rules;
    if (value.isUndefined() || value.isNull())
        return rules;
    if (value.isString()) {
        rules.append({u"*"_s, u"*"_s, action(value, path)});
        return rules;
    }
    if (!value.isObject()) {
        if (problems) {
            problems->append(tr("%1: %2\"%3\" must be \"allow\", \"ask\", \"deny\" or a map of them; it is %4 "
                                "and is ignored.")
                                 .arg(sourceMap.describe(path), where, path.join(QLatin1Char('.')),
                                      describeValue(value)));
        }
        return rules;
    }
    const QJsonObject map = value.toObject();
    for (const QString &permission : sourceMap.orderedKeys(path, map)) {
        const QJsonValue entry = map.value(permission);
        const QStringList entryPath = path + QStringList{permission};
        if (!entry.isObject()) {
            rules.append({permission, u"*"_s, action(entry, entryPath)});
            continue;
        }
        const QJsonObject patterns = entry.toObject();
        for (const QString &pattern : sourceMap.orderedKeys(entryPath, patterns)) {
            rules.append({permission, expandHome(pattern, homeDirectory),
                          action(patterns.value(pattern), entryPath + QStringList{pattern})});
        }
    }
    return rules;
}

PermissionRuleset PermissionRules::merge(std::initializer_list<PermissionRuleset> rulesets)
{
    PermissionRuleset out;
    for (const PermissionRuleset &rules : rulesets)
        out += rules;
    return out;
}

PermissionRule PermissionRules::evaluate(const QString &permission, const QString &pattern,
                                         const PermissionRuleset &rules)
{
    for (auto it = rules.crbegin(); it != rules.crend(); ++it) {
        if (Wildcard::match(permission, it->permission) && Wildcard::match(pattern, it->pattern))
            return *it;
    }
    return {permission, u"*"_s, PermissionAction::Ask};
}

PermissionRule PermissionRules::evaluateWhole(const QString &permission, const PermissionRuleset &rules)
{
    for (auto it = rules.crbegin(); it != rules.crend(); ++it) {
        if (it->pattern == "*"_L1 && Wildcard::match(permission, it->permission))
            return *it;
    }
    return {permission, u"*"_s, PermissionAction::Ask};
}

} // namespace qcode
