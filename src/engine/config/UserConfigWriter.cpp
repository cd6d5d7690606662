#include "UserConfigWriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QUrl>

#include "ConfigLogging.h"
#include "JsoncParser.h"
#include "ProviderRegistry.h"
#include "engine/agent/ConfigSourceMap.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

struct Document {
    QJsonObject json;
    ConfigSourceMap order; // the order keys were written in, per object
};

// The text of one JSON string literal starting at `start` (a quote),
// decoded; `end` is set past its closing quote. The text is valid JSON.
QString readString(const QByteArray &text, qsizetype start, qsizetype *end)
{
    qsizetype i = start + 1;
    while (i < text.size() && text.at(i) != '"')
        i += text.at(i) == '\\' ? 2 : 1;
    *end = i + 1;
    const QByteArray literal = '[' + text.mid(start, *end - start) + ']';
    return QJsonDocument::fromJson(literal).array().at(0).toString();
}

// Records the order in which each object's keys appear in `text`.
ConfigSourceMap keyOrder(const QByteArray &text, const QString &file)
{
    struct Frame {
        bool object = false;
        QStringList path;
        bool expectKey = true;
        QString key;
        int index = 0;
    };
    ConfigSourceMap order(file);
    QList<Frame> stack;
    int line = 1;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\n') {
            ++line;
        } else if (c == '"') {
            qsizetype end = i;
            const QString value = readString(text, i, &end);
            if (!stack.isEmpty() && stack.last().object && stack.last().expectKey) {
                order.recordKey(stack.last().path, value, {file, line});
                stack.last().key = value;
                stack.last().expectKey = false;
            }
            i = end - 1;
        } else if (c == ',' && !stack.isEmpty()) {
            if (stack.last().object)
                stack.last().expectKey = true;
            else
                ++stack.last().index;
        } else if (c == '{' || c == '[') {
            QStringList path;
            if (!stack.isEmpty()) {
                const Frame &parent = stack.last();
                path = parent.path;
                path.append(parent.object ? parent.key : QString::number(parent.index));
            }
            stack.append(Frame{c == '{', path, true, {}, 0});
        } else if ((c == '}' || c == ']') && !stack.isEmpty()) {
            stack.removeLast();
        }
    }
    return order;
}

QByteArray scalarText(const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

// Pretty JSON with two-space indents, each object's keys in the order
// `order` knows for it and new keys after them.
void writeValue(QByteArray &out, const QJsonValue &value, const QStringList &path, const ConfigSourceMap &order,
                int depth)
{
    const QByteArray indent((depth + 1) * 2, ' ');
    const QByteArray closing(depth * 2, ' ');
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (object.isEmpty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        const QStringList keys = order.orderedKeys(path, object);
        for (qsizetype i = 0; i < keys.size(); ++i) {
            out += indent + scalarText(keys.at(i)) + ": ";
            writeValue(out, object.value(keys.at(i)), path + QStringList{keys.at(i)}, order, depth + 1);
            out += i + 1 < keys.size() ? ",\n" : "\n";
        }
        out += closing + '}';
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        if (array.isEmpty()) {
            out += "[]";
            return;
        }
        out += "[\n";
        for (qsizetype i = 0; i < array.size(); ++i) {
            out += indent;
            writeValue(out, array.at(i), path + QStringList{QString::number(i)}, order, depth + 1);
            out += i + 1 < array.size() ? ",\n" : "\n";
        }
        out += closing + ']';
    } else {
        out += scalarText(value);
    }
}

Result<void> validatePermissionValue(const QString &key, const QJsonValue &value)
{
    const auto isAction = [](const QJsonValue &v) { return v.isString() && permissionActionFromName(v.toString()); };
    if (isAction(value))
        return {};
    if (value.isObject()) {
        const QJsonObject patterns = value.toObject();
        for (auto it = patterns.begin(); it != patterns.end(); ++it) {
            if (!isAction(it.value()))
                return Error{UserConfigWriter::tr("The permission %1 for “%2” must be \"allow\", \"ask\" or \"deny\".")
                                 .arg(key, it.key())};
        }
        return {};
    }
    return Error{UserConfigWriter::tr("The permission %1 must be \"allow\", \"ask\" or \"deny\", or a map of "
                                      "patterns to those.")
                     .arg(key)};
}

Result<Document> loadDocument(const QString &path)
{
    const QString shown = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.exists())
        return Document{{}, ConfigSourceMap(shown)};
    if (!file.open(QIODevice::ReadOnly))
        return Error{UserConfigWriter::tr("%1 cannot be read (%2), so qcode has not changed it.")
                         .arg(shown, file.errorString())};
    const QByteArray text = file.readAll();
    if (text.trimmed().isEmpty())
        return Document{{}, ConfigSourceMap(shown)};

    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        const auto [line, column] = JsoncParser::lineAndColumn(text, std::max<qsizetype>(0, error.offset - 1));
        if (JsoncParser::parseObject(text, shown))
            return Error{UserConfigWriter::tr("%1 has comments or trailing commas (line %2). qcode rewrites this "
                                              "file and would lose them, so it has not changed it; remove them, or "
                                              "keep hand-written settings in opencode.jsonc.")
                             .arg(shown, QString::number(line))};
        return Error{UserConfigWriter::tr("%1 is not valid JSON: %2 at line %3, column %4. qcode has not changed "
                                          "it; correct the file, then try again.")
                         .arg(shown, error.errorString(), QString::number(line), QString::number(column))};
    }
    if (!document.isObject())
        return Error{UserConfigWriter::tr("%1 must hold a JSON object { … }; qcode has not changed it.").arg(shown)};
    return Document{document.object(), keyOrder(text, shown)};
}

} // namespace

