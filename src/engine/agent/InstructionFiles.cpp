#include "InstructionFiles.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QStringDecoder>

#include <QCoro/QCoroNetworkReply>

#include "AgentLogging.h"
#include "engine/glob/Glob.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QStringList &projectFileNames()
{
    // CONTEXT.md is deprecated in OpenCode but still read.
    static const QStringList names{u"AGENTS.md"_s, u"CLAUDE.md"_s, u"CONTEXT.md"_s};
    return names;
}

QString clean(const QString &path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

bool isUrl(const QString &entry)
{
    return entry.startsWith("https://"_L1) || entry.startsWith("http://"_L1);
}

void appendUnique(QStringList &list, const QString &path)
{
    if (!list.contains(path))
        list.append(path);
}

QCoro::Task<QStringList> fetchAll(QPointer<QNetworkAccessManager> network, QStringList urls,
                                  std::chrono::milliseconds timeout)
{
    QStringList entries;
    if (urls.isEmpty())
        co_return entries;
    if (!network) {
        qCWarning(lcInstructions) << "no network access; instruction URLs are skipped:" << urls;
        co_return entries;
    }
    // Every request is in flight before the first wait, so all of them
    // together take at most one timeout.
    QList<QPointer<QNetworkReply>> replies;
    for (const QString &url : std::as_const(urls)) {
        QNetworkRequest request{QUrl(url)};
        request.setTransferTimeout(int(timeout.count()));
        replies.append(network->get(request));
    }
    QElapsedTimer clock;
    clock.start();
    for (qsizetype i = 0; i < replies.size(); ++i) {
        QPointer<QNetworkReply> reply = replies.at(i);
        const QString &url = urls.at(i);
        if (reply && !reply->isFinished()) {
            const auto left = std::max<qint64>(0, timeout.count() - clock.elapsed());
            const bool finished = co_await qCoro(reply.get()).waitForFinished(std::chrono::milliseconds(left));
            if (!finished && reply)
                reply->abort();
        }
        if (!reply)
            continue; // the network manager went away, and its replies with it
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status != 0 && (status < 200 || status >= 300)) {
            qCWarning(lcInstructions) << "instructions from" << url << "answered HTTP" << status << "and is skipped";
            continue;
        }
        if (reply->error() == QNetworkReply::OperationCanceledError) {
            qCWarning(lcInstructions) << "instructions from" << url << "did not arrive within" << timeout.count()
                                      << "ms; skipped";
            continue;
        }
        if (reply->error() != QNetworkReply::NoError) {
            qCWarning(lcInstructions) << "instructions from" << url << "could not be fetched:" << reply->errorString();
            continue;
        }
        const QString text = QString::fromUtf8(reply->readAll());
        if (text.trimmed().isEmpty()) {
            qCInfo(lcInstructions) << "instructions from" << url << "are empty; skipped";
            continue;
        }
        entries.append(InstructionFiles::render(url, text));
    }
    co_return entries;
}

} // namespace

InstructionFiles::InstructionFiles(InstructionSources sources) : m_sources(std::move(sources)) {}

QString InstructionFiles::render(const QString &source, const QString &text)
{
    return u"Instructions from: "_s + source + QLatin1Char('\n') + text;
}

std::optional<QString> InstructionFiles::readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qCInfo(lcInstructions) << "instruction file" << path << "skipped:" << file.errorString();
        return std::nullopt;
    }
    const QString text = QString::fromUtf8(file.readAll());
    if (text.trimmed().isEmpty()) {
        qCDebug(lcInstructions) << "instruction file" << path << "is empty; skipped";
        return std::nullopt;
    }
    return text;
}

// The project folder and its parents up to the worktree root, nearest
// first; only the project folder when the root is not above it.
QStringList InstructionFiles::directoriesUp() const
{
    if (m_sources.projectDirectory.isEmpty())
        return {};
    const QString project = clean(m_sources.projectDirectory);
    const QString root = m_sources.worktree.isEmpty() ? project : clean(m_sources.worktree);
    QStringList chain{project};
    if (root == project || !project.startsWith(root + QLatin1Char('/')))
        return chain;
    QDir dir(project);
    while (dir.cdUp()) {
        chain.append(dir.absolutePath());
        if (dir.absolutePath() == root)
            break;
    }
    return chain;
}

