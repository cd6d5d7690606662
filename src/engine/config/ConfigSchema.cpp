#include "ConfigSchema.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <functional>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

using Path = QStringList;

QString describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double:
        return ConfigSchema::tr("the number %1").arg(value.toDouble());
    case QJsonValue::String:
        return ConfigSchema::tr("the text \"%1\"").arg(value.toString().left(60));
    case QJsonValue::Array:
        return ConfigSchema::tr("a list");
    case QJsonValue::Object:
        return ConfigSchema::tr("an object");
    default:
        return ConfigSchema::tr("null");
    }
}

bool absent(const QJsonValue &value)
{
    return value.isUndefined() || value.isNull();
}

// One file's check: each helper reports a wrong value at its own position
// and says whether the value was right, so callers descend only into
// values of the right shape.
class Checker
{
public:
    Checker(const JsoncDocument &document, const QString &fileName) : m_document(document), m_file(fileName) {}

    ConfigErrors errors;

    void fail(const Path &path, const QString &expected, const QJsonValue &value)
    {
        const auto [line, column] = m_document.position(path);
        errors.append({m_file, line, column,
                       ConfigSchema::tr("\"%1\" must be %2, not %3").arg(path.join(u'.'), expected, describe(value))});
    }

    bool string(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (absent(v) || v.isString())
            return true;
        fail(at + Path{key}, ConfigSchema::tr("text"), v);
        return false;
    }

    bool boolean(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (absent(v) || v.isBool())
            return true;
        fail(at + Path{key}, ConfigSchema::tr("true or false"), v);
        return false;
    }

    bool number(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (absent(v) || v.isDouble())
            return true;
        fail(at + Path{key}, ConfigSchema::tr("a number"), v);
        return false;
    }

    void positiveInteger(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (absent(v))
            return;
        const double n = v.toDouble();
        if (!v.isDouble() || n < 1 || n > 1e9 || n != double(qint64(n)))
            fail(at + Path{key}, ConfigSchema::tr("a whole number of at least 1"), v);
    }

    void oneOf(const QJsonObject &object, const Path &at, const QString &key, const QStringList &choices)
    {
        const QJsonValue v = object.value(key);
        if (absent(v) || (v.isString() && choices.contains(v.toString())))
            return;
        fail(at + Path{key}, ConfigSchema::tr("one of \"%1\"").arg(choices.join(u"\", \""_s)), v);
    }

    // A map whose every value passes `each` (which reports its own errors).
    bool map(const QJsonObject &object, const Path &at, const QString &key,
             const std::function<void(const QJsonObject &, const Path &, const QString &)> &each = {})
    {
        const QJsonValue v = object.value(key);
        if (absent(v))
            return true;
        if (!v.isObject()) {
            fail(at + Path{key}, ConfigSchema::tr("an object { … }"), v);
            return false;
        }
        if (each) {
            const QJsonObject inner = v.toObject();
            for (auto it = inner.begin(); it != inner.end(); ++it)
                each(inner, at + Path{key}, it.key());
        }
        return true;
    }

