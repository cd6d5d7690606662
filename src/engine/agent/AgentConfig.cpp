#include "AgentConfig.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include "PermissionRules.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QStringList &knownKeys()
{
    static const QStringList keys{u"name"_s,  u"model"_s,  u"variant"_s, u"prompt"_s,  u"description"_s,
                                  u"temperature"_s, u"top_p"_s, u"mode"_s, u"hidden"_s, u"color"_s,
                                  u"steps"_s, u"maxSteps"_s, u"options"_s, u"permission"_s, u"disable"_s,
                                  u"tools"_s};
    return keys;
}

QString typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return AgentConfig::tr("true/false");
    case QJsonValue::Double:
        return AgentConfig::tr("a number");
    case QJsonValue::String:
        return AgentConfig::tr("text");
    case QJsonValue::Array:
        return AgentConfig::tr("a list");
    case QJsonValue::Object:
        return AgentConfig::tr("a map");
    default:
        return AgentConfig::tr("nothing");
    }
}

bool isEditTool(const QString &tool)
{
    return tool == "write"_L1 || tool == "edit"_L1 || tool == "patch"_L1 || tool == "multiedit"_L1;
}

} // namespace

std::optional<ModelRef> AgentConfig::parseModel(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == text.size() - 1)
        return std::nullopt;
    return ModelRef{text.left(slash), text.mid(slash + 1)};
}

