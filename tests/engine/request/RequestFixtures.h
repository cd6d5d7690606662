#pragma once

// Small builders for ProviderRequests and structural JSON checks shared by
// the request suites.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "engine/provider/ProviderRequest.h"
#include "engine/request/RequestBuilder.h"

namespace qcode::test {

using namespace Qt::StringLiterals;

inline QJsonValue json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad JSON in a test: %s", qPrintable(error.errorString()));
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
}

inline QString pretty(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson());
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson());
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
}

// Builds a request the test expects to be valid; a failure ends the test run
// with the builder's sentence.
inline HttpRequestSpec build(const ProviderRequest &r)
{
    Result<HttpRequestSpec> spec = buildHttpRequest(r);
    if (!spec)
        qFatal("building failed: %s", qPrintable(spec.errorMessage()));
    return *spec;
}

inline QJsonObject bodyOf(const HttpRequestSpec &spec)
{
    return QJsonDocument::fromJson(spec.body).object();
}

inline QList<QByteArray> headerValues(const HttpRequestSpec &spec, const QByteArray &name)
{
    QList<QByteArray> values;
    for (const auto &[key, value] : spec.headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            values.append(value);
    }
    return values;
}

inline QByteArray header(const HttpRequestSpec &spec, const QByteArray &name)
{
    const QList<QByteArray> values = headerValues(spec, name);
    return values.isEmpty() ? QByteArray() : values.first();
}

inline ProviderEndpoint endpoint(WireProtocol protocol)
{
    switch (protocol) {
    case WireProtocol::AnthropicMessages:
        return {protocol, u"anthropic"_s, u"claude-sonnet-4-5"_s, QUrl(u"https://api.anthropic.com/v1"_s), u"sk-ant-secret"_s, {}};
    case WireProtocol::OpenAIChat:
        return {protocol, u"openai"_s, u"gpt-4.1"_s, QUrl(u"https://api.openai.com/v1"_s), u"sk-openai-secret"_s, {}};
    case WireProtocol::OpenAIResponses:
        return {protocol, u"openai"_s, u"gpt-5"_s, QUrl(u"https://api.openai.com/v1"_s), u"sk-openai-secret"_s, {}};
    case WireProtocol::Gemini:
        return {protocol, u"google"_s, u"gemini-2.5-pro"_s, QUrl(u"https://generativelanguage.googleapis.com/v1beta"_s),
                u"goog-secret"_s, {}};
    }
    return {};
}

inline ModelMessage userText(const QString &text)
{
    return ModelMessage{ModelRole::User, {TextContent{text, {}}}, {}};
}

inline ModelMessage assistant(QList<ContentPart> parts)
{
    return ModelMessage{ModelRole::Assistant, std::move(parts), {}};
}

inline ModelMessage toolResults(QList<ContentPart> parts)
{
    return ModelMessage{ModelRole::Tool, std::move(parts), {}};
}

inline ToolCallContent call(const QString &id, const QString &name, const QJsonObject &input, const QJsonObject &metadata = {})
{
    return ToolCallContent{id, name, input, metadata};
}

inline ToolResultContent result(const QString &id, const QString &name, const QString &text, bool isError = false)
{
    return ToolResultContent{id, name, text, isError, {}, {}};
}

inline FileContent file(const QString &mediaType, const QByteArray &data, const QString &filename = {})
{
    return FileContent{mediaType, data, QUrl(), filename, {}};
}

inline ProviderRequest request(WireProtocol protocol, QList<ModelMessage> messages, QStringList system = {})
{
    ProviderRequest r;
    r.endpoint = endpoint(protocol);
    r.system = std::move(system);
    r.messages = std::move(messages);
    return r;
}

} // namespace qcode::test

// Compares JSON by structure and prints both sides when they differ.
#define QCOMPARE_JSON(actual, expected)                                                                          \
    do {                                                                                                         \
        const QJsonValue qcodeActual_ = QJsonValue(actual);                                                      \
        const QJsonValue qcodeExpected_ = QJsonValue(expected);                                                  \
        QVERIFY2(qcodeActual_ == qcodeExpected_,                                                                 \
                 qPrintable(u"\nactual:   "_s + qcode::test::pretty(qcodeActual_) + u"\nexpected: "_s             \
                            + qcode::test::pretty(qcodeExpected_)));                                             \
    } while (false)
