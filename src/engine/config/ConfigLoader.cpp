#include "ConfigLoader.h"

#include <QDir>
#include <QFileInfo>

#include "ConfigFile.h"
#include "ConfigLogging.h"
#include "ConfigSchema.h"
#include "ConfigSubstitution.h"
#include "JsonMerge.h"
#include "JsoncParser.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

void appendFiles(QStringList &out, const QString &directory, std::initializer_list<QLatin1StringView> names)
{
    const QDir dir(directory);
    for (QLatin1StringView name : names) {
        const QString path = QDir::cleanPath(dir.absoluteFilePath(name));
        if (!out.contains(path))
            out.append(path);
    }
}

QString expandHome(const QString &path, const QString &home)
{
    if (path == "~"_L1 || path.startsWith("~/"_L1))
        return QDir(home).filePath(path.mid(2));
    return path;
}

} // namespace

QStringList ConfigLoader::candidateFiles(const ConfigLocations &locations)
{
    QStringList files;
    for (const QString &global : locations.globalDirectories) {
        appendFiles(files, global,
                    {"config.json"_L1, "opencode.json"_L1, "opencode.jsonc"_L1, "qcode.json"_L1, "qcode.jsonc"_L1});
    }
    if (!locations.homeDirectory.isEmpty())
        appendFiles(files, QDir(locations.homeDirectory).filePath(u".opencode"_s),
                    {"opencode.jsonc"_L1, "opencode.json"_L1});

    for (const QString &variable : {u"OPENCODE_CONFIG"_s, u"QCODE_CONFIG"_s}) {
        const QString named = locations.environment.value(variable);
        if (named.isEmpty())
            continue;
        const QString path = QDir::cleanPath(
            QDir(locations.projectDirectory).absoluteFilePath(expandHome(named, locations.homeDirectory)));
        files.removeAll(path);
        files.append(path);
    }

    const QStringList chain = locations.projectChain();
    for (const QString &dir : chain)
        appendFiles(files, dir, {"opencode.jsonc"_L1, "opencode.json"_L1, "qcode.jsonc"_L1, "qcode.json"_L1});
    for (const QString &dir : chain)
        appendFiles(files, QDir(dir).filePath(u".opencode"_s), {"opencode.jsonc"_L1, "opencode.json"_L1});

    const QString configDir = locations.environment.value(u"OPENCODE_CONFIG_DIR"_s);
    if (!configDir.isEmpty())
        appendFiles(files, expandHome(configDir, locations.homeDirectory), {"opencode.jsonc"_L1, "opencode.json"_L1});
    return files;
}

Result<QJsonObject> ConfigLoader::parseText(const QByteArray &text, const QString &path,
                                            const ConfigLocations &locations)
{
    ConfigErrors errors;
    std::optional<QJsonObject> parsed = parseText(text, path, locations, &errors);
    if (!parsed)
        return Error{configErrorLines(errors).join(u'\n')};
    return *parsed;
}

Result<QJsonObject> ConfigLoader::loadFile(const QString &path, const ConfigLocations &locations)
{
    ConfigErrors errors;
    std::optional<QJsonObject> parsed = loadFile(path, locations, &errors);
    if (!parsed)
        return Error{configErrorLines(errors).join(u'\n')};
    return *parsed;
}

