#include "RequestSupport.h"

#include "RequestLogging.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace qcode::RequestSupport {

QUrl appendPath(const QUrl &base, const QString &path)
{
    QUrl url = base;
    QString basePath = url.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    url.setPath(basePath + u'/' + path);
    return url;
}

QByteArray jsonBody(const QJsonObject &body)
{
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QString argumentsText(const QJsonObject &input)
{
    return QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact));
}

QString dataUrl(const FileContent &file)
{
    return u"data:%1;base64,%2"_s.arg(file.mediaType, QString::fromLatin1(file.data.toBase64()));
}

QJsonObject objectSchema(const QJsonObject &schema)
{
    if (!schema.isEmpty())
        return schema;
    return QJsonObject{{"type"_L1, "object"_L1}, {"properties"_L1, QJsonObject()}};
}

QString joinedText(const ModelMessage &message, const QString &separator)
{
    QStringList texts;
    for (const ContentPart &part : message.content) {
        if (const auto *text = std::get_if<TextContent>(&part))
            texts.append(text->text);
    }
    return texts.join(separator);
}

void mergeOptions(QJsonObject &target, const QJsonObject &source, const QStringList &reserved)
{
    for (auto it = source.begin(); it != source.end(); ++it) {
        if (reserved.contains(it.key())) {
            qCWarning(lcProviderRequest) << "ignoring provider option" << it.key() << "that would replace part of the request";
            continue;
        }
        const QJsonValue existing = target.value(it.key());
        if (existing.isObject() && it.value().isObject()) {
            QJsonObject merged = existing.toObject();
            mergeOptions(merged, it.value().toObject(), {});
            target.insert(it.key(), merged);
        } else {
            target.insert(it.key(), it.value());
        }
    }
}

QJsonObject renameOptions(const QJsonObject &options, const QList<QPair<QString, QString>> &names)
{
    QJsonObject out;
    for (auto it = options.begin(); it != options.end(); ++it) {
        QString wire = it.key();
        for (const auto &[sdkName, wireName] : names) {
            if (sdkName == it.key()) {
                wire = wireName;
                break;
            }
        }
        const qsizetype dot = wire.indexOf(u'.');
        if (dot < 0) {
            mergeOptions(out, QJsonObject{{wire, it.value()}}, {});
        } else {
            mergeOptions(out, QJsonObject{{wire.left(dot), QJsonObject{{wire.mid(dot + 1), it.value()}}}}, {});
        }
    }
    return out;
}

bool isOpenAIReasoningModel(const QString &modelId)
{
    // Routed ids such as "openai/o3" name the same model.
    const QString id = modelId.section(u'/', -1).toLower();
    if (id.size() >= 2 && id.at(0) == u'o' && id.at(1).isDigit())
        return true;
    if (id.startsWith("codex"_L1))
        return true;
    return id.startsWith("gpt-5"_L1) && !id.startsWith("gpt-5-chat"_L1) && !id.contains("-chat-latest"_L1);
}

bool isOpenAIService(const ProviderEndpoint &endpoint)
{
    return endpoint.providerId == "openai"_L1 || endpoint.baseUrl.host() == "api.openai.com"_L1;
}

void setHeader(Headers &headers, const QByteArray &name, const QByteArray &value)
{
    headers.removeIf([&name](const QPair<QByteArray, QByteArray> &header) {
        return header.first.compare(name, Qt::CaseInsensitive) == 0;
    });
    headers.append({name, value});
}

} // namespace qcode::RequestSupport
