#pragma once

#include <QCoreApplication>

#include "engine/provider/ProviderRequest.h"
#include "model/Result.h"

namespace qcode {

// OpenAI Responses (wire formats §5.1): POST {baseUrl}/responses, stateless
// (`store: false`), so everything the model needs is replayed as input
// items in order: messages, function_call / function_call_output, and
// reasoning items with their encrypted_content, which reasoning models
// return when asked through `include`. Tool definitions are flat.
class OpenAIResponsesRequestBuilder
{
    Q_DECLARE_TR_FUNCTIONS(OpenAIResponsesRequestBuilder)

public:
    // Expects a request RequestBuilder has validated and transformed.
    static Result<HttpRequestSpec> build(const ProviderRequest &request);
};

} // namespace qcode