AgentConfig AgentConfig::fromJson(const QString &key, const QJsonObject &json, const ConfigSourceMap &sourceMap,
                                  const QString &homeDirectory)
{
    AgentConfig config;
    const auto error = [&](const QString &field, const QString &what) {
        const ConfigSourceMap::Location where = sourceMap.locate({field});
        config.errors.append({where.file, where.line, 0, tr("agent \"%1\": \"%2\" %3.").arg(key, field, what)});
    };
    const auto present = [&](const QString &field) {
        const QJsonValue v = json.value(field);
        return !v.isUndefined() && !v.isNull();
    };
    const auto string = [&](const QString &field) -> std::optional<QString> {
        if (!present(field))
            return std::nullopt;
        const QJsonValue v = json.value(field);
        if (!v.isString()) {
            error(field, tr("must be text, not %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toString();
    };
    const auto number = [&](const QString &field) -> std::optional<double> {
        if (!present(field))
            return std::nullopt;
        const QJsonValue v = json.value(field);
        if (!v.isDouble()) {
            error(field, tr("must be a number, not %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toDouble();
    };
    const auto boolean = [&](const QString &field) -> std::optional<bool> {
        if (!present(field))
            return std::nullopt;
        const QJsonValue v = json.value(field);
        if (!v.isBool()) {
            error(field, tr("must be true or false, not %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toBool();
    };
    const auto positiveInteger = [&](const QString &field) -> std::optional<int> {
        const std::optional<double> n = number(field);
        if (!n)
            return std::nullopt;
        if (*n < 1 || *n > 1e9 || *n != double(qint64(*n))) {
            error(field, tr("must be a whole number of at least 1, not %1").arg(*n));
            return std::nullopt;
        }
        return int(*n);
    };

    config.disable = boolean(u"disable"_s).value_or(false);
    config.name = string(u"name"_s);
    if (config.name && config.name->isEmpty())
        error(u"name"_s, tr("must not be empty"));
    if (const std::optional<QString> model = string(u"model"_s)) {
        config.model = parseModel(*model);
        if (!config.model)
            error(u"model"_s, tr("must be written \"provider/model\", such as \"anthropic/claude-sonnet-4-5\"; "
                                 "\"%1\" is not")
                                  .arg(*model));
    }
    config.variant = string(u"variant"_s);
    config.prompt = string(u"prompt"_s);
    config.description = string(u"description"_s);
    config.temperature = number(u"temperature"_s);
    config.topP = number(u"top_p"_s);
    if (const std::optional<QString> mode = string(u"mode"_s)) {
        config.mode = agentModeFromName(*mode);
        if (!config.mode)
            error(u"mode"_s, tr("must be \"primary\", \"subagent\" or \"all\", not \"%1\"").arg(*mode));
    }
    if (const std::optional<QString> color = string(u"color"_s)) {
        static const QRegularExpression hex(u"\\A#[0-9a-fA-F]{6}\\z"_s);
        static const QStringList themeColors{u"primary"_s, u"secondary"_s, u"accent"_s, u"success"_s,
                                             u"warning"_s, u"error"_s,     u"info"_s};
        if (hex.match(*color).hasMatch() || themeColors.contains(*color))
            config.color = color;
        else
            error(u"color"_s, tr("must be a colour such as \"#FF5733\" or one of %1, not \"%2\"")
                                  .arg(themeColors.join(u", "_s), *color));
    }
    config.hidden = boolean(u"hidden"_s);
    const std::optional<int> steps = positiveInteger(u"steps"_s);
    const std::optional<int> maxSteps = positiveInteger(u"maxSteps"_s);
    config.steps = steps ? steps : maxSteps;

    if (present(u"options"_s)) {
        if (json.value("options"_L1).isObject())
            config.options = json.value("options"_L1).toObject();
        else
            error(u"options"_s, tr("must be a map, not %1").arg(typeName(json.value("options"_L1))));
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!knownKeys().contains(it.key()))
            config.options.insert(it.key(), it.value());
    }

    // Legacy tools first, then `permission`, whose keys replace a tool's in
    // place (OpenCode: Object.assign(fromTools, permission)).
    QStringList order;                  // permission names, in the order rules are made
    QJsonObject combined;               // permission name → action or pattern map
    QSet<QString> fromTools;            // names whose value is still a legacy tool's
    if (present(u"tools"_s)) {
        const QJsonValue tools = json.value("tools"_L1);
        if (!tools.isObject()) {
            error(u"tools"_s, tr("must be a map of tool names to true or false, not %1").arg(typeName(tools)));
        } else {
            const QJsonObject map = tools.toObject();
            for (const QString &tool : sourceMap.orderedKeys({u"tools"_s}, map)) {
                const QJsonValue enabled = map.value(tool);
                if (!enabled.isBool()) {
                    error(u"tools"_s, tr("must map each tool to true or false; \"%1\" is %2").arg(tool, typeName(enabled)));
                    continue;
                }
                const QString permission = isEditTool(tool) ? u"edit"_s : tool;
                if (!order.contains(permission))
                    order.append(permission);
                combined.insert(permission, enabled.toBool() ? u"allow"_s : u"deny"_s);
                fromTools.insert(permission);
            }
        }
    }
    if (present(u"permission"_s)) {
        QJsonValue permission = json.value("permission"_L1);
        if (permission.isString())
            permission = QJsonObject{{u"*"_s, permission}}; // a bare action is {"*": action}
        if (!permission.isObject()) {
            error(u"permission"_s, tr("must be \"allow\", \"ask\", \"deny\" or a map of them, not %1")
                                       .arg(typeName(permission)));
        } else {
            const QJsonObject map = permission.toObject();
            for (const QString &name : sourceMap.orderedKeys({u"permission"_s}, map)) {
                if (!order.contains(name))
                    order.append(name);
                combined.insert(name, map.value(name));
                fromTools.remove(name);
            }
        }
    }
    for (const QString &name : std::as_const(order)) {
        const QJsonValue value = combined.value(name);
        if (fromTools.contains(name)) {
            config.permission.append({name, u"*"_s, value.toString() == "allow"_L1 ? PermissionAction::Allow
                                                                                 : PermissionAction::Deny});
            continue;
        }
        // Each entry on its own, so its patterns keep their written order.
        config.permission += PermissionRules::fromConfig(QJsonObject{{name, value}}, homeDirectory, sourceMap,
                                                         {u"permission"_s}, &config.warnings,
                                                         tr("agent \"%1\"").arg(key));
    }
    return config;
}

} // namespace qcode
