#include "PromptSubmission.h"

#include <QDir>
#include <QJsonObject>

#include "PromptTextParser.h"
#include "engine/message/DataUrl.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QJsonObject mentionText(const PromptTextParser::Token &token, const QString &text)
{
    return QJsonObject{{"value"_L1, text.mid(token.start, token.end - token.start)},
                       {"start"_L1, qint64(token.start)},
                       {"end"_L1, qint64(token.end)}};
}

PromptPart attachmentPart(const PromptAttachment &attachment)
{
    if (!attachment.path.isEmpty())
        return PromptPart::droppedFile(attachment.path);
    const QString mime = attachment.mime.isEmpty() ? u"image/png"_s : attachment.mime;
    return PromptPart{std::nullopt,
                      FilePart{mime, attachment.name, DataUrl::encode(mime, attachment.data), std::nullopt}};
}

} // namespace

QList<PromptPart> PromptSubmission::toPromptParts(const QString &projectDirectory) const
{
    QList<PromptPart> parts;
    if (!text.trimmed().isEmpty())
        parts.append(PromptPart::text(text));

    const QList<PromptTextParser::Token> tokens = PromptTextParser::mentions(text);
    QStringList attachedPaths;
    for (const PromptAttachment &attachment : attachments)
        if (!attachment.path.isEmpty())
            attachedPaths.append(QDir::cleanPath(attachment.path));

    const QDir project(projectDirectory);
    QStringList fileDone;
    for (const PromptTextParser::Token &token : tokens) {
        if (!mentionedFiles.contains(token.text) || fileDone.contains(token.text))
            continue;
        fileDone.append(token.text);
        const QString absolute = QDir::cleanPath(project.absoluteFilePath(token.text));
        if (attachedPaths.contains(absolute))
            continue;
        PromptPart part = PromptPart::droppedFile(absolute);
        std::get<FilePart>(part.body).source =
            QJsonObject{{"type"_L1, u"file"_s}, {"path"_L1, token.text}, {"text"_L1, mentionText(token, text)}};
        parts.append(part);
    }
    // A submission made elsewhere may name files its text does not show;
    // they are attached all the same.
    for (const QString &file : mentionedFiles)
        if (!fileDone.contains(file) && !attachedPaths.contains(QDir::cleanPath(project.absoluteFilePath(file))))
            parts.append(PromptPart::droppedFile(project.absoluteFilePath(file)));

    for (const PromptAttachment &attachment : attachments)
        parts.append(attachmentPart(attachment));

    QStringList agentDone;
    for (const PromptTextParser::Token &token : tokens) {
        if (!mentionedAgents.contains(token.text) || agentDone.contains(token.text))
            continue;
        agentDone.append(token.text);
        parts.append(PromptPart{std::nullopt, AgentPart{token.text, mentionText(token, text)}});
    }
    for (const QString &agentName : mentionedAgents)
        if (!agentDone.contains(agentName))
            parts.append(PromptPart{std::nullopt, AgentPart{agentName, std::nullopt}});
    return parts;
}

} // namespace qcode