    void stringList(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (absent(v))
            return;
        if (!v.isArray()) {
            fail(at + Path{key}, ConfigSchema::tr("a list of texts [ … ]"), v);
            return;
        }
        const QJsonArray items = v.toArray();
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (!items.at(i).isString())
                fail(at + Path{key, QString::number(i)}, ConfigSchema::tr("text"), items.at(i));
        }
    }

    // An object of objects, each checked by `each` at its own path.
    void objects(const QJsonObject &object, const Path &at, const QString &key,
                 const std::function<void(const QJsonObject &, const Path &)> &each)
    {
        map(object, at, key, [&](const QJsonObject &inner, const Path &where, const QString &name) {
            const QJsonValue v = inner.value(name);
            if (v.isObject())
                each(v.toObject(), where + Path{name});
            else if (!v.isNull())
                fail(where + Path{name}, ConfigSchema::tr("an object { … }"), v);
        });
    }

    void action(const QJsonValue &v, const Path &path)
    {
        static const QStringList actions{u"allow"_s, u"ask"_s, u"deny"_s};
        if (!v.isString() || !actions.contains(v.toString()))
            fail(path, ConfigSchema::tr("\"allow\", \"ask\" or \"deny\""), v);
    }

    // "allow" for everything, or {permission: action | {pattern: action}}.
    void permission(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (absent(v))
            return;
        const Path path = at + Path{key};
        if (v.isString()) {
            action(v, path);
            return;
        }
        if (!v.isObject()) {
            fail(path, ConfigSchema::tr("\"allow\", \"ask\", \"deny\" or an object of them"), v);
            return;
        }
        const QJsonObject rules = v.toObject();
        for (auto it = rules.begin(); it != rules.end(); ++it) {
            if (!it.value().isObject()) {
                action(it.value(), path + Path{it.key()});
                continue;
            }
            const QJsonObject patterns = it.value().toObject();
            for (auto p = patterns.begin(); p != patterns.end(); ++p)
                action(p.value(), path + Path{it.key(), p.key()});
        }
    }

    void booleans(const QJsonObject &object, const Path &at, const QString &key)
    {
        map(object, at, key, [&](const QJsonObject &inner, const Path &where, const QString &name) {
            boolean(inner, where, name);
        });
    }

    void strings(const QJsonObject &object, const Path &at, const QString &key)
    {
        map(object, at, key, [&](const QJsonObject &inner, const Path &where, const QString &name) {
            string(inner, where, name);
        });
    }

    void agent(const QJsonObject &agent, const Path &at)
    {
        if (string(agent, at, u"model"_s)) {
            const QString model = agent.value("model"_L1).toString();
            const qsizetype slash = model.indexOf(u'/');
            if (agent.value("model"_L1).isString() && (slash <= 0 || slash == model.size() - 1))
                fail(at + Path{u"model"_s}, ConfigSchema::tr("written \"provider/model\""), agent.value("model"_L1));
        }
        for (const QString &key : {u"variant"_s, u"prompt"_s, u"description"_s, u"name"_s})
            string(agent, at, key);
        number(agent, at, u"temperature"_s);
        number(agent, at, u"top_p"_s);
        oneOf(agent, at, u"mode"_s, {u"primary"_s, u"subagent"_s, u"all"_s});
        if (string(agent, at, u"color"_s) && agent.value("color"_L1).isString()) {
            static const QRegularExpression hex(u"\\A#[0-9a-fA-F]{6}\\z"_s);
            static const QStringList themeColors{u"primary"_s, u"secondary"_s, u"accent"_s, u"success"_s,
                                                 u"warning"_s, u"error"_s,     u"info"_s};
            const QString color = agent.value("color"_L1).toString();
            if (!hex.match(color).hasMatch() && !themeColors.contains(color))
                fail(at + Path{u"color"_s}, ConfigSchema::tr("a colour such as \"#FF5733\" or one of %1")
                                               .arg(themeColors.join(u", "_s)),
                     agent.value("color"_L1));
        }
        boolean(agent, at, u"hidden"_s);
        boolean(agent, at, u"disable"_s);
        positiveInteger(agent, at, u"steps"_s);
        positiveInteger(agent, at, u"maxSteps"_s);
        map(agent, at, u"options"_s);
        booleans(agent, at, u"tools"_s);
        permission(agent, at, u"permission"_s);
    }

    void model(const QJsonObject &model, const Path &at)
    {
        for (const QString &key : {u"id"_s, u"name"_s, u"family"_s, u"release_date"_s, u"status"_s, u"npm"_s})
            string(model, at, key);
        for (const QString &key : {u"attachment"_s, u"reasoning"_s, u"temperature"_s, u"tool_call"_s,
                                   u"experimental"_s})
            boolean(model, at, key);
        map(model, at, u"limit"_s, [&](const QJsonObject &inner, const Path &where, const QString &name) {
            number(inner, where, name);
        });
        map(model, at, u"cost"_s, [&](const QJsonObject &inner, const Path &where, const QString &name) {
            if (inner.value(name).isObject())
                map(inner, where, name, [&](const QJsonObject &deeper, const Path &w, const QString &n) {
                    number(deeper, w, n);
                });
            else
                number(inner, where, name);
        });
        map(model, at, u"modalities"_s, [&](const QJsonObject &inner, const Path &where, const QString &name) {
            stringList(inner, where, name);
        });
        map(model, at, u"options"_s);
        strings(model, at, u"headers"_s);
        map(model, at, u"provider"_s);
        objects(model, at, u"variants"_s, [](const QJsonObject &, const Path &) {});
    }

    void provider(const QJsonObject &provider, const Path &at)
    {
        for (const QString &key : {u"api"_s, u"name"_s, u"id"_s, u"npm"_s})
            string(provider, at, key);
        stringList(provider, at, u"env"_s);
        stringList(provider, at, u"whitelist"_s);
        stringList(provider, at, u"blacklist"_s);
        map(provider, at, u"options"_s, [&](const QJsonObject &options, const Path &where, const QString &key) {
            if (key == "apiKey"_L1 || key == "baseURL"_L1 || key == "enterpriseUrl"_L1)
                string(options, where, key);
            else if (key == "setCacheKey"_L1)
                boolean(options, where, key);
            else if (key == "headers"_L1)
                strings(options, where, key);
            else if (key == "timeout"_L1 && !options.value(key).isDouble()
                     && !(options.value(key).isBool() && !options.value(key).toBool()))
                fail(where + Path{key}, ConfigSchema::tr("a number of milliseconds or false"), options.value(key));
        });
        objects(provider, at, u"models"_s, [&](const QJsonObject &m, const Path &where) { model(m, where); });
    }

    void command(const QJsonObject &command, const Path &at)
    {
        for (const QString &key : {u"template"_s, u"description"_s, u"agent"_s, u"model"_s})
            string(command, at, key);
        boolean(command, at, u"subtask"_s);
    }

    // OpenCode's MCP entries are strict: a misspelt key (say "env" for
    // "environment") would otherwise start a server without its settings.
    void mcpServer(const QJsonObject &server, const Path &at)
    {
        const QJsonValue type = server.value("type"_L1);
        QStringList known{u"type"_s, u"enabled"_s, u"timeout"_s};
        if (absent(type)) {
            // A later layer switching a server defined earlier on or off.
            known = {u"enabled"_s};
        } else if (type == "local"_L1) {
            known += QStringList{u"command"_s, u"environment"_s};
            const QJsonValue command = server.value("command"_L1);
            if (absent(command))
                missing(at, u"command"_s, ConfigSchema::tr("a local MCP server needs \"command\", the program and its arguments"));
            else if (command.isArray() && command.toArray().isEmpty())
                fail(at + Path{u"command"_s}, ConfigSchema::tr("a list starting with the program to run"), command);
            else
                stringList(server, at, u"command"_s);
            strings(server, at, u"environment"_s);
        } else if (type == "remote"_L1) {
            known += QStringList{u"url"_s, u"headers"_s, u"oauth"_s};
            if (absent(server.value("url"_L1)))
                missing(at, u"url"_s, ConfigSchema::tr("a remote MCP server needs \"url\""));
            else
                string(server, at, u"url"_s);
            strings(server, at, u"headers"_s);
            const QJsonValue oauth = server.value("oauth"_L1);
            if (oauth.isObject()) {
                const QJsonObject o = oauth.toObject();
                for (const QString &key : {u"clientId"_s, u"clientSecret"_s, u"scope"_s})
                    string(o, at + Path{u"oauth"_s}, key);
                unknownKeys(o, at + Path{u"oauth"_s}, {u"clientId"_s, u"clientSecret"_s, u"scope"_s});
            } else if (!absent(oauth) && !(oauth.isBool() && !oauth.toBool())) {
                fail(at + Path{u"oauth"_s}, ConfigSchema::tr("an object { … } or false"), oauth);
            }
        } else {
            oneOf(server, at, u"type"_s, {u"local"_s, u"remote"_s});
            return;
        }
        boolean(server, at, u"enabled"_s);
        positiveInteger(server, at, u"timeout"_s);
        unknownKeys(server, at, known);
    }

    void missing(const Path &at, const QString &key, const QString &why)
    {
        const auto [line, column] = m_document.position(at);
        errors.append({m_file, line, column, ConfigSchema::tr("\"%1\" is missing: %2").arg((at + Path{key}).join(u'.'), why)});
    }

    void unknownKeys(const QJsonObject &object, const Path &at, const QStringList &known)
    {
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (known.contains(it.key()))
                continue;
            const auto [line, column] = m_document.position(at + Path{it.key()});
            errors.append({m_file, line, column,
                           ConfigSchema::tr("\"%1\" is not a key here; known keys are \"%2\"")
                               .arg((at + Path{it.key()}).join(u'.'), known.join(u"\", \""_s))});
        }
    }

    void orFalse(const QJsonObject &object, const Path &at, const QString &key)
    {
        const QJsonValue v = object.value(key);
        if (v.isBool() && !v.toBool())
            return;
        map(object, at, key);
    }

