#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include "engine/provider/ProviderRequest.h"

namespace qcode::RequestSupport {

using Headers = QList<QPair<QByteArray, QByteArray>>;

// {baseUrl}/{path}, keeping whatever path the base already has (an
// OpenRouter or proxy prefix) and never doubling a slash.
QUrl appendPath(const QUrl &base, const QString &path);

// The body as compact UTF-8 JSON.
QByteArray jsonBody(const QJsonObject &body);

// Tool arguments as the JSON text OpenAI's APIs want in `arguments`.
QString argumentsText(const QJsonObject &input);

// data:<mediaType>;base64,<bytes>
QString dataUrl(const FileContent &file);

// A tool's JSON schema, or the empty object schema every API accepts when
// the tool takes no arguments.
QJsonObject objectSchema(const QJsonObject &schema);

// The text parts of a message, joined; other parts are ignored.
QString joinedText(const ModelMessage &message, const QString &separator = QString());

// Recursively merges `source` into `target`: objects merge, anything else
// replaces. Keys in `reserved` (the model, the conversation, stream) are
// kept, with a log line, so an option can never corrupt the request.
void mergeOptions(QJsonObject &target, const QJsonObject &source, const QStringList &reserved);

// Renames AI SDK option names (as opencode.json spells them) to the wire's
// names; a dotted wire name nests ("reasoning.effort"). Unknown keys pass
// through unchanged.
QJsonObject renameOptions(const QJsonObject &options, const QList<QPair<QString, QString>> &names);

// OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 but not gpt-5-chat)
// take developer messages and max_completion_tokens and reject sampling
// settings.
bool isOpenAIReasoningModel(const QString &modelId);

// OpenAI's own service, as opposed to a compatible server.
bool isOpenAIService(const ProviderEndpoint &endpoint);

// Sets `name` to `value`, replacing a header of the same name in any case.
void setHeader(Headers &headers, const QByteArray &name, const QByteArray &value);

} // namespace qcode::RequestSupport