QStringList InstructionFiles::systemPaths() const
{
    QStringList paths;

    QStringList global;
    if (!m_sources.configDirectory.isEmpty())
        global.append(QDir(m_sources.configDirectory).filePath(u"AGENTS.md"_s));
    for (const QString &dir : m_sources.globalDirectories)
        global.append(QDir(dir).filePath(u"AGENTS.md"_s));
    if (!m_sources.disableClaudeCodePrompt && !m_sources.homeDirectory.isEmpty())
        global.append(QDir(m_sources.homeDirectory).filePath(u".claude/CLAUDE.md"_s));
    for (const QString &candidate : std::as_const(global)) {
        if (QFileInfo(candidate).isFile()) {
            appendUnique(paths, clean(candidate));
            break;
        }
    }

    const QStringList up = directoriesUp();
    if (!m_sources.disableProjectConfig) {
        for (const QString &name : projectFileNames()) {
            QStringList matches;
            for (const QString &dir : up) {
                const QString candidate = QDir(dir).filePath(name);
                if (QFileInfo(candidate).isFile())
                    matches.append(clean(candidate));
            }
            if (!matches.isEmpty()) {
                for (const QString &match : std::as_const(matches))
                    appendUnique(paths, match);
                break;
            }
        }
    }

    for (const QString &raw : m_sources.instructions) {
        if (isUrl(raw))
            continue;
        QString instruction = raw;
        if (instruction.startsWith("~/"_L1) && !m_sources.homeDirectory.isEmpty())
            instruction = QDir(m_sources.homeDirectory).filePath(instruction.mid(2));
        QStringList matches;
        if (QDir::isAbsolutePath(instruction)) {
            // Glob from the deepest folder without wildcards.
            QStringList segments = QDir::fromNativeSeparators(instruction).split(QLatin1Char('/'));
            QStringList base;
            while (!segments.isEmpty() && !Glob::hasWildcard(segments.first()))
                base.append(segments.takeFirst());
            if (segments.isEmpty())
                segments.prepend(base.takeLast()); // a plain path: look for its name in its folder
            QString root = base.join(QLatin1Char('/'));
            if (root.isEmpty())
                root = u"/"_s;
            matches = Glob::findFiles(root, segments.join(QLatin1Char('/')));
        } else if (!m_sources.disableProjectConfig) {
            for (const QString &dir : up)
                matches += Glob::findFiles(dir, instruction);
        } else if (!m_sources.configDirectory.isEmpty()) {
            matches = Glob::findFiles(m_sources.configDirectory, instruction);
        } else {
            qCWarning(lcInstructions) << "the relative instruction" << raw
                                      << "is skipped: project config is disabled and OPENCODE_CONFIG_DIR is not set";
        }
        if (matches.isEmpty())
            qCInfo(lcInstructions) << "the instruction" << raw << "matches no file";
        for (const QString &match : std::as_const(matches))
            appendUnique(paths, clean(match));
    }
    return paths;
}

QStringList InstructionFiles::urls() const
{
    QStringList out;
    for (const QString &entry : m_sources.instructions) {
        if (isUrl(entry) && !out.contains(entry))
            out.append(entry);
    }
    return out;
}

QStringList InstructionFiles::localEntries() const
{
    QStringList entries;
    for (const QString &path : systemPaths()) {
        if (const std::optional<QString> text = readText(path))
            entries.append(render(path, *text));
    }
    return entries;
}

QCoro::Task<QStringList> InstructionFiles::system(QNetworkAccessManager *network, std::chrono::milliseconds timeout) const
{
    // Everything from `this` is read here, before the first co_await.
    QStringList entries = localEntries();
    QStringList remote = co_await fetchAll(QPointer<QNetworkAccessManager>(network), urls(), timeout);
    co_return entries + remote;
}

QSet<QString> InstructionFiles::loaded(const QList<MessageWithParts> &history)
{
    QSet<QString> paths;
    for (const MessageWithParts &message : history) {
        for (const Part &part : message.parts) {
            const ToolPart *tool = part.as<ToolPart>();
            if (!tool || tool->tool != "read"_L1)
                continue;
            const ToolCompleted *completed = std::get_if<ToolCompleted>(&tool->state);
            if (!completed || completed->compacted)
                continue;
            const QJsonValue list = completed->metadata.value("loaded"_L1);
            if (!list.isArray())
                continue;
            for (const QJsonValue &entry : list.toArray()) {
                if (entry.isString())
                    paths.insert(entry.toString());
            }
        }
    }
    return paths;
}

QList<InstructionFiles::Found> InstructionFiles::resolve(const QList<MessageWithParts> &history,
                                                         const QString &filePath, const QString &messageID)
{
    QList<Found> results;
    if (m_sources.projectDirectory.isEmpty())
        return results;
    const QStringList systemList = systemPaths();
    const QSet<QString> system(systemList.cbegin(), systemList.cend());
    const QSet<QString> already = loaded(history);
    const QString target = clean(filePath);
    const QString root = clean(m_sources.projectDirectory);

    QString current = QFileInfo(target).absolutePath();
    while (current.startsWith(root + QLatin1Char('/'))) {
        for (const QString &name : projectFileNames()) {
            const QString candidate = QDir(current).filePath(name);
            if (!QFileInfo(candidate).isFile())
                continue;
            const QString found = clean(candidate);
            QSet<QString> &claimed = m_claims[messageID];
            if (found != target && !system.contains(found) && !already.contains(found) && !claimed.contains(found)) {
                claimed.insert(found);
                if (const std::optional<QString> text = readText(found))
                    results.append({found, render(found, *text)});
            }
            break; // the first name in each folder
        }
        const QString parent = QFileInfo(current).absolutePath();
        if (parent == current)
            break;
        current = parent;
    }
    return results;
}

void InstructionFiles::clear(const QString &messageID)
{
    m_claims.remove(messageID);
}

} // namespace qcode