std::optional<QJsonObject> ConfigLoader::parseText(const QByteArray &text, const QString &path,
                                                   const ConfigLocations &locations, ConfigErrors *errors)
{
    const QString shown = QDir::toNativeSeparators(path);
    if (const qsizetype bad = JsoncParser::invalidUtf8Offset(text); bad >= 0) {
        const auto [line, column] = JsoncParser::lineAndColumn(text, bad);
        errors->append({shown, line, column,
                        tr("the file is not UTF-8 text (byte 0x%1)")
                            .arg(uchar(text.at(bad)), 2, 16, QLatin1Char('0'))});
        return std::nullopt;
    }
    ConfigError substitutionError;
    Result<QString> substituted = ConfigSubstitution::apply(QString::fromUtf8(text), path, locations.environment,
                                                            locations.homeDirectory, &substitutionError);
    if (!substituted) {
        errors->append(substitutionError);
        return std::nullopt;
    }
    ConfigError parseError;
    std::optional<JsoncDocument> document = JsoncParser::parseDocument(substituted->toUtf8(), shown, &parseError);
    if (!document) {
        errors->append(parseError);
        return std::nullopt;
    }
    QStringList unknownKeys;
    const ConfigErrors wrong = ConfigSchema::check(*document, shown, &unknownKeys);
    if (!unknownKeys.isEmpty())
        qCInfo(lcConfig).noquote() << shown << "has keys qcode does not know, ignored:" << unknownKeys.join(u", "_s);
    if (!wrong.isEmpty()) {
        *errors += wrong;
        return std::nullopt;
    }
    return document->root;
}

std::optional<QJsonObject> ConfigLoader::loadFile(const QString &path, const ConfigLocations &locations,
                                                  ConfigErrors *errors)
{
    const Result<QByteArray> bytes = ConfigFile::read(path);
    if (!bytes) {
        errors->append({QDir::toNativeSeparators(path), 0, 0, bytes.errorMessage()});
        return std::nullopt;
    }
    return parseText(*bytes, path, locations, errors);
}

LoadedConfig ConfigLoader::load(const ConfigLocations &locations)
{
    LoadedConfig loaded;
    const QStringList explicitFiles{locations.environment.value(u"OPENCODE_CONFIG"_s),
                                    locations.environment.value(u"QCODE_CONFIG"_s)};
    const auto merge = [&](const QString &source, const std::optional<QJsonObject> &parsed) {
        if (!parsed)
            return;
        loaded.json = JsonMerge::deepMerge(loaded.json, *parsed, JsonMerge::configConcatenatedKeys());
        loaded.files.append(source);
        qCDebug(lcConfig).noquote() << "merged config" << source;
    };

    for (const QString &path : candidateFiles(locations)) {
        // Not QFileInfo::exists(): a dangling link is missing, but a pipe,
        // a folder or an unreadable file in a config's place is an error.
        if (!QFileInfo(path).exists() && !QFileInfo(path).isSymLink()) {
            // A file someone named on purpose and that is missing deserves a word.
            const bool named = std::any_of(explicitFiles.begin(), explicitFiles.end(), [&](const QString &f) {
                return !f.isEmpty()
                    && QDir::cleanPath(QDir(locations.projectDirectory)
                                           .absoluteFilePath(expandHome(f, locations.homeDirectory)))
                    == path;
            });
            if (named) {
                loaded.problems.append(tr("%1: the config file named by the environment does not exist")
                                           .arg(QDir::toNativeSeparators(path)));
                qCWarning(lcConfig).noquote() << loaded.problems.constLast();
            }
            continue;
        }
        merge(path, loadFile(path, locations, &loaded.errors));
    }

    const QString inlineContent = locations.environment.value(u"OPENCODE_CONFIG_CONTENT"_s);
    if (!inlineContent.isEmpty()) {
        const QString source = u"OPENCODE_CONFIG_CONTENT"_s;
        const QString pseudoPath = QDir(locations.projectDirectory).filePath(source);
        ConfigErrors inlineErrors;
        const std::optional<QJsonObject> parsed = parseText(inlineContent.toUtf8(), pseudoPath, locations, &inlineErrors);
        // The variable has no file: its errors are named after it.
        for (ConfigError &error : inlineErrors) {
            if (error.file == QDir::toNativeSeparators(pseudoPath))
                error.file = source;
        }
        loaded.errors += inlineErrors;
        merge(source, parsed);
    }
    for (const ConfigError &error : std::as_const(loaded.errors))
        qCWarning(lcConfig).noquote() << "config error:" << error.toString();
    return loaded;
}

} // namespace qcode
