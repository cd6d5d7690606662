#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

#include "ConfigLocations.h"
#include "engine/agent/PermissionRule.h"
#include "model/Result.h"

namespace qcode {

class ConfigSourceMap;

// An OpenAI-compatible server (Ollama, LM Studio, vLLM, a company proxy …)
// as the settings window defines it. It has no key on purpose: keys go to
// the system keychain, never into a config file.
struct CompatibleProvider {
    Q_DECLARE_TR_FUNCTIONS(CompatibleProvider)

public:
    QString id;
    QString name;
    QString baseURL;   // the API root, version path included: http://host:port/v1
    QStringList models; // model ids the server offers
    QStringList env;    // environment variables that may hold its key

    // Every field a person can get wrong, one sentence for the first one.
    Result<void> validate() const;
    // http(s), with a host; the first check validate() makes.
    static Result<void> validateBaseURL(const QString &baseURL);
    // "my-server" → "MY_SERVER_API_KEY": the variable to set where no
    // keychain keeps the key.
    static QString keyVariable(const QString &providerID);
};

// Writes the person's settings to qcode.json in qcode's global config
// folder. Only that file: a project's config belongs to the project, and
// opencode.json(c) may hold comments the person wrote, which a rewrite
// would lose.
//
// Every change reads the file as it is now, changes its keys and keeps all
// the others (in the order they were written, since a permission map is
// read in that order), and replaces the file in one step (QSaveFile). A
// file that is not plain JSON is refused, naming the file and line, and
// left untouched.
class UserConfigWriter
{
    Q_DECLARE_TR_FUNCTIONS(UserConfigWriter)

public:
    explicit UserConfigWriter(QString directory);

    static QString fileName() { return QStringLiteral("qcode.json"); }
    // qcode's own global folder: the last of the global folders, so what
    // the person sets here wins over their global opencode.json.
    static QString directoryFor(const ConfigLocations &locations);

    QString directory() const { return m_directory; }
    QString filePath() const;

    // The file's settings; an absent or empty file has none.
    Result<QJsonObject> read() const;

    // `model`, `small_model`, `default_agent`; an empty optional removes the key.
    Result<void> setModel(const std::optional<QString> &model);
    Result<void> setSmallModel(const std::optional<QString> &model);
    Result<void> setDefaultAgent(const std::optional<QString> &agent);

    // permission.<key>: "allow" | "ask" | "deny", or {pattern: action}; an
    // undefined or null value removes the key.
    Result<void> setPermission(const QString &key, const QJsonValue &value);
    Result<void> setPermissionAction(const QString &key, const std::optional<PermissionAction> &action);

    // provider.<id>: {npm, name, options.baseURL, models, env}, merged over
    // the entry already there (its headers and model details stay).
    Result<void> setProvider(const CompatibleProvider &provider);
    Result<void> removeProvider(const QString &id);

    // Reads, lets `change` edit the settings, writes them back; nothing is
    // written when `change` fails.
    Result<void> update(const std::function<Result<void>(QJsonObject &)> &change);

private:
    // update(), with the order keys are written in: new keys recorded
    // there come before other new keys, in the order recorded.
    Result<void> edit(const std::function<Result<void>(QJsonObject &, ConfigSourceMap &)> &change);
    Result<void> setTopLevelString(const QString &key, const std::optional<QString> &value);
    // A key qcode merges into must hold an object (or nothing) before it does.
    Result<void> expectObject(const QJsonObject &json, const QString &key) const;

    QString m_directory;
};

} // namespace qcode
