#pragma once

#include <QCoreApplication>
#include <QJsonObject>

#include "engine/provider/ProviderRequest.h"
#include "model/Result.h"

namespace qcode {

// Google Gemini (wire formats §6.1): POST
// {baseUrl}/models/{model}:streamGenerateContent?alt=sse with
// x-goog-api-key (never the key= query parameter, which ends up in logs).
// Roles are user and model; tool results are functionResponse parts of a
// user turn, consecutive turns of one role merge so parallel results travel
// together; thought signatures go back on the part that carried them.
class GeminiRequestBuilder
{
    Q_DECLARE_TR_FUNCTIONS(GeminiRequestBuilder)

public:
    // Expects a request RequestBuilder has validated and transformed.
    static Result<HttpRequestSpec> build(const ProviderRequest &request);

    // A JSON Schema as Gemini's OpenAPI subset: no $schema or
    // additionalProperties, ["x","null"] as nullable, const as a one-value
    // enum, then ProviderTransform::sanitizeGeminiSchema. Empty when the
    // tool takes no arguments (Gemini rejects an object without properties).
    static QJsonObject parametersSchema(const QJsonObject &schema);
};

} // namespace qcode