private:
    const JsoncDocument &m_document;
    QString m_file;
};

const QStringList &knownTopLevelKeys()
{
    static const QStringList keys{
        u"$schema"_s,     u"theme"_s,       u"keybinds"_s,          u"logLevel"_s,          u"tui"_s,
        u"server"_s,      u"command"_s,     u"skills"_s,            u"watcher"_s,           u"plugin"_s,
        u"snapshot"_s,    u"share"_s,       u"autoshare"_s,         u"autoupdate"_s,        u"disabled_providers"_s,
        u"enabled_providers"_s, u"model"_s, u"small_model"_s,       u"default_agent"_s,     u"username"_s,
        u"mode"_s,        u"agent"_s,       u"provider"_s,          u"mcp"_s,               u"formatter"_s,
        u"lsp"_s,         u"instructions"_s, u"layout"_s,           u"permission"_s,        u"tools"_s,
        u"enterprise"_s,  u"compaction"_s,  u"experimental"_s,      u"attribution"_s};
    return keys;
}

} // namespace

ConfigErrors ConfigSchema::check(const JsoncDocument &document, const QString &fileName, QStringList *unknownKeys)
{
    Checker c(document, fileName);
    const QJsonObject &config = document.root;
    const Path root;

    for (const QString &key : {u"$schema"_s, u"theme"_s, u"logLevel"_s, u"model"_s, u"small_model"_s,
                               u"default_agent"_s, u"username"_s, u"layout"_s})
        c.string(config, root, key);
    c.oneOf(config, root, u"share"_s, {u"manual"_s, u"auto"_s, u"disabled"_s});
    c.boolean(config, root, u"autoshare"_s);
    c.boolean(config, root, u"snapshot"_s);
    if (const QJsonValue autoupdate = config.value("autoupdate"_L1); !autoupdate.isBool())
        c.oneOf(config, root, u"autoupdate"_s, {u"notify"_s});
    c.stringList(config, root, u"disabled_providers"_s);
    c.stringList(config, root, u"enabled_providers"_s);
    c.stringList(config, root, u"instructions"_s);
    c.stringList(config, root, u"plugin"_s);
    c.objects(config, root, u"provider"_s, [&](const QJsonObject &p, const Path &at) { c.provider(p, at); });
    c.objects(config, root, u"agent"_s, [&](const QJsonObject &a, const Path &at) { c.agent(a, at); });
    c.objects(config, root, u"mode"_s, [&](const QJsonObject &a, const Path &at) { c.agent(a, at); });
    c.permission(config, root, u"permission"_s);
    c.booleans(config, root, u"tools"_s);
    if (c.map(config, root, u"compaction"_s)) {
        const QJsonObject compaction = config.value("compaction"_L1).toObject();
        const Path at{u"compaction"_s};
        c.boolean(compaction, at, u"auto"_s);
        c.boolean(compaction, at, u"prune"_s);
        c.number(compaction, at, u"reserved"_s);
    }
    c.objects(config, root, u"command"_s, [&](const QJsonObject &cmd, const Path &at) { c.command(cmd, at); });
    if (c.map(config, root, u"experimental"_s)) {
        const QJsonObject experimental = config.value("experimental"_L1).toObject();
        const Path at{u"experimental"_s};
        for (const QString &key : {u"batch_tool"_s, u"continue_loop_on_deny"_s, u"openTelemetry"_s})
            c.boolean(experimental, at, key);
        c.stringList(experimental, at, u"primary_tools"_s);
        c.positiveInteger(experimental, at, u"mcp_timeout"_s);
    }
    c.objects(config, root, u"mcp"_s, [&](const QJsonObject &server, const Path &at) { c.mcpServer(server, at); });
    c.orFalse(config, root, u"formatter"_s);
    c.orFalse(config, root, u"lsp"_s);
    for (const QString &key : {u"keybinds"_s, u"tui"_s, u"server"_s, u"watcher"_s, u"skills"_s, u"enterprise"_s})
        c.map(config, root, key);
    if (config.value("watcher"_L1).isObject())
        c.stringList(config.value("watcher"_L1).toObject(), {u"watcher"_s}, u"ignore"_s);

    if (unknownKeys) {
        for (auto it = config.begin(); it != config.end(); ++it) {
            if (!knownTopLevelKeys().contains(it.key()))
                unknownKeys->append(it.key());
        }
    }
    return c.errors;
}

} // namespace qcode
