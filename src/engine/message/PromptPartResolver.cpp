#include "PromptPartResolver.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace qcode {

QList<PromptPart> PromptPartResolver::resolve(const QString &templateText, const QString &worktree,
                                              const QSet<QString> &agentNames, const QString &homePath)
{
    // OpenCode's ConfigMarkdown.FILE_REGEX: a path-like token that may hold
    // inner dots but does not end with one, so "see @a.ts." stops at "a.ts".
    static const QRegularExpression mention(u"(?<![\\w`])@(\\.?[^\\s`,.]*(?:\\.[^\\s`,.]+)*)"_s);

    QList<PromptPart> parts{PromptPart::text(templateText)};
    QSet<QString> seen;
    for (auto it = mention.globalMatch(templateText); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (name.isEmpty() || seen.contains(name))
            continue;
        seen.insert(name);

        const QString path = name.startsWith("~/"_L1) ? QDir::cleanPath(QDir(homePath).filePath(name.mid(2)))
                                                      : QDir::cleanPath(QDir(worktree).absoluteFilePath(name));
        const QFileInfo info(path);
        if (!info.exists()) {
            if (agentNames.contains(name))
                parts.append(PromptPart{std::nullopt, AgentPart{name, std::nullopt}});
            continue;
        }
        const QString mime = info.isDir() ? u"application/x-directory"_s : u"text/plain"_s;
        parts.append(PromptPart{std::nullopt, FilePart{mime, name, QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded),
                                                       std::nullopt}});
    }
    return parts;
}

} // namespace qcode
