#include "McpToolResult.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace qcode::McpToolResult {

namespace {

QString dataUrl(const QString &mime, const QString &base64)
{
    return u"data:%1;base64,%2"_s.arg(mime, base64);
}

} // namespace

ToolResult convert(const QJsonObject &result)
{
    QStringList texts;
    QList<FilePart> attachments;
    for (const QJsonValue &value : result.value("content"_L1).toArray()) {
        const QJsonObject item = value.toObject();
        const QString type = item.value("type"_L1).toString();
        if (type == "text"_L1) {
            texts.append(item.value("text"_L1).toString());
        } else if (type == "image"_L1) {
            attachments.append(FilePart{item.value("mimeType"_L1).toString(u"image/png"_s), std::nullopt,
                                        dataUrl(item.value("mimeType"_L1).toString(u"image/png"_s),
                                                item.value("data"_L1).toString()),
                                        std::nullopt});
        } else if (type == "resource"_L1) {
            const QJsonObject resource = item.value("resource"_L1).toObject();
            if (resource.value("text"_L1).isString()) {
                texts.append(resource.value("text"_L1).toString());
            } else if (resource.value("blob"_L1).isString()) {
                const QString mime = resource.value("mimeType"_L1).toString(u"application/octet-stream"_s);
                attachments.append(FilePart{mime, resource.value("uri"_L1).toString(),
                                            dataUrl(mime, resource.value("blob"_L1).toString()), std::nullopt});
            }
        } else if (type == "resource_link"_L1) {
            const QString uri = item.value("uri"_L1).toString();
            texts.append(u"%1 (%2)"_s.arg(item.value("name"_L1).toString(uri), uri));
        }
    }
    if (texts.isEmpty() && result.contains("structuredContent"_L1)) {
        const QJsonValue structured = result.value("structuredContent"_L1);
        texts.append(structured.isObject()
                         ? QString::fromUtf8(QJsonDocument(structured.toObject()).toJson(QJsonDocument::Compact))
                         : QString::fromUtf8(QJsonDocument(structured.toArray()).toJson(QJsonDocument::Compact)));
    }
    const QString output = texts.join(u"\n\n"_s);
    if (result.value("isError"_L1).toBool())
        return ToolFailure{output.isEmpty() ? u"The MCP tool reported an error without a message."_s : output,
                           ToolFailure::Kind::Failed};
    ToolOutput out;
    out.output = output;
    out.metadata = result.value("metadata"_L1).toObject();
    out.attachments = attachments;
    return out;
}

} // namespace qcode::McpToolResult