Result<void> CompatibleProvider::validate() const
{
    static const QRegularExpression idPattern(u"^[A-Za-z0-9][A-Za-z0-9._-]*$"_s);
    if (id.trimmed().isEmpty())
        return Error{tr("Give the provider an id, such as “my-server”; models are then named my-server/<model>.")};
    if (!idPattern.match(id).hasMatch())
        return Error{tr("The provider id “%1” may use only letters, digits, dots, dashes and underscores, and must "
                        "start with a letter or digit.")
                         .arg(id)};
    if (Result<void> url = validateBaseURL(baseURL); !url)
        return url;
    if (models.isEmpty())
        return Error{tr("List at least one model id the server offers; a provider without models is not offered.")};
    for (const QString &model : models) {
        if (model.trimmed().isEmpty() || model.contains(QLatin1Char(' ')))
            return Error{tr("The model id “%1” must not be empty or contain spaces.").arg(model)};
    }
    return {};
}

Result<void> CompatibleProvider::validateBaseURL(const QString &baseURL)
{
    const QString text = baseURL.trimmed();
    if (text.isEmpty())
        return Error{tr("Enter the server's base URL, such as http://127.0.0.1:8000/v1.")};
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1) || url.host().isEmpty())
        return Error{tr("“%1” is not a usable base URL; it must start with http:// or https:// and name a host, "
                        "such as http://127.0.0.1:8000/v1.")
                         .arg(text)};
    return {};
}

QString CompatibleProvider::keyVariable(const QString &providerID)
{
    QString name = providerID.toUpper();
    for (QChar &c : name) {
        if (!c.isLetterOrNumber() || c.unicode() > 127)
            c = QLatin1Char('_');
    }
    return name + u"_API_KEY"_s;
}

UserConfigWriter::UserConfigWriter(QString directory) : m_directory(std::move(directory)) {}

QString UserConfigWriter::directoryFor(const ConfigLocations &locations)
{
    return locations.globalDirectories.isEmpty() ? QString() : locations.globalDirectories.constLast();
}

QString UserConfigWriter::filePath() const
{
    return QDir::cleanPath(QDir(m_directory).filePath(fileName()));
}

Result<void> UserConfigWriter::expectObject(const QJsonObject &json, const QString &key) const
{
    const QJsonValue value = json.value(key);
    if (value.isUndefined() || value.isNull() || value.isObject())
        return {};
    return Error{tr("In %1, \"%2\" is not an object; qcode has not changed the file. Correct or remove that entry, "
                    "then try again.")
                     .arg(QDir::toNativeSeparators(filePath()), key)};
}

Result<QJsonObject> UserConfigWriter::read() const
{
    Result<Document> document = loadDocument(filePath());
    if (!document)
        return document.error();
    return document->json;
}

Result<void> UserConfigWriter::update(const std::function<Result<void>(QJsonObject &)> &change)
{
    return edit([&](QJsonObject &json, ConfigSourceMap &) { return change(json); });
}

Result<void> UserConfigWriter::edit(const std::function<Result<void>(QJsonObject &, ConfigSourceMap &)> &change)
{
    const QString path = filePath();
    const QString shown = QDir::toNativeSeparators(path);
    Result<Document> document = loadDocument(path);
    if (!document)
        return document.error();
    if (Result<void> edited = change(document->json, document->order); !edited)
        return edited;

    QByteArray text;
    writeValue(text, document->json, {}, document->order, 0);
    text += '\n';

    if (!QDir().mkpath(m_directory))
        return Error{tr("The folder %1 cannot be created, so the settings were not saved.")
                         .arg(QDir::toNativeSeparators(m_directory))};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{tr("%1 cannot be written (%2); the settings were not saved.").arg(shown, file.errorString())};
    file.write(text);
    if (!file.commit())
        return Error{tr("%1 cannot be written (%2); the settings were not saved.").arg(shown, file.errorString())};
    qCInfo(lcConfig).noquote() << "wrote" << shown;
    return {};
}

