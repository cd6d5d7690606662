#include "ConfigLoader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "ConfigLogging.h"
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
    Result<QString> substituted =
        ConfigSubstitution::apply(QString::fromUtf8(text), path, locations.environment, locations.homeDirectory);
    if (!substituted)
        return substituted.error();
    return JsoncParser::parseObject(substituted->toUtf8(), QDir::toNativeSeparators(path));
}

Result<QJsonObject> ConfigLoader::loadFile(const QString &path, const ConfigLocations &locations)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{tr("%1: cannot be read: %2").arg(QDir::toNativeSeparators(path), file.errorString())};
    return parseText(file.readAll(), path, locations);
}

LoadedConfig ConfigLoader::load(const ConfigLocations &locations)
{
    LoadedConfig loaded;
    const QStringList explicitFiles{locations.environment.value(u"OPENCODE_CONFIG"_s),
                                    locations.environment.value(u"QCODE_CONFIG"_s)};
    const auto merge = [&](const QString &source, Result<QJsonObject> parsed) {
        if (!parsed) {
            loaded.problems.append(parsed.errorMessage());
            qCWarning(lcConfig).noquote() << "skipping config:" << parsed.errorMessage();
            return;
        }
        loaded.json = JsonMerge::deepMerge(loaded.json, *parsed, JsonMerge::configConcatenatedKeys());
        loaded.files.append(source);
        qCDebug(lcConfig).noquote() << "merged config" << source;
    };

    for (const QString &path : candidateFiles(locations)) {
        const QFileInfo info(path);
        if (!info.exists()) {
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
        if (!info.isFile())
            continue;
        merge(path, loadFile(path, locations));
    }

    const QString inlineContent = locations.environment.value(u"OPENCODE_CONFIG_CONTENT"_s);
    if (!inlineContent.isEmpty()) {
        const QString source = u"OPENCODE_CONFIG_CONTENT"_s;
        const QString pseudoPath = QDir(locations.projectDirectory).filePath(source);
        merge(source, parseText(inlineContent.toUtf8(), pseudoPath, locations));
    }
    return loaded;
}

} // namespace qcode
