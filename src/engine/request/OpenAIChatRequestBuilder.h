#pragma once

#include <QCoreApplication>

#include "engine/provider/ProviderRequest.h"
#include "model/Result.h"

namespace qcode {

// OpenAI Chat Completions and every compatible server (wire formats §4.1):
// POST {baseUrl}/chat/completions with a bearer key, stream_options
// include_usage so usage arrives at all, tools as functions, assistant
// tool_calls answered by `role: tool` messages, images as data-URL
// image_url parts. OpenAI's reasoning models get developer messages and
// max_completion_tokens; compatible servers get max_tokens, which they
// still expect. Images a tool returned follow its results in a user message,
// since a tool message can only hold text.
class OpenAIChatRequestBuilder
{
    Q_DECLARE_TR_FUNCTIONS(OpenAIChatRequestBuilder)

public:
    // Expects a request RequestBuilder has validated and transformed.
    static Result<HttpRequestSpec> build(const ProviderRequest &request);
};

} // namespace qcode