Result<void> UserConfigWriter::setTopLevelString(const QString &key, const std::optional<QString> &value)
{
    return update([&](QJsonObject &json) -> Result<void> {
        if (value)
            json.insert(key, *value);
        else
            json.remove(key);
        return {};
    });
}

Result<void> UserConfigWriter::setModel(const std::optional<QString> &model)
{
    if (model && !ProviderRegistry::parseModel(*model))
        return Error{tr("“%1” is not a model; write it as provider/model, such as anthropic/claude-sonnet-4-5.")
                         .arg(*model)};
    return setTopLevelString(u"model"_s, model);
}

Result<void> UserConfigWriter::setSmallModel(const std::optional<QString> &model)
{
    if (model && !ProviderRegistry::parseModel(*model))
        return Error{tr("“%1” is not a model; write it as provider/model, such as anthropic/claude-haiku-4-5.")
                         .arg(*model)};
    return setTopLevelString(u"small_model"_s, model);
}

Result<void> UserConfigWriter::setDefaultAgent(const std::optional<QString> &agent)
{
    if (agent && agent->trimmed().isEmpty())
        return Error{tr("The default agent needs a name.")};
    return setTopLevelString(u"default_agent"_s, agent);
}

Result<void> UserConfigWriter::setPermission(const QString &key, const QJsonValue &value)
{
    if (key.trimmed().isEmpty())
        return Error{tr("A permission needs a name, such as edit or bash.")};
    const bool removing = value.isUndefined() || value.isNull();
    if (!removing) {
        if (Result<void> valid = validatePermissionValue(key, value); !valid)
            return valid;
    }
    return update([&](QJsonObject &json) -> Result<void> {
        const QJsonValue current = json.value("permission"_L1);
        if (!current.isString()) {
            if (Result<void> usable = expectObject(json, u"permission"_s); !usable)
                return usable;
        }
        QJsonObject permission;
        if (current.isObject())
            permission = current.toObject();
        else if (current.isString()) // one action for everything: keep it as the first rule
            permission.insert(u"*"_s, current);
        if (removing)
            permission.remove(key);
        else
            permission.insert(key, value);
        if (permission.isEmpty())
            json.remove("permission"_L1);
        else
            json.insert(u"permission"_s, permission);
        return {};
    });
}

Result<void> UserConfigWriter::setPermissionAction(const QString &key, const std::optional<PermissionAction> &action)
{
    return setPermission(key, action ? QJsonValue(permissionActionName(*action)) : QJsonValue());
}

Result<void> UserConfigWriter::setProvider(const CompatibleProvider &provider)
{
    if (Result<void> valid = provider.validate(); !valid)
        return valid;
    return edit([&](QJsonObject &json, ConfigSourceMap &order) -> Result<void> {
        if (Result<void> usable = expectObject(json, u"provider"_s); !usable)
            return usable;
        // A new entry reads as OpenCode's documentation writes one.
        for (const QString &key : {u"npm"_s, u"name"_s, u"options"_s, u"models"_s, u"env"_s})
            order.recordKey({u"provider"_s, provider.id}, key, {});
        QJsonObject providers = json.value("provider"_L1).toObject();
        QJsonObject entry = providers.value(provider.id).toObject();
        entry.insert(u"npm"_s, u"@ai-sdk/openai-compatible"_s);
        if (provider.name.trimmed().isEmpty())
            entry.remove("name"_L1);
        else
            entry.insert(u"name"_s, provider.name.trimmed());
        QJsonObject options = entry.value("options"_L1).toObject();
        options.insert(u"baseURL"_s, provider.baseURL.trimmed());
        entry.insert(u"options"_s, options);

        const QJsonObject oldModels = entry.value("models"_L1).toObject();
        QJsonObject models;
        for (const QString &id : provider.models) {
            const QJsonValue known = oldModels.value(id);
            models.insert(id, known.isObject() ? known : QJsonObject{{u"name"_s, id}});
        }
        entry.insert(u"models"_s, models);
        if (!provider.env.isEmpty())
            entry.insert(u"env"_s, QJsonArray::fromStringList(provider.env));

        providers.insert(provider.id, entry);
        json.insert(u"provider"_s, providers);
        return {};
    });
}

Result<void> UserConfigWriter::removeProvider(const QString &id)
{
    return update([&](QJsonObject &json) -> Result<void> {
        if (Result<void> usable = expectObject(json, u"provider"_s); !usable)
            return usable;
        QJsonObject providers = json.value("provider"_L1).toObject();
        if (!providers.contains(id))
            return Error{tr("%1 defines no provider “%2”; it may have been removed already.")
                             .arg(QDir::toNativeSeparators(filePath()), id)};
        providers.remove(id);
        if (providers.isEmpty())
            json.remove("provider"_L1);
        else
            json.insert(u"provider"_s, providers);
        return {};
    });
}

} // namespace qcode
